// Drop Ship Tools, Manual Utilities (spec 000 §7): they act on real vendor
// files and real requests. Parse a file from the vendor's incoming folder (or
// its stored copy), or parse and apply it; upload what is prepared; collect
// what is waiting; send a real PO again (Resend 850, shown under Vendor
// Testing on the page but not held back by test mode, D66).
import prisma from "~/db.server";
import type { Vendor } from "~/db/generated/client";
import { markReleased } from "~/transfers/incoming-deliveries.server";
import { joined, message, plainText, type RunMessage } from "~/runs/messages";
import * as csv from "@edi/csv";
import { allTrackingNumbers, invoiceTotalCents, mapTransactions, type MappedDocument } from "@edi/documents";
import { recogniseIncomingFile, type Recognition } from "@edi/incoming";
import { baseName, normaliseRemotePath, parentOf, resolveInside } from "@edi/transport";
import type { TradingProfile } from "@edi/vendor-profile";
import { faultMessage, type Fault } from "@edi/x12";
import { readX12 } from "@edi/x12";
import { StepReport, vendorLog, vendorProfile, writeLogs } from "../flow/context.server";
import { deliverVendorFiles } from "../flow/outbound.server";
import { populateShipResponses, storeIncomingFile } from "../flow/populate-responses.server";
import { cancellationPullFolder } from "./cancellations.server";
import { cancellationAnswerFrom855, cancellationAnswersFrom865, type CancellationAnswer } from "@edi/cancellations";
import { carrierName, processShipResponses } from "../flow/process-responses.server";
import { requestProblems, sendShipRequests } from "../flow/send-requests.server";
import { releaseIncomingFile, withVendorTransport } from "../vendor-connection.server";
import { assertConnectable, refuse, requestOf, type Outcome } from "./outcome.server";

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const MAX_LISTED = 20;

/** The first items, then how many more (the answers are codes, rendered when read: D137). */
function listed(items: RunMessage[], separator = "; "): RunMessage {
  return joined(
    [...items.slice(0, MAX_LISTED), items.length > MAX_LISTED ? message("tools.summary.more", { count: items.length - MAX_LISTED }) : null],
    separator,
  );
}

/** Words followed by a full stop. */
const sentence = (words: RunMessage): RunMessage => joined([words, plainText(".")], "");

const RESENDABLE = ["pending", "sent", "acknowledged", "backordered", "rejected"];

export async function sendPurchaseOrderAgain(vendor: Vendor, po: string): Promise<Outcome> {
  assertConnectable(vendor);
  if (vendor.enabled !== 1) refuse("tools.messages.disabled", { name: vendor.name });
  const request = await requestOf(vendor, po);
  if (!RESENDABLE.includes(request.status) || request.archived_at) refuse("tools.messages.po_cannot_resend", { po, status: request.status }, { po });
  const problems = requestProblems(request);
  if (problems.length) refuse("tools.messages.po_cannot_send", { po, problems: problems.join(", ") }, { po });
  await prisma.dropshipRequest.update({ where: { request_id: request.request_id }, data: { status: "pending", needs_processing: true } });
  const result = await sendShipRequests({ vendorId: vendor.id });
  return { error: result.error, text: message("tools.messages.po_marked", { po, result: result.message }), po, sku: request.item_sku };
}

/** What a parse action expects; "865" stands for any answer to our cancellations (an 865, an 855 answering a change, the answer CSV). */
export type ParsedType = "855" | "856" | "810" | "865";

interface SourceFile {
  name: string;
  /** Where it is (or was) on the vendor's server. */
  path: string;
  content: Buffer;
  /** Read from the vendor's server. */
  onServer: boolean;
  /** On the server right in the incoming folder (not in archive/): released once stored. */
  releasable: boolean;
  /** Read from this stored transmission, the file being gone from the server. */
  storedId?: number;
}

/** The file a person named, relative to the incoming folder; the stored copy when the server no longer has it. */
async function readSourceFile(vendor: Vendor, filepath: string, answers = false): Promise<SourceFile> {
  // Answers to our cancellations arrive in the Cancellation Pull Folder when the vendor has one (D225).
  const folder = answers ? cancellationPullFolder(vendor) : vendor.sftp_incoming_folder;
  const path = resolveInside(folder || "/", filepath); // refuses "..", absolute paths, backslashes, NUL
  if (!folder) refuse("tools.messages.no_incoming", { name: vendor.name });
  const name = baseName(path);
  if (vendor.sftp_host && vendor.sftp_user) {
    const content = await withVendorTransport(vendor, async (transport) => ((await transport.exists(path)) === "file" ? transport.download(path) : null));
    if (content) return { name, path, content, onServer: true, releasable: parentOf(path) === normaliseRemotePath(folder!) };
  }
  const stored = await prisma.transmission.findFirst({
    where: { vendor_id: vendor.id, partner: "vendor", direction: "in", file_name: name },
    orderBy: { id: "desc" },
  });
  if (!stored) return refuse("tools.messages.path_missing", { path, name: vendor.name, file: name }, { file: name });
  return { name, path: stored.remote_path ?? path, content: Buffer.from(stored.content), onServer: false, releasable: false, storedId: stored.id };
}

const isX12 = (content: Buffer) => /^\uFEFF?\s*ISA/.test(content.subarray(0, 64).toString("utf8"));

/** What the file is: the set IDs inside an X12 file, else what recognition says. */
function fileTypes(vendor: Vendor, profile: TradingProfile, file: SourceFile): { types: string[]; reason: Recognition["reasonCoded"] } {
  const recognised = recogniseIncomingFile(file.name, file.content.subarray(0, 4096), { ...vendor, regex_format: null } as never, {
    ...profile,
    fileNamePattern: null,
  });
  if (isX12(file.content)) {
    const read = readX12(file.content, { hints: profile.inputHints, mode: "tolerant" });
    const sets = [
      ...new Set(read.interchanges.flatMap((interchange) => interchange.groups.flatMap((group) => group.transactions.map((transaction) => transaction.setId)))),
    ];
    if (sets.length) return { types: sets, reason: recognised.reasonCoded };
  }
  return { types: recognised.type ? [recognised.type] : [], reason: recognised.reasonCoded };
}

export async function parseFile(vendor: Vendor, expected: ParsedType, filepath: string, apply: boolean): Promise<Outcome> {
  const file = await readSourceFile(vendor, filepath, expected === "865");
  const { profile, problemCodes: problems } = vendorProfile(vendor);
  if (problems.length && apply) refuse("tools.messages.vendor_settings", { name: vendor.name, problems: joined(problems, "; ") }, { file: file.name });
  const { types, reason } = fileTypes(vendor, profile, file);
  // An 855 may answer a change (BAK01 01/04): a cancellation answer too.
  if (!types.includes(expected) && !(expected === "865" && types.includes("855"))) {
    if (types.length) refuse("tools.messages.wrong_type", { file: file.name, actual: types.join("/"), expected }, { file: file.name });
    refuse("tools.messages.unrecognised", { file: file.name, expected, reason }, { file: file.name });
  }
  const summary = isX12(file.content) || profile.format === "x12" ? summariseX12(file.content, expected, profile) : summariseCsv(file.content, expected);
  const where: RunMessage = file.storedId ? joined([plainText(" "), message("tools.messages.from_stored", { id: file.storedId })], "") : plainText("");
  if (!apply) {
    return {
      error: summary.refused || summary.faulty,
      text: message("tools.messages.parsed", { file: file.name, where, summary: summary.text }),
      file: file.name,
      po: summary.po,
      transmissionId: file.storedId ?? null,
    };
  }

  // Apply it: stored as Populate Ship Responses stores it (never twice), released remotely, then processed now.
  const stored =
    file.storedId !== undefined
      ? { id: file.storedId, isNew: false }
      : await storeIncomingFile(vendor, { name: file.name, path: file.path, content: file.content, transactionSet: expected });
  if (file.storedId === undefined) {
    await writeLogs([
      {
        ...vendorLog(vendor),
        action: "receive_file",
        status: stored.isNew ? "info" : "warning",
        file_name: file.name,
        transmission_id: stored.id,
        message: stored.isNew
          ? `Tools: stored ${file.name} (${file.content.length} bytes, a ${expected}) from ${file.path}.`
          : `Tools: ${file.name} is transmission ${stored.id}, taken before from ${file.path}; it is not stored again.`,
      },
    ]);
  }
  if (file.releasable) {
    const { archivedTo } = await withVendorTransport(vendor, (transport) => releaseIncomingFile(transport, vendor, file.path));
    await markReleased(stored.id, archivedTo);
    await writeLogs([
      {
        ...vendorLog(vendor),
        action: "receive_file",
        status: "info",
        file_name: file.name,
        transmission_id: stored.id,
        message: archivedTo ? `Archived ${file.path} to ${archivedTo} on the vendor's server.` : `Deleted ${file.path} from the vendor's server.`,
      },
    ]);
  }
  const before = await prisma.transmission.findUniqueOrThrow({ where: { id: stored.id }, select: { status: true, error: true } });
  const storedText = message(stored.isNew ? "tools.messages.stored_new" : "tools.messages.stored_before", { id: stored.id });
  if (before.status !== "received") {
    return {
      error: before.status === "failed",
      text: joined([
        message("tools.messages.parsed_only", { file: file.name, where, summary: summary.text }),
        message("tools.messages.already_processed", { id: stored.id, status: before.status }),
      ]),
      file: file.name,
      po: summary.po,
      transmissionId: stored.id,
    };
  }
  const result = await processShipResponses({ vendorId: vendor.id, transmissionIds: [stored.id] });
  const after = await prisma.transmission.findUniqueOrThrow({ where: { id: stored.id }, select: { status: true, error: true } });
  return {
    error: result.error || after.status === "failed",
    text: joined([
      message("tools.messages.parsed_only", { file: file.name, where, summary: summary.text }),
      storedText,
      message("tools.messages.process_result", { status: after.status, result: result.message }),
    ]),
    file: file.name,
    po: summary.po,
    transmissionId: stored.id,
  };
}

interface Summary {
  text: RunMessage;
  /** Nothing of the expected type could be read. */
  refused: boolean;
  /** Faults or refused rows were found. */
  faulty: boolean;
  /** The first PO named, for the log. */
  po: string | null;
}

function summariseX12(content: Buffer, expected: ParsedType, profile: TradingProfile): Summary {
  const read = readX12(content, { hints: profile.inputHints });
  const documents = mapTransactions(read);
  const wanted = documents.filter(
    (d) => d.mapped?.type === expected || (expected === "865" && d.mapped?.type === "855" && cancellationAnswerFrom855(d.mapped.document)),
  );
  const faults: Fault[] = [...read.faults, ...wanted.flatMap((d) => d.mapped?.faults ?? [])].sort((a, b) => a.segmentIndex - b.segmentIndex);
  const warnings: Fault[] = [...read.warnings, ...wanted.flatMap((d) => d.mapped?.warnings ?? [])];
  const others = [...new Set(documents.filter((d) => !wanted.includes(d)).map((d) => d.setId))];
  const pieces = wanted.map((d) => d.mapped!).filter((mapped) => mapped.faults.length === 0 || documentId(mapped));
  const firstPo = pieces.map(documentPo).find(Boolean) ?? null;
  return {
    refused: read.interchanges.length === 0 || pieces.length === 0,
    faulty: faults.length > 0,
    po: firstPo,
    // Our fault sentences in the reader's language (D124).
    text: joined([
      message("tools.summary.sets", { count: wanted.length, type: message(`tools.documents.${expected}`) }),
      pieces.length ? sentence(listed(pieces.map(describeDocument))) : null,
      others.length ? message("tools.summary.also_holds", { sets: others.join(", ") }) : null,
      faults.length ? message("tools.summary.faults", { list: listed(faults.map((fault: Fault) => faultMessage(fault))) }) : message("tools.summary.no_faults"),
      warnings.length ? message("tools.summary.warnings", { list: listed(warnings.map((fault: Fault) => faultMessage(fault))) }) : null,
    ]),
  };
}

const documentId = (mapped: MappedDocument) =>
  mapped.type === "855" || mapped.type === "865"
    ? mapped.document.poNumber
    : mapped.type === "856"
      ? mapped.document.shipmentId
      : mapped.type === "810"
        ? mapped.document.invoiceNumber
        : "";

function documentPo(mapped: MappedDocument): string | undefined {
  if (mapped.type === "855" || mapped.type === "865") return mapped.document.poNumber || undefined;
  if (mapped.type === "856") return mapped.document.orders.find((order) => order.poNumber)?.poNumber;
  if (mapped.type === "810") return mapped.document.poNumber;
  return undefined;
}

const skuOf = (item: { sku?: string; vendorSku?: string }) => item.sku ?? item.vendorSku ?? "?";
const qtyOf = (quantity: number | undefined | null) => (quantity === undefined || quantity === null ? "?" : String(quantity));

/** One answer to a cancellation: its PO, change, outcome and codes. */
const describeAnswer = (answer: CancellationAnswer): RunMessage =>
  message("tools.cancellations.summary_answer", {
    po: answer.poNumber || "?",
    change: answer.changeNumber ?? "?",
    outcome: message(`tools.cancellations.outcome.${answer.outcome}`),
    codes: answer.codes.join(" ") || "-",
  });

function describeDocument(mapped: MappedDocument): RunMessage {
  if (mapped.type === "865") return joined(cancellationAnswersFrom865(mapped.document).map(describeAnswer), "; ");
  if (mapped.type === "855") {
    const answer = cancellationAnswerFrom855(mapped.document);
    if (answer) return describeAnswer(answer);
  }
  switch (mapped.type) {
    case "855": {
      const ack = mapped.document;
      const lines = ack.lines.map((line) => {
        const first = line.acks[0];
        const vars = { sku: skuOf(line), qty: qtyOf(first?.quantity ?? line.quantity), status: line.status, date: first?.date };
        return message(first?.date ? "tools.summary.ack_line_date" : "tools.summary.ack_line", vars);
      });
      return message("tools.summary.ack", {
        po: ack.poNumber || "?",
        status: ack.status,
        lines: lines.length ? joined(lines, ", ") : message("tools.summary.no_lines"),
      });
    }
    case "856": {
      const notice = mapped.document;
      const carrier = carrierName(notice.carrier);
      const orders = notice.orders.map((order) => {
        const items = order.items.map((item) => `${skuOf(item)} × ${qtyOf(item.quantity)}`).join(", ") || message("tools.summary.no_lines");
        const tracking = allTrackingNumbers({ trackingNumbers: [], orders: [order] });
        const all = tracking.length ? tracking : notice.trackingNumbers;
        return message("tools.summary.ship_order", {
          po: order.poNumber ?? "?",
          items,
          tracking: all.length ? all.join(", ") : message("tools.summary.no_tracking"),
        });
      });
      return message("tools.summary.shipment", {
        id: notice.shipmentId || "?",
        carrier: carrier
          ? `${carrier}${notice.carrier?.scac && notice.carrier.scac !== carrier ? ` (${notice.carrier.scac})` : ""}`
          : message("tools.summary.unknown_carrier"),
        date: notice.shippedDate ?? notice.date ?? "?",
        orders: orders.length ? joined(orders, "; ") : message("tools.summary.no_lines"),
      });
    }
    case "810": {
      const invoice = mapped.document;
      const total = invoice.totalCents ?? invoiceTotalCents(invoice);
      return message("tools.summary.invoice", {
        number: invoice.invoiceNumber || "?",
        po: invoice.poNumber ?? "?",
        count: invoice.lines.length,
        total: money(total),
      });
    }
    default:
      return plainText(mapped.type);
  }
}

function summariseCsv(content: Buffer, expected: ParsedType): Summary {
  let pieces: RunMessage[] = [];
  let errors: csv.CsvRowError[] = [];
  let refused = false;
  let po: string | null = null;
  if (expected === "865") {
    const read = csv.readCancellationAnswerCsv(content);
    errors = read.errors;
    refused = read.refused;
    po = read.answers[0]?.poNumber ?? null;
    pieces = read.answers.map(describeAnswer);
  } else if (expected === "855") {
    const read = csv.readAcknowledgementCsv(content);
    errors = read.errors;
    refused = read.refused;
    po = read.rows[0]?.poNumber ?? null;
    const byPo = groupBy(read.rows, (row) => row.poNumber);
    pieces = [...byPo].map(([number, rows]) =>
      message("tools.summary.ack", {
        po: number,
        status: [...new Set(rows.map((row) => row.status))].join("/"),
        lines: joined(
          rows.map((row) =>
            message(row.expectedDate ? "tools.summary.ack_line_date" : "tools.summary.ack_line", {
              sku: row.sku,
              qty: row.quantity,
              status: row.status,
              date: row.expectedDate,
            }),
          ),
          ", ",
        ),
      }),
    );
  } else if (expected === "856") {
    const read = csv.readShipNoticeCsv(content);
    errors = read.errors;
    refused = read.refused;
    po = read.rows[0]?.poNumber ?? null;
    pieces = read.rows.map((row) =>
      message("tools.summary.csv_ship", {
        po: row.poNumber,
        sku: row.sku,
        qty: row.quantity,
        tracking: row.trackingNumber,
        carrier: row.carrier ?? message("tools.summary.unknown_carrier"),
      }),
    );
  } else {
    const read = csv.readInvoiceCsv(content);
    errors = read.errors;
    refused = read.refused || read.invoices.length === 0;
    po = read.invoices[0]?.poNumber ?? read.invoices[0]?.lines[0]?.poNumber ?? null;
    pieces = read.invoices.map((invoice) =>
      message("tools.summary.invoice", {
        number: invoice.invoiceNumber,
        po: invoice.poNumber ?? [...new Set(invoice.lines.map((line) => line.poNumber))].join(", "),
        count: invoice.lines.length,
        total: money(Math.round(invoice.total * 100)),
      }),
    );
  }
  return {
    refused,
    faulty: errors.length > 0,
    po,
    text: joined([
      message("tools.summary.rows", { count: pieces.length, type: message(`tools.documents.${expected}`) }),
      pieces.length ? sentence(listed(pieces)) : null,
      errors.length ? message("tools.summary.faults", { list: listed(errors.map((error) => error.coded)) }) : message("tools.summary.no_faults"),
    ]),
  };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return out;
}

export async function sendGeneratedFiles(vendor: Vendor): Promise<Outcome> {
  assertConnectable(vendor);
  const waiting = await prisma.transmission.count({ where: { vendor_id: vendor.id, partner: "vendor", direction: "out", status: "prepared" } });
  if (waiting === 0) return { error: false, text: message("tools.messages.no_generated", { name: vendor.name }) };
  const report = new StepReport();
  await withVendorTransport(vendor, (transport) => deliverVendorFiles(vendor, transport, report));
  const sent = report.counts.files_sent ?? 0;
  const problems = report.problemCodes;
  return {
    error: problems.length > 0,
    text: joined([
      message("tools.messages.generated_sent", { count: sent, waiting, name: vendor.name }),
      problems.length ? message("tools.messages.problems", { list: joined(problems, "; ") }) : null,
    ]),
  };
}

export async function receiveFiles(vendor: Vendor): Promise<Outcome> {
  assertConnectable(vendor);
  if (!vendor.sftp_incoming_folder) refuse("tools.messages.no_incoming", { name: vendor.name });
  if (vendor.enabled !== 1) refuse("tools.messages.disabled", { name: vendor.name });
  const result = await populateShipResponses({ vendorId: vendor.id });
  // The step's summary and its problems, in each language where they are codes (D117).
  const problems = result.problemCodes ?? [];
  if (!result.summary) return { error: result.error, text: plainText(result.message) };
  const summary = result.summary;
  return {
    error: result.error,
    text: joined([summary, problems.length ? message("tools.messages.problems", { list: joined(problems.slice(0, 5), "; ") }) : null]),
  };
}
