import { describe, expect, test } from "bun:test";
import { ABSOLUTE_NAMES, rootRelativeNames, scopesAsSources } from "../../src/scan/source-names.ts";

const names = rootRelativeNames(["/home/ann/team", "/home/ann/team/archive", "/mnt/contracts"], ["handbook", "old", "contracts"]);

describe("root-relative sources on a shared index", () => {
  test("a file is `<root name>/<path inside>`, under the deepest root that holds it, and back to this machine's path", () => {
    expect(names.sourceOf("/home/ann/team/policies/leave.md")).toBe("handbook/policies/leave.md");
    expect(names.sourceOf("/home/ann/team/archive/2019.pdf")).toBe("old/2019.pdf");
    expect(names.sourceOf("/mnt/contracts")).toBe("contracts");
    expect(names.pathOf("handbook/policies/leave.md")).toBe("/home/ann/team/policies/leave.md");
    expect(names.pathOf("old/2019.pdf")).toBe("/home/ann/team/archive/2019.pdf");
    for (const path of ["/home/ann/team/a b/ü.md", "/mnt/contracts/x/y/z.docx"]) expect(names.pathOf(names.sourceOf(path))).toBe(path);
  });

  test("a path under no root, a root this machine lacks, an id and an old absolute source are kept as they are", () => {
    expect(names.sourceOf("/home/ann/teamwork/a.md")).toBe("/home/ann/teamwork/a.md");
    expect(names.pathOf("minutes/2024/jan.md")).toBe("minutes/2024/jan.md");
    expect(names.isLocalFile("minutes/2024/jan.md")).toBe(false);
    expect(names.isLocalFile("handbook/a.md")).toBe(true);
    expect(names.pathOf("/srv/old/a.md")).toBe("/srv/old/a.md");
    expect(names.pathOf("https://example.org/page")).toBe("https://example.org/page");
  });

  test("scopes: a path under a root becomes its name, a path holding roots becomes theirs, a name stays", () => {
    const roots = ["/home/ann/team", "/mnt/contracts"];
    const two = rootRelativeNames(roots, ["handbook", "contracts"]);
    expect(scopesAsSources(two, roots, ["/home/ann/team/policies/", "handbook/minutes", "/"])).toEqual(["handbook/policies", "handbook/minutes", "handbook", "contracts"]);
    expect(scopesAsSources(two, roots, ["/srv/elsewhere"])).toEqual(["/srv/elsewhere"]);
    expect(scopesAsSources(two, roots, undefined)).toBeUndefined();
  });

  test("a local index names files by their absolute paths, and scopes stay as given", () => {
    expect(ABSOLUTE_NAMES.sourceOf("/home/ann/team/a.md")).toBe("/home/ann/team/a.md");
    expect(ABSOLUTE_NAMES.pathOf("/home/ann/team/a.md")).toBe("/home/ann/team/a.md");
    expect(scopesAsSources(ABSOLUTE_NAMES, ["/home/ann/team"], ["/"])).toEqual(["/"]);
  });
});
