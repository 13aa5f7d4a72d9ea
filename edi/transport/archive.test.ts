// Archiving costs one rename per file (issue 28 item 8, D183): the archive folder is made and
// listed once per connection, not per file. Before, each archive listed the incoming folder and
// the archive folder (FTP has no "exists"), so 5,000 files took 1,268 s on ProFTPD.
import { describe, expect, it } from "vitest";
import { ArchiveFolders, archiveIntoSubfolder, type ArchiveOperations } from "./policy";
import { remoteListing } from "./types";

/** A folder tree in memory, counting each operation. */
function fakeServer(files: string[], options: { renameReplaces?: boolean; listingCut?: boolean } = {}) {
  const paths = new Set(files);
  const calls = { exists: 0, rename: 0, list: 0, makeFolder: 0 };
  const operations: ArchiveOperations = {
    exists: async (path) => {
      calls.exists++;
      return paths.has(path) ? "file" : false;
    },
    rename: async (from, to) => {
      calls.rename++;
      if (!paths.has(from)) throw new Error(`no such file ${from}`);
      if (paths.has(to) && !options.renameReplaces) throw new Error("Failure");
      paths.delete(from);
      paths.add(to);
    },
    list: async (folder) => {
      calls.list++;
      const names = [...paths].filter((path) => path.startsWith(`${folder}/`)).map((path) => path.slice(folder.length + 1));
      return remoteListing(
        names.map((name) => ({ name, path: `${folder}/${name}`, size: 1, modifiedAt: null, type: "file" as const })),
        options.listingCut ? { reason: "names", limit: names.length } : undefined,
      );
    },
    makeFolder: async () => {
      calls.makeFolder++;
    },
    write: async () => undefined,
    read: async () => Buffer.alloc(0),
    size: async () => 1,
    remove: async () => undefined,
    removeQuietly: async () => undefined,
  };
  return { paths, calls, operations };
}

const notFound = () => new Error("not found");

describe("archiveIntoSubfolder (D183)", () => {
  it("archives each file with one rename, listing the archive folder once", async () => {
    const names = Array.from({ length: 500 }, (_, i) => `/in/${i}.edi`);
    const server = fakeServer(names);
    const folders = new ArchiveFolders();
    for (const path of names) await archiveIntoSubfolder(server.operations, folders, path, notFound);
    expect(server.calls).toEqual({ exists: 0, rename: 500, list: 1, makeFolder: 1 });
    expect([...server.paths].every((path) => path.startsWith("/in/archive/"))).toBe(true);
  });

  it("never overwrites an archived file, on a server whose rename replaces", async () => {
    const server = fakeServer(["/in/a.edi", "/in/archive/a.edi"], { renameReplaces: true });
    const target = await archiveIntoSubfolder(server.operations, new ArchiveFolders(), "/in/a.edi", notFound);
    expect(target).toMatch(/^\/in\/archive\/a_\d{8}-\d{6}\.edi$/);
    expect(server.paths.has("/in/archive/a.edi")).toBe(true);
    expect(server.calls.rename).toBe(1);
  });

  it("takes the next name when another run archived under it meanwhile", async () => {
    const server = fakeServer(["/in/a.edi"]);
    const folders = new ArchiveFolders();
    await folders.names(server.operations, "/in/archive");
    server.paths.add("/in/archive/a.edi"); // archived by someone else after our listing
    const target = await archiveIntoSubfolder(server.operations, folders, "/in/a.edi", notFound);
    expect(target).toMatch(/^\/in\/archive\/a_\d{8}-\d{6}\.edi$/);
    expect(server.paths.has("/in/archive/a.edi")).toBe(true);
  });

  it("checks each name when the archive's listing was cut", async () => {
    const server = fakeServer(["/in/a.edi", "/in/archive/old.edi"], { renameReplaces: true, listingCut: true });
    await archiveIntoSubfolder(server.operations, new ArchiveFolders(), "/in/a.edi", notFound);
    expect(server.calls.exists).toBe(1);
  });

  it("says a file that is gone is not found", async () => {
    const server = fakeServer([]);
    await expect(archiveIntoSubfolder(server.operations, new ArchiveFolders(), "/in/gone.edi", notFound)).rejects.toThrow("not found");
  });
});
