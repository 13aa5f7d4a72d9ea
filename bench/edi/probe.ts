// One measurement in a fresh process, so each parser gets its own heap and
// peak RSS belongs to that measurement alone. Run by bench/edi/run.ts:
//   probe.ts throughput <ours|ours+elements|node-x12> <file> <runs>
//   probe.ts memory <baseline|ours|node-x12> <file>
//   probe.ts stream ours <file>
//   probe.ts hostile <a|a-stream|b|b-tracked|d> <file> <runs>
// Prints one JSON line. Every task loads the same modules, so the baseline
// child's RSS is what the others pay before parsing.
import { createReadStream, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import { readX12 } from "@edi/x12";
import { readX12Stream } from "@edi/x12";
import { mapTransactions } from "@edi/documents";

const { X12Parser } = createRequire(import.meta.url)("node-x12") as typeof import("node-x12");
type NodeX12Result = ReturnType<InstanceType<typeof X12Parser>["parse"]>;

const [task, parser, file, runsArg] = process.argv.slice(2);
const maxRssMb = () => process.resourceUsage().maxRSS / 1024; // maxRSS is in KB
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

/** Segments node-x12 built, counted the way X12 counts them (envelopes included). */
function countNodeX12(result: NodeX12Result): number {
  const interchanges = "interchanges" in result ? result.interchanges : [result];
  let count = 0;
  for (const interchange of interchanges) {
    count += 2;
    for (const group of interchange.functionalGroups) {
      count += 2;
      for (const transaction of group.transactions) count += transaction.segments.length + 2;
    }
  }
  return count;
}

/** Our read, refusing to time a file that does not read cleanly. */
function ours(buffer: Buffer, touchElements: boolean): number {
  const result = readX12(buffer);
  if (!result.ok) throw new Error(`readX12 refused the input: ${result.faults[0]?.message}`);
  const { segments } = result;
  if (touchElements) for (let i = 0; i < segments.length; i++) segments.elements(i);
  return segments.length;
}

async function main(): Promise<object> {
  if (task === "throughput") {
    const buffer = readFileSync(file);
    // node-x12 takes a string: decoding is left out of its time, kept in ours.
    const text = parser === "node-x12" ? buffer.toString("utf8") : "";
    const once = () => (parser === "node-x12" ? countNodeX12(new X12Parser(true).parse(text)) : ours(buffer, parser === "ours+elements"));
    const segments = once(); // warm-up, and the count both parsers must agree on
    const ms: number[] = [];
    for (let run = 0; run < Number(runsArg); run++) {
      gc(); // the previous run's garbage is not this run's cost
      const start = performance.now();
      once();
      ms.push(performance.now() - start);
    }
    return { bytes: buffer.length, segments, ms };
  }
  if (task === "memory") {
    let segments = 0;
    if (parser === "ours") segments = ours(readFileSync(file), false);
    if (parser === "node-x12") segments = countNodeX12(new X12Parser(true).parse(readFileSync(file, "utf8")));
    return { segments, peakRssMb: maxRssMb() };
  }
  if (task === "stream") {
    let segments = 0;
    const start = performance.now();
    const summary = await readX12Stream(createReadStream(file), () => {
      segments++;
    });
    const ms = performance.now() - start;
    if (!summary.ok) throw new Error(`readX12Stream refused the input: ${summary.faults[0]?.message}`);
    return { bytes: statSync(file).size, segments, ms: [ms], peakRssMb: maxRssMb() };
  }
  if (task === "hostile") {
    // The hostile inputs of issue 16 item 6, read with the right result (checked), timed.
    const buffer = readFileSync(file);
    const once = async () => {
      if (parser === "a-stream") {
        let segments = 0;
        const summary = await readX12Stream(createReadStream(file), () => void segments++);
        if (!summary.ok) throw new Error(`refused: ${summary.faults[0]?.message}`);
        return segments;
      }
      const result = readX12(buffer);
      if (!result.ok) throw new Error(`refused: ${result.faults[0]?.message}`);
      if (parser === "b" || parser === "b-tracked") {
        const [mapped] = mapTransactions(result);
        const item = mapped?.mapped?.type === "856" ? mapped.mapped.document.orders[0]?.items[0] : undefined;
        if (item?.trackingNumbers[item.trackingNumbers.length - 1] !== "1Z-TRACK") throw new Error("856 not read right");
      } else {
        for (let i = 0; i < result.segments.length; i++) result.segments.elements(i);
      }
      return result.segments.length;
    };
    const ms: number[] = [];
    let start = performance.now();
    const segments = await once(); // warm-up; counted alone when it was slow (the quadratic code before D71)
    const first = performance.now() - start;
    if (first > 5000) return { bytes: buffer.length, segments, ms: [first] };
    for (let run = 0; run < Number(runsArg); run++) {
      gc();
      start = performance.now();
      await once();
      ms.push(performance.now() - start);
    }
    return { bytes: buffer.length, segments, ms };
  }
  throw new Error(`unknown task ${task}`);
}

console.log(JSON.stringify(await main()));
