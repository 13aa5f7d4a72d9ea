// `node --import tsx bench/transfers/run.ts [-- --files N]`: what archiving and listing cost
// (issue 28 items 2 and 8, D180, D183). Not part of `npm test`.
// - Archiving N files (default 2,000) over FTP (ftp-srv in this process) and SFTP (the loopback
//   server): as archive() does it now (one rename per file, the archive folder listed once), and
//   as it did before (exists of the file, makeFolder, exists of each candidate name, then rename:
//   over FTP each exists is a listing of the folder), through the same transport primitives.
// - Listing a folder of 50,000 names over SFTP: the names kept, the time and the heap it costs.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { startFtpServer } from "../../tests/support/ftp-server";
import { startSftpServer } from "../../edi/transport/loopback/sftp-server";
import { archiveNameCandidates, type ConnectionSettings, joinRemote, type VendorTransport, withTransport } from "../../edi/transport";

const { values: args } = parseArgs({ options: { files: { type: "string", default: "2000" } } });
const files = Number(args.files);
const PASSWORD = "Bench-Transfers-1";

const root = mkdtempSync(path.join(tmpdir(), "bench-transfers-"));
const sftp = await startSftpServer({ root, users: { bench: PASSWORD } });
const ftp = await startFtpServer({ root, users: { bench: PASSWORD } });
const settings: Record<string, ConnectionSettings> = {
  FTP: { mechanism: 3, host: "127.0.0.1", port: ftp.port, user: "bench", password: PASSWORD, timeoutMs: 60_000 },
  SFTP: { mechanism: 1, host: "127.0.0.1", port: sftp.port, user: "bench", password: PASSWORD, timeoutMs: 60_000 },
};

function fill(folder: string) {
  rmSync(path.join(root, folder), { recursive: true, force: true });
  mkdirSync(path.join(root, folder, "archive"), { recursive: true });
  for (let i = 0; i < files; i++) writeFileSync(path.join(root, folder, `856_${i}.edi`), "x");
}

/** Archiving as it was before D183: each file's existence, the folder, each candidate's existence, then the rename. */
async function archiveAsBefore(transport: VendorTransport, filePath: string) {
  if ((await transport.exists(filePath)) !== "file") throw new Error(`${filePath} is gone`);
  const archive = joinRemote(path.posix.dirname(filePath), "archive");
  await transport.makeFolder(archive);
  for (const candidate of archiveNameCandidates(path.posix.basename(filePath))) {
    const target = joinRemote(archive, candidate);
    if (await transport.exists(target)) continue;
    await transport.rename(filePath, target);
    return;
  }
}

for (const [label, connection] of Object.entries(settings)) {
  for (const way of ["before", "now"] as const) {
    const folder = `${label.toLowerCase()}-${way}`;
    fill(folder);
    const started = performance.now();
    await withTransport(connection, async (transport) => {
      for (let i = 0; i < files; i++) {
        const filePath = `/${folder}/856_${i}.edi`;
        if (way === "now") await transport.archive(filePath);
        else await archiveAsBefore(transport, filePath);
      }
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(`archive ${files} files over ${label}, ${way}: ${seconds.toFixed(1)} s`);
  }
}

sftp.faults.injectListing(
  "/many",
  Array.from({ length: 50_000 }, (_, i) => ({ name: `listed-${i}.edi` })),
);
mkdirSync(path.join(root, "many"), { recursive: true });
global.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const listed = performance.now();
const listing = await withTransport(settings.SFTP!, (transport) => transport.list("/many"));
const heapAfter = process.memoryUsage().heapUsed;
const seconds = ((performance.now() - listed) / 1000).toFixed(1);
const heapMb = Math.round((heapAfter - heapBefore) / 1e6);
console.log(`listing 50,000 names over SFTP: ${listing.length} kept (cut: ${JSON.stringify(listing.cut)}), ${seconds} s, heap +${heapMb} MB`);

await ftp.stop();
await sftp.stop();
rmSync(root, { recursive: true, force: true });
