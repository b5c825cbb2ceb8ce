/**
 * A second process for download.test.ts: downloads one file with
 * downloadVerified, its log on stderr, and prints "done" when it returns.
 */
import { downloadVerified } from "../../src/download/verified-download.ts";

const [url, target, sha256, name] = process.argv.slice(2);
await downloadVerified({ url: url!, target: target!, sha256: sha256!, name: name! }, (line) => console.error(line));
console.log("done");
