/**
 * install.sh's choice between a release's .tar.xz and .tar.gz, against a
 * small stand-in release on disk (file:// through curl): the .tar.xz where
 * the system can read xz (the xz program, a libarchive tar such as macOS's,
 * python3's lzma) and the release lists it, the .tar.gz otherwise, each
 * checked against SHA256SUMS. Each reader is tested on a PATH that holds it
 * and none of the readers install.sh would try before it. The real release is installed in
 * scripts/accept/install.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256File } from "../../src/download/verified-download.ts";
import { REPO_ROOT, tempDir, writeTree } from "../helpers.ts";

const VERSION = "9.9.9";
const NAME = `minirag-mcp-${VERSION}-linux-x64`;

/** A release folder holding the same stand-in program as .tar.gz and .tar.xz, and SHA256SUMS over the ones listed. */
async function fakeRelease(listed: ("tar.gz" | "tar.xz")[], tamper?: "tar.xz"): Promise<string> {
  const dir = tempDir("minirag-fake-release-");
  writeTree(dir, { [`${NAME}/minirag-mcp`]: "#!/bin/sh\necho stand-in\n" });
  Bun.spawnSync(["chmod", "+x", join(dir, NAME, "minirag-mcp")]);
  for (const [ext, flag] of [["tar.gz", "-czf"], ["tar.xz", "-cJf"]] as const) {
    expect(Bun.spawnSync(["tar", flag, `${NAME}.${ext}`, NAME], { cwd: dir }).exitCode).toBe(0);
  }
  const sums = await Promise.all(listed.map(async (ext) => `${await sha256File(join(dir, `${NAME}.${ext}`))}  ${NAME}.${ext}\n`));
  writeFileSync(join(dir, "SHA256SUMS"), sums.join(""));
  if (tamper) writeFileSync(join(dir, `${NAME}.${tamper}`), "not the archive SHA256SUMS lists");
  return dir;
}

/** The xz programs of xz-utils (and BusyBox's applets of the same names). */
const XZ_TOOLS = /^(xz|unxz|xzcat)$/;
const PYTHON = /^python3/;

/**
 * A PATH with every tool of /usr/bin and /bin but those `leave` matches;
 * `tar` points at `tarFrom` when given (a libarchive tar in place of GNU's).
 */
function pathWithout(leave: RegExp, tarFrom?: string): string {
  const bin = tempDir("minirag-path-");
  if (tarFrom) symlinkSync(tarFrom, join(bin, "tar"));
  for (const from of ["/usr/bin", "/bin"]) {
    if (!existsSync(from)) continue;
    for (const tool of readdirSync(from)) {
      if (leave.test(tool) || existsSync(join(bin, tool))) continue;
      symlinkSync(join(from, tool), join(bin, tool));
    }
  }
  return bin;
}

/** A system where only gzip can unpack: no xz program, no Python, GNU tar. */
const pathWithoutXz = () => pathWithout(new RegExp(`${XZ_TOOLS.source}|${PYTHON.source}`));

const pythonReadsXz = Bun.spawnSync(["python3", "-c", "import lzma"], { env: { PATH: "/usr/bin:/bin" } }).exitCode === 0;
const bsdtar = ["/usr/bin/bsdtar", "/bin/bsdtar"].find((path) => existsSync(path));

function install(release: string, prefix: string, path = process.env.PATH!) {
  const proc = Bun.spawnSync(["sh", join(REPO_ROOT, "install.sh"), "--version", VERSION, "--target", "linux-x64", "--prefix", prefix, "--no-status"], {
    env: { HOME: tempDir("minirag-home-"), PATH: path, MINIRAG_DOWNLOAD_URL: `file://${release}` },
  });
  return { code: proc.exitCode, out: proc.stdout.toString(), err: proc.stderr.toString() };
}

/** The install went through without a word on stderr, from the .tar.xz, and the installed program runs. */
function expectInstalledFromXz(r: ReturnType<typeof install>, prefix: string): void {
  expect(r.err).toBe("");
  expect(r.code).toBe(0);
  expect(installedFrom(prefix)).toBe(`${NAME}.tar.xz`);
  expect(Bun.spawnSync([join(prefix, "bin/minirag-mcp")]).stdout.toString()).toBe("stand-in\n");
}

const installedFrom = (prefix: string) => readFileSync(join(prefix, "share/minirag-mcp", VERSION, ".installed-from"), "utf8").trim();

describe("install.sh picks the archive the system can unpack", () => {
  test("with xz installed it downloads the .tar.xz, checks it and installs from it", async () => {
    const release = await fakeRelease(["tar.gz", "tar.xz"]);
    const prefix = tempDir("minirag-prefix-");
    const r = install(release, prefix);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain(`downloading file://${release}/${NAME}.tar.xz`);
    expect(r.out).toContain(`checksum ok: ${NAME}.tar.xz`);
    expect(installedFrom(prefix)).toBe(`${NAME}.tar.xz`);
    expect(Bun.spawnSync([join(prefix, "bin/minirag-mcp")]).stdout.toString()).toBe("stand-in\n");
    // Run again without xz: the version is there already, whichever archive it came from.
    const again = install(release, prefix, pathWithoutXz());
    expect(again.out).toContain(`minirag-mcp ${VERSION} (linux-x64) is already installed`);
  });

  test.skipIf(!pythonReadsXz)("without xz but with python3 (its lzma module) it installs from the .tar.xz [needs /usr/bin/python3]", async () => {
    const release = await fakeRelease(["tar.gz", "tar.xz"]);
    const prefix = tempDir("minirag-prefix-");
    const r = install(release, prefix, pathWithout(XZ_TOOLS));
    expectInstalledFromXz(r, prefix);
  });

  test.skipIf(!bsdtar)("without xz or python3, a tar built on libarchive (macOS's) installs from the .tar.xz [needs bsdtar: apt install libarchive-tools]", async () => {
    const release = await fakeRelease(["tar.gz", "tar.xz"]);
    const prefix = tempDir("minirag-prefix-");
    const r = install(release, prefix, pathWithout(new RegExp(`${XZ_TOOLS.source}|${PYTHON.source}|^tar$`), bsdtar));
    expectInstalledFromXz(r, prefix);
  });

  test("with BusyBox's xzcat alone (Alpine has no xz program) it installs from the .tar.xz", async () => {
    const release = await fakeRelease(["tar.gz", "tar.xz"]);
    const prefix = tempDir("minirag-prefix-");
    const path = pathWithout(new RegExp(`${XZ_TOOLS.source}|${PYTHON.source}`));
    // xz-utils' xzcat is xz under that name, which reads to standard output as BusyBox's applet does.
    symlinkSync(Bun.which("xzcat")!, join(path, "xzcat"));
    const r = install(release, prefix, path);
    expectInstalledFromXz(r, prefix);
  });

  test("--archive with a .tar.xz whose stream end is damaged (every file inside whole) and no SHA256SUMS beside it is refused", async () => {
    const release = await fakeRelease(["tar.gz", "tar.xz"]);
    const archive = join(tempDir("minirag-damaged-"), `${NAME}.tar.xz`);
    const bytes = readFileSync(join(release, `${NAME}.tar.xz`));
    // The stream footer's magic ("YZ") is its last two bytes: xz reports the damage after writing every byte.
    bytes[bytes.length - 1] = 0;
    writeFileSync(archive, bytes);
    const prefix = tempDir("minirag-prefix-");
    const proc = Bun.spawnSync(["sh", join(REPO_ROOT, "install.sh"), "--archive", archive, "--target", "linux-x64", "--prefix", prefix, "--no-status"], {
      env: { HOME: tempDir("minirag-home-"), PATH: process.env.PATH! },
    });
    expect(proc.exitCode).toBe(1);
    expect(proc.stderr.toString()).toContain(`could not unpack ${archive}`);
    expect(existsSync(join(prefix, "bin/minirag-mcp"))).toBe(false);
  });

  test("--archive with a whole .tar.xz whose tar ends in padding GNU tar does not read (1 MiB records) installs, xz's reader taken from no environment variable", async () => {
    const dir = tempDir("minirag-padded-");
    writeTree(dir, { [`${NAME}/minirag-mcp`]: "#!/bin/sh\necho stand-in\n" });
    Bun.spawnSync(["chmod", "+x", join(dir, NAME, "minirag-mcp")]);
    // Blocking factor 2000: the archive is padded with zeros to 1 MiB, far past the pipe's buffer, after its end marker.
    expect(Bun.spawnSync(["tar", "-b", "2000", "-cf", `${NAME}.tar`, NAME], { cwd: dir }).exitCode).toBe(0);
    expect(Bun.spawnSync(["xz", "-z", `${NAME}.tar`], { cwd: dir }).exitCode).toBe(0);
    const prefix = tempDir("minirag-prefix-");
    const proc = Bun.spawnSync(["sh", join(REPO_ROOT, "install.sh"), "--archive", join(dir, `${NAME}.tar.xz`), "--target", "linux-x64", "--prefix", prefix, "--no-status"], {
      env: { HOME: tempDir("minirag-home-"), PATH: process.env.PATH!, xz_reader: "" },
    });
    expect(proc.stderr.toString()).not.toContain("error");
    expect(proc.exitCode).toBe(0);
    expect(Bun.spawnSync([join(prefix, "bin/minirag-mcp")]).stdout.toString()).toBe("stand-in\n");
  });

  test("--archive with a .tar.xz on a system that cannot read xz names the fix and installs nothing", async () => {
    const release = await fakeRelease(["tar.gz", "tar.xz"]);
    const prefix = tempDir("minirag-prefix-");
    const proc = Bun.spawnSync(["sh", join(REPO_ROOT, "install.sh"), "--archive", join(release, `${NAME}.tar.xz`), "--target", "linux-x64", "--prefix", prefix, "--no-status"], {
      env: { HOME: tempDir("minirag-home-"), PATH: pathWithoutXz() },
    });
    expect(proc.exitCode).toBe(1);
    expect(proc.stderr.toString()).toContain(`${NAME}.tar.xz needs xz to unpack`);
    expect(proc.stderr.toString()).toContain("install xz (xz-utils), or use the .tar.gz archive of the same release");
    expect(existsSync(join(prefix, "bin/minirag-mcp"))).toBe(false);
  });

  test("without xz, python3 or a libarchive tar it falls back to the .tar.gz", async () => {
    const release = await fakeRelease(["tar.gz", "tar.xz"]);
    const prefix = tempDir("minirag-prefix-");
    const r = install(release, prefix, pathWithoutXz());
    expect(r.code).toBe(0);
    expect(r.out).toContain(`checksum ok: ${NAME}.tar.gz`);
    expect(installedFrom(prefix)).toBe(`${NAME}.tar.gz`);
  });

  test("a release whose SHA256SUMS lists no .tar.xz (an older one) installs from the .tar.gz", async () => {
    const release = await fakeRelease(["tar.gz"]);
    const prefix = tempDir("minirag-prefix-");
    const r = install(release, prefix);
    expect(r.code).toBe(0);
    expect(installedFrom(prefix)).toBe(`${NAME}.tar.gz`);
  });

  test("a .tar.xz that does not match SHA256SUMS is refused and nothing is installed", async () => {
    const release = await fakeRelease(["tar.gz", "tar.xz"], "tar.xz");
    const prefix = tempDir("minirag-prefix-");
    const r = install(release, prefix);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`checksum mismatch for ${NAME}.tar.xz`);
    expect(existsSync(join(prefix, "bin/minirag-mcp"))).toBe(false);
  });

  test("--archive takes a .tar.xz on disk, checked against the SHA256SUMS beside it", async () => {
    const release = await fakeRelease(["tar.gz", "tar.xz"]);
    const prefix = tempDir("minirag-prefix-");
    const proc = Bun.spawnSync(["sh", join(REPO_ROOT, "install.sh"), "--archive", join(release, `${NAME}.tar.xz`), "--prefix", prefix, "--no-status"], {
      env: { HOME: tempDir("minirag-home-"), PATH: process.env.PATH! },
    });
    const out = proc.stdout.toString();
    // The stand-in is a linux-x64 build; on another machine install.sh refuses it by name, which is the other half of this check.
    if (proc.exitCode === 0) expect(out).toContain(`checksum ok: ${NAME}.tar.xz`);
    else expect(proc.stderr.toString()).toContain(`${NAME}.tar.xz is the linux-x64 build; this machine needs`);
  });
});
