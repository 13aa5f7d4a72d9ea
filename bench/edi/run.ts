// `npm run bench:edi`: our X12 reader against node-x12 on the same inputs,
// whole-file memory, and streaming memory. Not part of `npm test`.
// Inputs are generated into a temporary folder (removed at the end); every
// measurement runs in a child process (bench/edi/probe.ts), one at a time.
// Figures go to the console and to bench/edi/results.json. MB = 2^20 bytes.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { corpusMix, manyInterchanges, nestedShipNotice, noSeparatorSegments, write846 } from "./generate";

const MB = 1 << 20;
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PROBE = fileURLToPath(new URL("./probe.ts", import.meta.url));
const RESULTS = fileURLToPath(new URL("./results.json", import.meta.url));
const RUNS = { ours: 7, "ours+elements": 5, "node-x12": 3 } as const;
// node-x12 keeps an object per element and position: 50 MB of X12 needs
// several GB of heap, more than Node's default limit.
const NODE_X12_FLAGS = ["--max-old-space-size=16384"];

/** What probe.ts prints (each task fills the fields it measures). */
interface Probe {
  bytes: number;
  segments: number;
  ms: number[];
  peakRssMb: number;
}

/** Runs one probe; returns its JSON, or why it could not be measured. */
function probe(args: string[], flags: string[] = []): Probe | string {
  const child = spawnSync(process.execPath, ["--expose-gc", ...flags, "--import", "tsx", PROBE, ...args], { cwd: ROOT, encoding: "utf8", maxBuffer: 16 * MB });
  const last = child.stdout?.trim().split("\n").pop();
  if (child.status === 0 && last) return JSON.parse(last) as Probe;
  const why = child.error?.message ?? (child.signal ? `killed by ${child.signal}` : `exit code ${child.status}`);
  return `not measured: ${why}; ${(child.stderr ?? "").trim().split("\n").slice(-3).join(" / ")}`;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fixed = (value: number, digits = 1) => +value.toFixed(digits);
const cell = (value: unknown, width: number) => String(value ?? "").padStart(width);

const machine = {
  cpus: os.cpus().length,
  cpu_model: os.cpus()[0]?.model ?? "unknown",
  memory_gb: fixed(os.totalmem() / 2 ** 30),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  // The machine is shared: a high load average means noisy timings.
  load_average_at_start: os.loadavg().map((load) => fixed(load, 2)),
  load_average_at_end: [] as number[],
};
console.log(
  `Machine: ${machine.cpus} × ${machine.cpu_model}, ${machine.memory_gb} GB RAM, Node ` +
    `${machine.node}, ${machine.platform}, load average ${machine.load_average_at_start.join(" ")}`,
);
console.log(`Code runs through tsx, as \`npm start\` runs the server.\n`);

const dir = mkdtempSync(join(os.tmpdir(), "edi-bench-"));
const results: Record<string, unknown> = { machine, mb: "2^20 bytes" };
const RESULTS_FILE = process.env.BENCH_EDI_ONLY === "hostile" ? RESULTS.replace(/results\.json$/, "results-hostile.json") : RESULTS;
try {
  // BENCH_EDI_ONLY=hostile runs only the hostile-input rows (section 4).
  if (process.env.BENCH_EDI_ONLY !== "hostile") {
    const inputs = { "846": join(dir, "846-50mb.edi"), mix: join(dir, "mix-850-856-810.edi") };
    write846(inputs["846"], 50 * MB);
    const mix = corpusMix(15 * MB);
    writeFileSync(inputs.mix, mix);
    const mixInterchanges = mix.split("~ISA*").length;
    const described = {
      "846": "one interchange, one group, ST sets of 100,000 LIN/PID/QTY/SCH loops",
      mix: `${mixInterchanges} interchanges cycling 850/856/810, each with 25 copies of the corpus file's transaction sets`,
    };
    results.inputs = described;
    console.log(`Inputs: 846 = ${described["846"]}\n        mix = ${described.mix}\n`);

    // 1. Throughput
    const throughput: Array<Record<string, unknown>> = [];
    const ratios: Array<Record<string, unknown>> = [];
    console.log(`Parse throughput (median after 1 warm-up; ours includes decoding the Buffer, node-x12 is given the string)`);
    console.log(
      `${"input".padEnd(6)}${"parser".padEnd(34)}${cell("MB", 6)}${cell("segments", 10)}` +
        `${cell("runs", 5)}${cell("median ms", 11)}${cell("MB/s", 8)}${cell("segments/s", 12)}`,
    );
    for (const [input, file] of Object.entries(inputs)) {
      const rates: Record<string, number> = {};
      for (const [parser, runs] of Object.entries(RUNS)) {
        const label = { ours: "ours readX12", "ours+elements": "ours readX12 + elements(i) for all", "node-x12": "node-x12 parse (strict)" }[parser];
        const result = probe(["throughput", parser, file, String(runs)], parser === "node-x12" ? NODE_X12_FLAGS : []);
        if (typeof result === "string") {
          throughput.push({ input, parser, error: result });
          console.log(`${input.padEnd(6)}${label!.padEnd(34)}${result}`);
          continue;
        }
        const ms = median(result.ms);
        const row = {
          input,
          parser,
          mb: fixed(result.bytes / MB),
          segments: result.segments,
          runs,
          median_ms: fixed(ms),
          mb_per_s: fixed(result.bytes / MB / (ms / 1000)),
          segments_per_s: Math.round(result.segments / (ms / 1000)),
          all_ms: result.ms.map((value) => fixed(value)),
        };
        rates[parser] = row.mb_per_s;
        throughput.push(row);
        console.log(
          `${input.padEnd(6)}${label!.padEnd(34)}${cell(row.mb, 6)}${cell(row.segments, 10)}` +
            `${cell(runs, 5)}${cell(row.median_ms, 11)}${cell(row.mb_per_s, 8)}${cell(row.segments_per_s, 12)}`,
        );
      }
      const ratio = (parser: string) => (rates[parser] && rates["node-x12"] ? fixed(rates[parser] / rates["node-x12"]) : "n/a");
      ratios.push({ input, parse_only: ratio("ours"), with_elements: ratio("ours+elements") });
      console.log(`${input.padEnd(6)}ratio ours/node-x12 (MB/s): ${ratio("ours")}× parse only, ${ratio("ours+elements")}× with every segment's elements`);
    }
    results.throughput = throughput;
    results.ratio_ours_over_node_x12 = ratios;

    // 2. Whole-file memory on the 50 MB 846: peak RSS above a child that only loads the modules.
    const fileMb = statSync(inputs["846"]).size / MB;
    console.log(`\nWhole-file memory, ${fixed(fileMb)} MB 846 (peak RSS of a child, minus the baseline child's; includes the input Buffer/string)`);
    console.log(`${"child".padEnd(12)}${cell("peak RSS MB", 12)}${cell("above base MB", 15)}${cell("× file", 8)}`);
    const memory: Record<string, unknown> = { file_mb: fixed(fileMb) };
    const baseline = probe(["memory", "baseline", inputs["846"]]);
    for (const parser of ["baseline", "ours", "node-x12"]) {
      const result = parser === "baseline" ? baseline : probe(["memory", parser, inputs["846"]], parser === "node-x12" ? NODE_X12_FLAGS : []);
      if (typeof result === "string" || typeof baseline === "string") {
        memory[parser] = { error: typeof result === "string" ? result : `baseline ${baseline}` };
        console.log(`${parser.padEnd(12)}${typeof result === "string" ? result : "baseline not measured"}`);
        continue;
      }
      const above = result.peakRssMb - baseline.peakRssMb;
      memory[parser] = { peak_rss_mb: fixed(result.peakRssMb), above_baseline_mb: fixed(above), times_file: fixed(above / fileMb, 2) };
      const verdict = parser === "ours" ? (above / fileMb < 5 ? "  (target < 5×: met)" : "  (target < 5×: MISSED)") : "";
      console.log(
        `${parser.padEnd(12)}${cell(fixed(result.peakRssMb), 12)}${cell(parser === "baseline" ? "" : fixed(above), 15)}` +
          `${cell(parser === "baseline" ? "" : fixed(above / fileMb, 2), 8)}${verdict}`,
      );
    }
    results.memory = memory;
    rmSync(inputs["846"]);
    rmSync(inputs.mix);

    // 3. Streaming a 500 MB 846 from disk.
    const big = join(dir, "846-500mb.edi");
    write846(big, 500 * MB);
    const stream = probe(["stream", "ours", big]);
    rmSync(big);
    console.log(`\nStreaming readX12Stream(fs.createReadStream) of a 500 MB 846, in a child`);
    if (typeof stream === "string") {
      results.streaming = { error: stream };
      console.log(stream);
    } else {
      const peak = stream.peakRssMb;
      const ms = stream.ms[0];
      const above = typeof baseline === "string" ? undefined : fixed(peak - baseline.peakRssMb);
      results.streaming = {
        mb: fixed(stream.bytes / MB),
        segments: stream.segments,
        ms: fixed(ms),
        mb_per_s: fixed(stream.bytes / MB / (ms / 1000)),
        segments_per_s: Math.round(stream.segments / (ms / 1000)),
        peak_rss_mb: fixed(peak),
        above_baseline_mb: above,
      };
      console.log(
        `${fixed(stream.bytes / MB)} MB, ${stream.segments} segments in ${fixed(ms / 1000, 2)} s: ` +
          `${fixed(stream.bytes / MB / (ms / 1000))} MB/s, ${Math.round(stream.segments / (ms / 1000))} segments/s`,
      );
      console.log(`peak RSS ${fixed(peak)} MB (${above ?? "n/a"} MB above baseline); target < 150 MB: ${peak < 150 ? "met" : "MISSED"}`);
    }
  }

  // 4. Hostile input (issue 16 item 6): seconds per MB, and the time at 2× the size over the time at 1× (≈ 2 when linear).
  console.log(`\nHostile input (median of 3 after a warm-up; a warm-up over 5 s is counted alone)`);
  console.log(`${"case".padEnd(58)}${cell("MB 1×", 8)}${cell("s 1×", 9)}${cell("s 2×", 9)}${cell("s/MB", 9)}${cell("2×/1×", 8)}`);
  const hostileCases: Array<{ key: string; label: string; make: (scale: number) => string; task: string }> = [
    { key: "a", label: "a. 213,000 segments without an element separator (640 KB)", make: (k) => noSeparatorSegments(213_000 * k), task: "a" },
    { key: "a-stream", label: "a. the same, streamed (readX12Stream)", make: (k) => noSeparatorSegments(213_000 * k), task: "a-stream" },
    { key: "b", label: "b. 856 with 10,000 nested HL levels (parse856)", make: (k) => nestedShipNotice(10_000 * k), task: "b" },
    {
      key: "b-tracked",
      label: "b. the same, every pack with its own tracking number",
      make: (k) => nestedShipNotice(10_000 * k, { trackingPerPack: true }),
      task: "b-tracked",
    },
    { key: "d", label: "d. 70,000 interchanges, delimiters differing", make: (k) => manyInterchanges(70_000 * k), task: "d" },
  ];
  const hostile: Array<Record<string, unknown>> = [];
  for (const { key, label, make, task } of hostileCases) {
    const times: number[] = [];
    let mb = 0;
    let error: string | undefined;
    for (const scale of [1, 2]) {
      const file = join(dir, `hostile-${key}-${scale}.edi`);
      writeFileSync(file, make(scale));
      const result = probe(["hostile", task, file, "3"]);
      rmSync(file);
      if (typeof result === "string") {
        error = result;
        break;
      }
      if (scale === 1) mb = result.bytes / MB;
      times.push(median(result.ms) / 1000);
    }
    if (error) {
      hostile.push({ case: label, error });
      console.log(`${label.padEnd(58)}${error}`);
      continue;
    }
    const row = {
      case: label,
      mb_1x: fixed(mb, 2),
      s_1x: fixed(times[0], 3),
      s_2x: fixed(times[1], 3),
      s_per_mb: fixed(times[0] / mb, 3),
      ratio_2x_over_1x: fixed(times[1] / times[0], 2),
    };
    hostile.push(row);
    console.log(`${label.padEnd(58)}${cell(row.mb_1x, 8)}${cell(row.s_1x, 9)}${cell(row.s_2x, 9)}${cell(row.s_per_mb, 9)}${cell(row.ratio_2x_over_1x, 8)}`);
  }
  results.hostile = hostile;
} finally {
  rmSync(dir, { recursive: true, force: true });
}

machine.load_average_at_end = os.loadavg().map((load) => fixed(load, 2));
console.log(`\nLoad average at the end: ${machine.load_average_at_end.join(" ")}`);
writeFileSync(RESULTS_FILE, JSON.stringify(results, null, 2) + "\n");
console.log(`\nWritten to ${RESULTS_FILE}`);
