// npm run edi -- parse FILE [--tolerant] [--strict]   the file as JSON (exit 0), or one line per fault (exit 1)
// npm run edi -- ack FILE [--control N] [--strict]     the 997 answering every group of the file
// Faults are judged as the app does for a vendor (D219, D220): lenient unless --strict, and a
// set no reader here maps (214, 820, 940...) is refused with the line the app logs.
// npm run edi -- build 850 FILE.json          an 850 interchange from purchase orders in JSON
import { addControlNumber } from "./control-numbers";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import * as csv from "./csv";
import { documentFaults, judgeFaults, mapTransactions, type EdiStrictness } from "./documents";
import { notX12OrCsv } from "./incoming";
import { ack997Interchange } from "./documents/997";
import { build850 } from "./documents/850";
import { AK5, describeFault, type Fault } from "./x12/faults";
import type { Delimiters } from "./x12/isa";
import { readX12, type ReadResult } from "./x12/reader";
import { writeInterchange, x12DateTime } from "./x12/writer";
import { fillTemplate, tradingProfile, type OurIdentity, type VendorEdiFields } from "./vendor-profile";

const USAGE = `Usage:
  npm run edi -- parse FILE [--tolerant] [--strict]
  npm run edi -- ack FILE [--control N] [--strict]
  npm run edi -- build 850 FILE.json`;

class UsageError extends Error {}

function readInput(file: string | undefined): Buffer {
  if (!file) throw new UsageError("Name a file.");
  try {
    return readFileSync(file);
  } catch (error) {
    throw new UsageError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

const looksLikeX12 = (bytes: Buffer) => /^(\uFEFF)?\s*ISA/.test(bytes.subarray(0, 64).toString("utf8"));

/** An element as JSON: a string, its components, or its repetitions (each a string or components). */
function elementJson(value: string, delimiters: Delimiters): unknown {
  const split = (part: string) => (part.includes(delimiters.component) ? part.split(delimiters.component) : part);
  if (delimiters.repetition && value.includes(delimiters.repetition)) return value.split(delimiters.repetition).map(split);
  return split(value);
}

function x12Json(result: ReadResult, documents: ReturnType<typeof mapTransactions>) {
  const segment = (index: number) => {
    const [id, ...elements] = result.segments.elements(index);
    const delimiters = result.segments.delimiters(index);
    return { index: index + 1, id, elements: elements.map((value) => elementJson(value, delimiters)) };
  };
  return {
    format: "x12",
    interchanges: result.interchanges.map((interchange, i) => ({
      envelope: {
        sender: interchange.sender,
        receiver: interchange.receiver,
        date: interchange.date,
        time: interchange.time,
        version: interchange.version,
        controlNumber: interchange.controlNumber,
        usage: interchange.usage,
        delimiters: interchange.delimiters,
        isa: interchange.isa,
        iea: interchange.iea ?? null,
      },
      serviceSegments: interchange.serviceSegments.map(segment),
      groups: interchange.groups.map((group, g) => ({
        header: {
          functionalId: group.functionalId,
          sender: group.gs[2],
          receiver: group.gs[3],
          date: group.gs[4],
          time: group.gs[5],
          controlNumber: group.controlNumber,
          version: group.version,
        },
        trailer: group.ge ?? null,
        transactions: group.transactions.map((transaction, t) => {
          const located = documents.find((d) => d.interchange === i && d.group === g && d.transaction === t);
          return {
            setId: transaction.setId,
            controlNumber: transaction.controlNumber,
            segments: Array.from({ length: transaction.end - transaction.start + 1 }, (_, k) => segment(transaction.start + k)),
            document: located?.mapped?.document ?? null,
            warnings: (located?.mapped?.warnings ?? []).map(describeFault),
          };
        }),
      })),
    })),
    warnings: result.warnings.map(describeFault),
  };
}

/** The faults that refuse sets, in file order: --tolerant keeps only the sets no reader maps, which the app never applies. */
function refusingFaults(judged: ReturnType<typeof judgeFaults>, tolerant: boolean): Fault[] {
  const faults = tolerant ? judged.content.filter((fault) => fault.ack.segment === "AK5" && fault.ack.code === AK5.notSupported) : judged.refusing;
  return [...faults].sort((a, b) => a.segmentIndex - b.segmentIndex);
}

function parseCommand(file: string | undefined, tolerant: boolean, strictness: EdiStrictness): number {
  const bytes = readInput(file);
  if (!looksLikeX12(bytes)) {
    const notText = notX12OrCsv(bytes);
    if (notText) {
      console.log(`${file}: ${notText.text}`);
      return 1;
    }
    return parseCsv(file!, bytes);
  }
  const result = readX12(bytes, { mode: tolerant ? "tolerant" : "strict" });
  const documents = mapTransactions(result);
  const judged = judgeFaults(result, documentFaults(result, documents), strictness);
  const faults = refusingFaults(judged, tolerant);
  if (faults.length) {
    for (const fault of faults) console.log(describeFault(fault));
    return 1;
  }
  console.log(JSON.stringify({ ...x12Json(result, documents), noted: judged.noted.map(describeFault) }, null, 2));
  return 0;
}

function parseCsv(file: string, bytes: Buffer): number {
  const recognised = csv.recogniseCsvFile(path.basename(file), bytes.subarray(0, 4096), {});
  const readers = {
    "855": csv.readAcknowledgementCsv,
    "856": csv.readShipNoticeCsv,
    "846": csv.readInventoryCsv,
    "810": csv.readInvoiceCsv,
    cancel_answer: csv.readCancellationAnswerCsv,
  } as const;
  const type = recognised.type;
  const read = type && type !== "997" ? readers[type] : null;
  if (!read) {
    const purchaseOrders = csv.readPurchaseOrderCsv(bytes);
    if (purchaseOrders.refused) {
      console.log(`${file}: neither X12 nor a CSV document this app knows (${recognised.reason})`);
      return 1;
    }
    return printCsv("850", purchaseOrders);
  }
  return printCsv(type!, read(bytes));
}

function printCsv(type: string, result: { rows: unknown[]; errors: Array<{ message: string }> }): number {
  if (result.errors.length) {
    for (const error of result.errors) console.log(error.message);
    return 1;
  }
  console.log(JSON.stringify({ format: "csv", type, ...result }, null, 2));
  return 0;
}

function ackCommand(file: string | undefined, control: number, strictness: EdiStrictness): number {
  const result = readX12(readInput(file));
  if (result.interchanges.length === 0) {
    for (const fault of result.faults) console.log(describeFault(fault));
    return 1;
  }
  const documents = mapTransactions(result);
  const judged = judgeFaults(result, documentFaults(result, documents), strictness);
  const ack = ack997Interchange(result, { extraFaults: judged.content, controlNumbers: { interchange: control, group: control, transaction: control } });
  process.stdout.write(ack.text);
  return 0;
}

// --- build 850 ------------------------------------------------------------------

const party = z.object({ qualifier: z.string().min(1).max(2), id: z.string().min(1).max(15) });
const PurchaseOrderInput = z.object({
  poNumber: z.string().min(1).max(22),
  orderNumber: z.string().max(30).optional(),
  date: z.coerce.date(),
  orderType: z.string().max(2).optional(),
  vendor: z.object({ number: z.string().optional(), name: z.string().optional(), idQualifier: z.string().optional(), id: z.string().optional() }).optional(),
  shipTo: z.object({
    name: z.string().min(1),
    company: z.string().optional(),
    address1: z.string().min(1),
    address2: z.string().optional(),
    city: z.string().min(1),
    state: z.string().min(1),
    zip: z.string().min(1),
    country: z.string().min(2),
  }),
  contact: z.object({ name: z.string().min(1), phone: z.string().optional(), email: z.string().optional() }).optional(),
  requestedShipDate: z.coerce.date().optional(),
  requestedDeliveryDate: z.coerce.date().optional(),
  lines: z
    .array(
      z.object({
        lineNumber: z.union([z.number().int().positive(), z.string().min(1)]),
        sku: z.string().min(1),
        vendorSku: z.string().optional(),
        upc: z.string().optional(),
        quantity: z.number().positive(),
        uom: z.string().max(2).optional(),
        unitPrice: z.number().nonnegative().optional(),
        description: z.string().optional(),
      }),
    )
    .min(1),
});
const BuildInput = z.object({
  sender: party.optional(),
  receiver: party.optional(),
  /** A vendor (spec field names) instead of sender/receiver/delimiters: its profile decides them. */
  vendor: z.record(z.string(), z.unknown()).optional(),
  ours: party.extend({ testQualifier: z.string().optional(), testId: z.string().optional() }).optional(),
  controlNumber: z.number().int().min(1).max(999_999_999).default(1),
  usage: z.enum(["P", "T"]).optional(),
  version: z
    .string()
    .regex(/^\d{6}[A-Z0-9]{0,6}$/)
    .optional(),
  delimiters: z.object({ element: z.string().length(1), segment: z.string().min(1).max(2), component: z.string().length(1) }).optional(),
  purchaseOrders: z.array(PurchaseOrderInput).min(1),
});

function buildCommand(type: string | undefined, file: string | undefined): number {
  if (type !== "850") throw new UsageError(`Only 850 can be built from the command line, not ${type ?? "nothing"}.`);
  let json: unknown;
  try {
    json = JSON.parse(readInput(file).toString("utf8"));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    console.log(`${file}: not JSON (${(error as Error).message})`);
    return 1;
  }
  const parsed = BuildInput.safeParse(json);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) console.log(`${issue.path.join(".") || "(top)"}: ${issue.message}`);
    return 1;
  }
  const input = parsed.data;
  let sender = input.sender;
  let receiver = input.receiver;
  let delimiters: Delimiters = { element: "*", segment: "~", component: ">", ...input.delimiters };
  let usage = input.usage ?? "P";
  let version = input.version ?? "004010";
  let template: ReturnType<typeof tradingProfile>["profile"]["documents"]["850"]["template"] = [];
  if (input.vendor) {
    const ours: OurIdentity = input.ours ?? { qualifier: "ZZ", id: "OURCOMPANY" };
    const { profile, errors } = tradingProfile({ id: 1, name: "vendor", ...input.vendor } as VendorEdiFields, ours);
    if (Object.keys(errors).length) {
      for (const [field, messages] of Object.entries(errors)) for (const message of messages) console.log(`vendor.${field}: ${message}`);
      return 1;
    }
    sender ??= profile.sender;
    receiver ??= profile.receiver;
    delimiters = input.delimiters ? delimiters : profile.output;
    usage = input.usage ?? profile.usage;
    version = input.version ?? profile.documents["850"].version;
    template = profile.documents["850"].template;
  }
  if (!sender || !receiver) {
    console.log("sender and receiver (or a vendor) are required");
    return 1;
  }
  const now = x12DateTime();
  const control = input.controlNumber;
  const written = writeInterchange({
    delimiters,
    sender,
    receiver,
    date: now.date6,
    time: now.time,
    controlNumber: control,
    usage,
    groups: [
      {
        functionalId: "PO",
        sender: sender.id,
        receiver: receiver.id,
        date: now.date8,
        time: now.time,
        controlNumber: String(control),
        version,
        transactions: input.purchaseOrders.map((order, i) =>
          build850(
            {
              ...order,
              extraSegments: fillTemplate(template, {
                po_number: order.poNumber,
                order_number: order.orderNumber,
                date: now.date8,
                vendor_name: order.vendor?.name,
                ship_to_name: order.shipTo.name,
              }),
            },
            String(addControlNumber(control, i)).padStart(4, "0"),
          ),
        ),
      },
    ],
  });
  for (const value of written.replaced) console.error(`note: a delimiter inside ${JSON.stringify(value)} was replaced by a space`);
  process.stdout.write(written.text);
  return 0;
}

function main(argv: string[]): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { tolerant: { type: "boolean", default: false }, strict: { type: "boolean", default: false }, control: { type: "string", default: "1" } },
  });
  const strictness: EdiStrictness = values.strict ? "strict" : "lenient";
  const [command, first, second] = positionals;
  try {
    switch (command) {
      case "parse":
        return parseCommand(first, values.tolerant, strictness);
      case "ack": {
        const control = Number(values.control);
        if (!Number.isInteger(control) || control < 1 || control > 999_999_999) throw new UsageError("--control must be a number from 1 to 999999999");
        return ackCommand(first, control, strictness);
      }
      case "build":
        return buildCommand(first, second);
      default:
        throw new UsageError(command ? `Unknown command ${command}.` : "Name a command.");
    }
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n${USAGE}`);
      return 2;
    }
    throw error;
  }
}

process.exitCode = main(process.argv.slice(2));
