import { describe, expect, it } from "vitest";
import { PathError } from "./errors";
import {
  archiveNameCandidates,
  assertPlainFileName,
  displayRemoteName,
  folderChain,
  joinRemote,
  listedEntryPath,
  remoteEntryPath,
  resolveInside,
} from "./paths";

describe("resolveInside", () => {
  it.each([
    ["po1.edi", "/inbound/po1.edi"],
    ["sub/po1.edi", "/inbound/sub/po1.edi"],
    ["./po1.edi", "/inbound/po1.edi"],
    ["sub//po1.edi", "/inbound/sub/po1.edi"],
  ])("joins %j inside the folder", (userPath, expected) => {
    expect(resolveInside("/inbound/", userPath)).toBe(expected);
  });

  it("keeps a relative folder relative", () => {
    expect(resolveInside("outbound", "x.csv")).toBe("outbound/x.csv");
  });

  it.each([
    ["../x", '".."'],
    ["a/../../b", '".."'],
    ["a/../b", '".."'],
    ["..", '".."'],
    ["/etc/passwd", "absolute"],
    ["a\\b", "backslash"],
    ["..\\x", "backslash"],
    ["a\u0000b", "control character"],
    ["a\r\nDELE x", "control character"],
    ["", "empty"],
    [".", "names no file"],
  ])("refuses %j", (userPath, reason) => {
    let caught: unknown;
    try {
      resolveInside("/inbound", userPath);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PathError);
    expect((caught as PathError).message).toContain(reason);
    expect((caught as PathError).message).toContain("is not allowed");
  });

  it("names the folder when refusing a path that would leave it", () => {
    expect(() => resolveInside("/inbound", "../secret")).toThrow(/The path "\.\.\/secret" is not allowed: it contains "\.\.", which could leave \/inbound/);
  });
});

describe("assertPlainFileName", () => {
  it("accepts a plain name and refuses anything with a folder in it", () => {
    expect(() => assertPlainFileName("po1.edi")).not.toThrow();
    expect(() => assertPlainFileName("a/b")).toThrow(PathError);
    expect(() => assertPlainFileName("../b")).toThrow(PathError);
  });
});

describe("remote path helpers", () => {
  it("lists every folder down to a path", () => {
    expect(folderChain("/a/b/c/")).toEqual(["/a", "/a/b", "/a/b/c"]);
    expect(folderChain("a/b")).toEqual(["a", "a/b"]);
    expect(folderChain("/")).toEqual([]);
  });

  it("joins onto the root without doubling the slash", () => {
    expect(joinRemote("/", "x")).toBe("/x");
    expect(joinRemote("", "x")).toBe("x");
  });

  it("offers the name, then timestamped names, for archiving", () => {
    const at = new Date("2024-01-05T10:22:33.456Z");
    expect([...take(archiveNameCandidates("po1.edi", at), 3)]).toEqual(["po1.edi", "po1_20240105-102233.edi", "po1_20240105-102233-2.edi"]);
    expect([...take(archiveNameCandidates("README", at), 2)]).toEqual(["README", "README_20240105-102233"]);
  });
});

function* take<T>(items: Iterable<T>, count: number): Generator<T> {
  if (count <= 0) return;
  for (const item of items) {
    yield item;
    if (--count === 0) return;
  }
}

describe("remoteEntryPath: names from listings are data, not paths", () => {
  it.each([
    ["856_1.edi", "/in/856_1.edi"],
    ["a b (1).csv", "/in/a b (1).csv"],
    [".hidden", "/in/.hidden"],
    ["é".repeat(127), `/in/${"é".repeat(127)}`], // 254 bytes
  ])("joins %j", (name, expected) => {
    expect(remoteEntryPath("/in", name)).toBe(expected);
  });

  it.each([
    ["../../eod/EOD_BATCH_x.csv", "slash"],
    ["/etc/passwd", "slash"],
    ["a\\b.edi", "backslash"],
    ["..", '"..'],
    [".", '"."'],
    ["a..b.edi", '".."'],
    ["856\n.edi", "control character"],
    ["856\r.edi", "control character"],
    ["x\u0000.edi", "control character"],
    ["x\u0085.edi", "control character"],
    ["a".repeat(256), "255 bytes"],
    ["é".repeat(128), "255 bytes"], // 256 bytes in UTF-8
    ["", "empty"],
  ])("refuses %j", (name, reason) => {
    expect(() => remoteEntryPath("/in", name)).toThrow(PathError);
    expect(() => remoteEntryPath("/in", name)).toThrow(reason);
    expect(listedEntryPath("/in", name)).toMatchObject({ path: "" });
  });

  it("quotes a hostile name for a message, escaped and cut", () => {
    expect(displayRemoteName("a\nb")).toBe('"a\\nb"');
    expect(displayRemoteName("x".repeat(300)).length).toBeLessThanOrEqual(83);
  });
});
