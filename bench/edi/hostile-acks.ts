// Hostile inputs for the acknowledgement builders (D73), run by
// `npm run bench:edi` after bench/edi/run.ts, or alone:
//   node --import tsx bench/edi/hostile-acks.ts [mutations]
// 1. Unclosed groups: an interchange of n GS each with one ST..SE and no GE
//    (n and 2n), answered by ack997Interchange. Reading and answering are
//    timed apart; seconds per MB and the 2x/1x ratio (linear: about 2).
// 2. The property of edi/documents/ack-property.test.ts over more seeded
//    mutations (default 3,000; 1 MB elements among them).
// Figures go to the console and to bench/edi/hostile-acks.json. MB = 2^20 bytes.
import { writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { ack997Interchange } from "@edi/documents";
import { checkAcknowledgements, corpusFiles, mutate, seeded } from "@edi/documents";
import { readX12 } from "@edi/x12";
import { EDI_CORPUS } from "../../tests/support/edi-corpus";

const MB = 1 << 20;
const RESULTS = fileURLToPath(new URL("./hostile-acks.json", import.meta.url));
const fixed = (value: number, digits = 3) => +value.toFixed(digits);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function unclosedGroups(n: number) {
  let text = "ISA*00*          *00*          *ZZ*VENDOR         *ZZ*SHOP           *240501*1200*U*00401*000000001*0*P*>~";
  for (let g = 1; g <= n; g++) text += `GS*SH*VENDOR*SHOP*20240501*1200*${g}*X*004010~ST*856*0001~BSN*00*S${g}*20240501*1200~SE*3*0001~`;
  return text;
}

function time<T>(work: () => T): [number, T] {
  const start = process.hrtime.bigint();
  const value = work();
  return [Number(process.hrtime.bigint() - start) / 1e9, value];
}

const machine = {
  cpus: os.cpus().length,
  cpu_model: os.cpus()[0]?.model ?? "unknown",
  node: process.version,
  load_average_at_start: os.loadavg().map((load) => fixed(load, 2)),
};
const rows: Array<Record<string, number | string>> = [];
console.log("Hostile input for the 997 builder: n unclosed groups (GS, one set, no GE)");
console.log("groups      MB   read s   997 s   997 s/MB");
for (const n of [20_000, 40_000]) {
  const text = unclosedGroups(n);
  const mb = Buffer.byteLength(text) / MB;
  const reads: number[] = [];
  const acks: number[] = [];
  for (let run = 0; run < 3; run++) {
    const [readSeconds, result] = time(() => readX12(text, { mode: "tolerant" }));
    const [ackSeconds, written] = time(() => ack997Interchange(result, { controlNumbers: { interchange: 1, group: 1, transaction: 1 } }));
    if (written.acknowledgements.length !== n) throw new Error(`expected ${n} acknowledgements, got ${written.acknowledgements.length}`);
    reads.push(readSeconds);
    acks.push(ackSeconds);
  }
  const row = { groups: n, mb: fixed(mb, 2), read_s: fixed(median(reads)), ack997_s: fixed(median(acks)), ack997_s_per_mb: fixed(median(acks) / mb) };
  rows.push(row);
  console.log(
    `${String(n).padStart(6)} ${String(row.mb).padStart(7)} ${String(row.read_s).padStart(8)} ` +
      `${String(row.ack997_s).padStart(7)} ${String(row.ack997_s_per_mb).padStart(10)}`,
  );
}
const ratio = fixed(Number(rows[1].ack997_s) / Number(rows[0].ack997_s), 2);
console.log(`2x/1x (997 build): ${ratio} (linear is about 2, quadratic about 4)\n`);

const mutations = Number(process.argv[2] ?? 3000);
const files = corpusFiles(EDI_CORPUS);
let failed = 0;
const examples: string[] = [];
const [propertySeconds] = time(() => {
  for (let seed = 1; seed <= mutations; seed++) {
    const random = seeded(seed * 104729);
    const file = files[Math.floor(random() * files.length)];
    const { text, how } = mutate(file.text, random);
    const problems = checkAcknowledgements(text);
    if (problems.length) {
      failed++;
      if (examples.length < 5) examples.push(`seed ${seed * 104729} ${file.name} [${how.join(", ")}]: ${problems[0]}`);
    }
  }
});
console.log(`Property: ${mutations} mutated corpus files, ${failed} with an acknowledgement that does not read back clean (${fixed(propertySeconds, 1)} s)`);
for (const example of examples) console.log(`  ${example}`);

const results = {
  machine: { ...machine, load_average_at_end: os.loadavg().map((load) => fixed(load, 2)) },
  mb: "2^20 bytes",
  unclosed_groups: rows,
  ratio_2x_1x: ratio,
  property: { mutations, failed, seconds: fixed(propertySeconds, 1), examples },
};
writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
if (failed) process.exitCode = 1;
