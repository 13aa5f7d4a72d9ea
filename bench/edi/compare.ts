// `npm run bench:edi:compare -- <commit>`: the X12 reader of <commit> against
// the working tree's, in one process, alternating on the same inputs (a 20 MB
// 846 and a 10 MB corpus mix), so that the machine's load falls on both alike.
// Prints median MB/s of each (the first two rounds are warm-up). Answers
// "is the reader slower than before this change?" where separate runs of
// `bench:edi` on a shared machine cannot (docs/performance.md).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { corpusMix, write846 } from "./generate";

type Reader = typeof import("@edi/x12");
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const commit = process.argv[2];
if (!commit) {
  console.error("usage: npm run bench:edi:compare -- <commit>");
  process.exit(2);
}
const ROUNDS = Number(process.env.ROUNDS ?? 11);
const dir = mkdtempSync(join(os.tmpdir(), "edi-compare-"));
try {
  const old = join(dir, "old");
  mkdirSync(old);
  execFileSync("sh", ["-c", `git archive ${JSON.stringify(commit)} edi | tar -x -C ${JSON.stringify(old)}`], { cwd: ROOT });
  const readers: [string, Reader][] = [
    [commit.slice(0, 10), (await import(pathToFileURL(join(old, "edi/x12/reader.ts")).href)) as Reader],
    ["working tree", await import("@edi/x12")],
  ];
  const file846 = join(dir, "846.x12");
  write846(file846, 20 * 2 ** 20);
  const inputs: [string, Buffer][] = [
    ["846 20 MB", readFileSync(file846)],
    ["mix 10 MB", Buffer.from(corpusMix(10 * 2 ** 20))],
  ];
  const rates = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so that a load rising during the run falls on both alike.
    for (const [name, reader] of round % 2 ? [...readers].reverse() : readers) {
      for (const [input, bytes] of inputs) {
        for (const elements of [false, true]) {
          globalThis.gc?.(); // each run starts with the previous one's garbage collected
          const started = performance.now();
          const { segments } = reader.readX12(bytes);
          if (elements) for (let i = 0; i < segments.length; i++) segments.elements(i);
          const seconds = (performance.now() - started) / 1000;
          const key = `${input} | ${elements ? "+ every element" : "parse"} | ${name}`;
          if (round >= 2) rates.set(key, [...(rates.get(key) ?? []), bytes.length / 2 ** 20 / seconds]);
        }
      }
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
  console.log(
    `${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  for (const [key, values] of [...rates].sort()) console.log(`${key.padEnd(48)} ${median(values).toFixed(1).padStart(7)} MB/s`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
