// Every acknowledgement the app builds reads again with its own reader (D73):
// the 997s and TA1s built from mutated corpus files are read back with
// readX12, must have no faults, and each 997 must pass parse997's content
// checks (AK101 ID 2/2, AK102 N0 1/9, AK2, AK4 numbers...). Shared by
// edi/documents/ack-property.test.ts (a few hundred cases) and the longer run
// of bench/edi/hostile-acks.ts.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { readX12, type ReadResult } from "../x12/reader";
import { STANDARD_DELIMITERS } from "../x12/delimiters";
import { ack997Interchange, parse997 } from "./997";
import { mapTransactions } from "./index";
import { ta1Interchanges } from "./ta1";
import { viewTransaction } from "./types";

/** Corpus files (all .edi and .txt under `root`), smaller than `maxBytes`. */
export function corpusFiles(root: string, maxBytes = 64 * 1024): Array<{ name: string; text: string }> {
  const out: Array<{ name: string; text: string }> = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (!entry.endsWith(".md") && statSync(full).size <= maxBytes) out.push({ name: path.relative(root, full), text: readFileSync(full, "utf8") });
    }
  };
  walk(root);
  return out.filter((file) => file.text.includes("ISA"));
}

/** A small seeded generator (Park–Miller), so a failure names its seed. */
export const seeded = (seed: number) => {
  let state = seed % 2147483647 || 1;
  return () => ((state = (state * 16807) % 2147483647) - 1) / 2147483646;
};

const NOISE = [
  "*",
  "~",
  ">",
  "^",
  "|",
  ":",
  "\n",
  "\r",
  " ",
  "A",
  "9",
  "\u0000",
  "\u0007",
  "é",
  "…",
  "ISA",
  "GS",
  "ST",
  "SE",
  "GE",
  "IEA",
  "FA",
  "997",
  "999",
  "ABC",
];

/** One to four mutations: flip, insert, delete bytes; duplicate or drop a segment; a huge element; a control number made of letters. */
export function mutate(text: string, random: () => number, hugeElement = 1_000_000): { text: string; how: string[] } {
  const how: string[] = [];
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const at = () => Math.floor(random() * (text.length + 1));
  const count = 1 + Math.floor(random() * 4);
  for (let n = 0; n < count; n++) {
    const kind = Math.floor(random() * 8);
    const terminator = text.includes("~") ? "~" : "\n";
    if (kind === 0) {
      const i = at();
      const noise = pick(NOISE);
      text = text.slice(0, i) + noise + text.slice(i + 1);
      how.push(`flip@${i}=${JSON.stringify(noise)}`);
    } else if (kind === 1) {
      const i = at();
      const noise = pick(NOISE);
      text = text.slice(0, i) + noise + text.slice(i);
      how.push(`insert@${i}=${JSON.stringify(noise)}`);
    } else if (kind === 2) {
      const i = at();
      const length = 1 + Math.floor(random() * 20);
      text = text.slice(0, i) + text.slice(i + length);
      how.push(`delete@${i}+${length}`);
    } else if (kind === 3 || kind === 4) {
      const segments = text.split(terminator);
      const i = Math.floor(random() * segments.length);
      if (kind === 3) segments.splice(i, 0, segments[i]);
      else segments.splice(i, 1);
      text = segments.join(terminator);
      how.push(`${kind === 3 ? "duplicate" : "drop"} segment ${i}`);
    } else if (kind === 5) {
      const segments = text.split(terminator);
      const i = Math.floor(random() * segments.length);
      const element = text[3] ?? "*";
      segments[i] = `${segments[i]}${element}${"X".repeat(random() < 0.1 ? hugeElement : 200)}`;
      text = segments.join(terminator);
      how.push(`long element in segment ${i}`);
    } else if (kind === 6) {
      text = text.replace(/(GS.(?:[^~\n]*?.){5})\d+/, "$1ABC");
      how.push("GS06 letters");
    } else {
      text = text.replace(/(ST.\d{3}.)[^~\n*|^]+/, `$1${pick(["1234567890123", "12", "A B", "0001"])}`);
      how.push("ST02 changed");
    }
  }
  return { text, how };
}

/** What is wrong with the acknowledgements built for `input`: empty when they all read back clean. */
export function checkAcknowledgements(input: string): string[] {
  const problems: string[] = [];
  for (const mode of ["strict", "tolerant"] as const) {
    let result: ReadResult;
    try {
      result = readX12(input, { mode });
    } catch (error) {
      problems.push(`readX12 threw: ${(error as Error).message}`);
      return problems;
    }
    const documents = mapTransactions(result);
    const extraFaults = documents.flatMap((d) => [...(d.mapped?.faults ?? []), ...(d.mapped?.warnings ?? [])]);
    for (const delimiters of [undefined, STANDARD_DELIMITERS, { element: "^", component: ">", segment: "~" }]) {
      const options = {
        extraFaults,
        delimiters,
        controlNumbers: { interchange: 999_999_999, group: 999_999_998, transaction: 999_999_997 },
        supportedSets: ["855", "856", "810", "846"],
      };
      const built: Array<[string, string]> = [];
      try {
        built.push(["997", ack997Interchange(result, options).text]);
        built.push(["TA1", ta1Interchanges(result, { delimiters, controlNumber: 999_999_999 }).text]);
      } catch (error) {
        problems.push(`${mode}, ${JSON.stringify(delimiters)}: building threw: ${(error as Error).message}`);
        continue;
      }
      for (const [kind, text] of built) {
        if (!text) continue;
        const back = readX12(text);
        for (const fault of back.faults) problems.push(`${mode}, ${kind}: reads back with ${fault.message}`);
        for (const interchange of back.interchanges) {
          for (const group of interchange.groups) {
            for (const transaction of group.transactions) {
              const parsed = parse997(viewTransaction(back, transaction));
              for (const fault of parsed.faults) problems.push(`${mode}, 997: ${fault.segmentId}${fault.element ?? ""} ${fault.message}`);
            }
          }
        }
      }
    }
  }
  return problems;
}
