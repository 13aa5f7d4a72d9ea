// Inputs for the EDI benchmark. The 846 is built as plain strings rather than
// with writeInterchange, because the 500 MB file must reach disk in chunks,
// never whole in memory. The mix replicates real corpus transaction sets so
// both parsers see X12 that someone else wrote.
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { readX12 } from "@edi/x12";
import { EDI_CORPUS } from "../../tests/support/edi-corpus";
import { isaSegment } from "../../tests/support/x12-interchange";

const CORPUS = EDI_CORPUS;
const CHUNK = 1 << 20;

const COLORS = ["BLACK", "NAVY", "RED", "OLIVE", "WHITE", "HEATHER GREY", "SAND"];
const SIZES = ["XS", "S", "M", "L", "XL", "2XL"];
const ITEMS = ["TRAIL RUNNER SHOE", "FLEECE HOODIE", "RAIN SHELL JACKET", "MERINO CREW SOCK", "CANVAS TOTE", "CARGO SHORT"];

/** A 12-digit UPC-A with a correct check digit. */
function upc(n: number): string {
  const body = String(60_000_000_000 + n);
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += Number(body[i]) * (i % 2 === 0 ? 3 : 1);
  return body + ((10 - (sum % 10)) % 10);
}

/**
 * Yields one 846 interchange (one GS, as many ST sets as needed of
 * `loopsPerSet` LIN/PID/QTY/SCH loops each) of about `bytes` bytes, in chunks
 * of about 1 MB. Valid: SE01, GE01 and the control numbers all match.
 */
export function* inventory846(bytes: number, loopsPerSet = 100_000): Generator<string> {
  let parts: string[] = [
    "ISA*00*          *00*          *ZZ*SUPPLIER       *ZZ*RETAILER       *240115*0930*U*00401*000000846*0*P*>~",
    "GS*IB*SUPPLIER*RETAILER*20240115*0930*846*X*004010~",
  ];
  let pending = parts[0].length + parts[1].length;
  let written = 0;
  let sets = 0;
  let item = 0;
  while (written + pending < bytes) {
    const control = String(++sets).padStart(4, "0");
    parts.push(`ST*846*${control}~`, `BIA*00*MM*INV${control}*20240115~`, "DTM*405*20240115*0930~");
    let count = 3;
    for (let loop = 0; loop < loopsPerSet && written + pending < bytes; loop++) {
      item++;
      const sku = `${String((item % 9000) + 1000)}-${String(item).padStart(7, "0")}-${SIZES[item % SIZES.length]}`;
      const lines = [
        `LIN*${loop + 1}*SK*${sku}*UP*${upc(item)}~`,
        `PID*F****${ITEMS[item % ITEMS.length]} ${COLORS[item % COLORS.length]} ${SIZES[item % SIZES.length]}~`,
        `QTY*33*${(item * 37) % 500}*EA~`,
        `SCH*${(item * 13) % 240}*EA***002*202402${String((item % 28) + 1).padStart(2, "0")}~`,
      ];
      count += 4;
      for (const line of lines) pending += line.length;
      parts.push(...lines);
      if (pending >= CHUNK) {
        yield parts.join("");
        written += pending;
        parts = [];
        pending = 0;
      }
    }
    const se = `SE*${count + 1}*${control}~`;
    parts.push(se);
    pending += se.length;
  }
  parts.push(`GE*${sets}*846~`, "IEA*1*000000846~");
  yield parts.join("");
}

/** Writes the 846 to `path` chunk by chunk; returns its size in bytes. */
export function write846(path: string, bytes: number): number {
  const fd = openSync(path, "w");
  let size = 0;
  try {
    for (const chunk of inventory846(bytes)) size += writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  return size;
}

interface Template {
  isa: string[];
  gs: string[];
  transactions: string[][][]; // each ST..SE as segments of elements
}

/** Splits a single-interchange, single-group corpus file into its parts. */
function template(file: string): Template {
  const result = readX12(readFileSync(`${CORPUS}/${file}`));
  if (!result.ok) throw new Error(`${file} does not read cleanly: ${result.faults.map((fault) => fault.message).join("; ")}`);
  const { segments } = result;
  const all = Array.from({ length: segments.length }, (_, i) => segments.elements(i));
  const transactions: string[][][] = [];
  for (const set of result.interchanges[0].groups[0].transactions) transactions.push(all.slice(set.start, set.end + 1));
  return { isa: all[0], gs: all[1], transactions };
}

/**
 * About `bytes` of 850, 856 and 810 interchanges in turn, each carrying
 * `copies` copies of its corpus file's transaction sets, with fresh control
 * numbers so every envelope check passes. All three use * ~ >.
 */
export function corpusMix(bytes: number, copies = 25): string {
  const templates = ["850/node-x12__850.edi", "856/node-x12__856.edi", "810/staedi__simple810.edi"].map(template);
  const parts: string[] = [];
  let size = 0;
  for (let n = 1; size < bytes; n++) {
    const { isa, gs, transactions } = templates[n % templates.length];
    const control = String(n).padStart(9, "0");
    const lines = [
      [...isa.slice(0, 13), control, ...isa.slice(14)],
      [...gs.slice(0, 6), String(n), ...gs.slice(7)],
    ];
    let st = 0;
    for (let copy = 0; copy < copies; copy++) {
      for (const set of transactions) {
        const number = String(++st).padStart(4, "0");
        for (const segment of set) lines.push(segment[0] === "ST" || segment[0] === "SE" ? [segment[0], segment[1], number, ...segment.slice(3)] : segment);
      }
    }
    lines.push(["GE", String(st), String(n)], ["IEA", "1", control]);
    const text = lines.map((elements) => elements.join("*") + "~").join("");
    parts.push(text);
    size += text.length;
  }
  return parts.join("");
}

// ---------------------------------------------------------------------------
// Hostile inputs (issue 16, item 6): each was slower than linear before D71.
// The tests (edi/x12/reader.test.ts, edi/documents/856.test.ts) read the same
// inputs and check what comes out.

const isaOf = (control: number, element = "*", component = ">", terminator = "~") =>
  isaSegment({ sender: "SENDER         ", receiver: "RECEIVER       ", date: "261121", control: String(control).padStart(9, "0"), component, element }) +
  terminator;

/**
 * a. One interchange whose set holds `count` segments "ZZ" with no element
 * separator: before D71 the reader searched to the end of the text for a
 * separator after each of them.
 */
export function noSeparatorSegments(count: number): string {
  const parts = [isaOf(1), "GS*IN*SENDER*RECEIVER*20261121*1200*1*X*004010~", "ST*810*0001~"];
  for (let i = 0; i < count; i++) parts.push("ZZ~");
  parts.push(`SE*${count + 2}*0001~`, "GE*1*1~", "IEA*1*000000001~");
  return parts.join("");
}

/**
 * b. An 856 whose HL levels are nested `depth` deep (S > O > P > P > … > I):
 * before D71 every level rebuilt its chain of ancestors.
 */
export function nestedShipNotice(depth: number, { trackingPerPack = false } = {}): string {
  const body = ["BSN*00*SHIP-1*20261123*1405*0001~", "HL*1**S~", "HL*2*1*O~", "PRF*PO1~"];
  for (let id = 3; id < depth; id++) {
    body.push(`HL*${id}*${id - 1}*P~`);
    if (trackingPerPack) body.push(`MAN*CP*1Z-P${id}~`);
  }
  body.push(`HL*${depth}*${depth - 1}*I~`, "LIN*1*SK*SKU-1~", "SN1**1*EA~", "MAN*CP*1Z-TRACK~");
  const segments = ["ST*856*0001~", ...body];
  segments.push(`SE*${segments.length + 1}*0001~`);
  return [isaOf(1), "GS*SH*SENDER*RECEIVER*20261121*1200*1*X*004010~", ...segments, "GE*1*1~", "IEA*1*000000001~"].join("");
}

/**
 * The delimiters interchange i of manyInterchanges uses: they differ from one
 * interchange to the next. Three sets, since 65,536 is not a multiple of 3: an
 * index that wrapped at 16 bits would land on another set.
 */
export const HOSTILE_DELIMITERS = [
  { element: "*", component: ">", segment: "~" },
  { element: "|", component: "^", segment: "\n" },
  { element: "^", component: ":", segment: "'" },
];

/**
 * d. `count` interchanges, each with one group and one set, whose delimiters
 * cycle through HOSTILE_DELIMITERS: before D71 a 16-bit index wrapped after
 * 65,535 interchanges and segments took another interchange's delimiters.
 */
export function manyInterchanges(count: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const { element: e, component: c, segment: s } = HOSTILE_DELIMITERS[i % HOSTILE_DELIMITERS.length];
    const control = (i % 999_999_999) + 1;
    parts.push(
      isaOf(control, e, c, s),
      ["GS", "IN", "SENDER", "RECEIVER", "20261121", "1200", String(control), "X", "004010"].join(e) + s,
      ["ST", "810", "0001"].join(e) + s,
      ["BIG", "20261124", `INV-${i}`].join(e) + s,
      ["SE", "3", "0001"].join(e) + s,
      ["GE", "1", String(control)].join(e) + s,
      ["IEA", "1", String(control).padStart(9, "0")].join(e) + s,
    );
  }
  return parts.join("");
}
