// Step 2, Send Ship Requests: per vendor, the requests waiting to be sent are
// claimed (row locks, SKIP LOCKED: two runs never claim the same request) and
// written into one 850 interchange or one purchase-order CSV, stored as a
// prepared transmission in the same transaction, then uploaded to the vendor's
// outcoming folder. Requests and assignments become Sent once the upload is
// complete; a file that could not be uploaded is uploaded by the next run.
import { englishText, logMessage } from "~/i18n/english.server";
import prisma from "~/db.server";
import { errorRunMessage } from "~/runs/error-messages.server";
import { message, type RunMessage } from "~/i18n/messages";
import type { DropshipRequest, Vendor } from "~/db/generated/client";
import { reserveControlNumbers, reserveInterchangeNumbers, type SqlQuery } from "@edi/control-numbers";
import { CsvWriteError, writePurchaseOrderCsv } from "@edi/csv";
import { inFlight, joinRemote } from "@edi/transport";
import { TransportError } from "@edi/transport";
import { purchaseOrderInterchange, type InterchangeNumbers } from "@edi/purchase-orders";
import type { TradingProfile } from "@edi/vendor-profile";
import { withVendorTransport } from "../vendor-connection.server";
import { ensureVendorSequence, StepReport, vendorLog, vendorProfile, writeLogs, type LogEntry, type StepResult } from "./context.server";
import { storePreparedFile } from "~/transfers/outgoing-files.server";
import { deliverVendorFiles, hasPreparedVendorFiles } from "./outbound.server";
import { errorMessage } from "~/lib/error-message";
import { shipToOf } from "./ship-to";
import { HAS_CANCELLATIONS_TO_SEND, prepareCancellationFile } from "./send-cancellations.server";

/** Vendors sent to at once, each over its own connection (D131). */
const VENDORS_AT_ONCE = 4;

/** Requests per file; more wait for the next run. */
const MAX_PER_FILE = 5000;

const REQUIRED: Array<[keyof DropshipRequest, string]> = [
  ["item_sku", "item_sku"],
  ["ship_name_first", "ship_name_first"],
  ["ship_name_last", "ship_name_last"],
  ["ship_address", "ship_address"],
  ["ship_city", "ship_city"],
  ["ship_state", "ship_state"],
  ["ship_zip", "ship_zip"],
];

/** Why a request cannot be sent as it is (the revise form's required fields), or nothing: as codes (D114). */
export function requestProblemCodes(request: DropshipRequest): RunMessage[] {
  const problems = REQUIRED.filter(([field]) => !String(request[field] ?? "").trim()).map(([, name]) => message("logs.request_problem.empty", { field: name }));
  if (!(request.qty > 0)) problems.push(message("logs.request_problem.qty"));
  if (!/^[A-Za-z]{2}$/.test(request.country_id ?? "")) problems.push(message("logs.request_problem.country"));
  return problems;
}

/** The same problems in English. */
export const requestProblems = (request: DropshipRequest): string[] => requestProblemCodes(request).map(englishText);

const stamp = (at: Date) => at.toISOString().replace(/\D/g, "").slice(0, 14);

function build850File(vendor: Vendor, profile: TradingProfile, requests: DropshipRequest[], numbers: InterchangeNumbers, now: Date) {
  return purchaseOrderInterchange(
    profile,
    requests.map((request) => ({
      poNumber: request.po_number,
      orderNumber: request.order_increment_id,
      date: now,
      purpose: request.sent_at ? "05" : "00",
      vendor: { number: vendor.store_id, name: vendor.name },
      shipTo: shipToOf(request),
      lines: [{ lineNumber: 1, sku: request.item_sku, quantity: request.qty, unitPrice: request.unit_cost === null ? undefined : Number(request.unit_cost) }],
    })),
    numbers,
    now,
  );
}

function buildCsvFile(requests: DropshipRequest[], now: Date) {
  return writePurchaseOrderCsv(
    requests.map((request) => ({
      poNumber: request.po_number,
      orderNumber: request.order_increment_id,
      date: now,
      shipTo: shipToOf(request),
      notes: request.sent_at ? `Replaces the order sent on ${request.sent_at.toISOString().slice(0, 10)}` : null,
      lines: [{ lineNumber: 1, sku: request.item_sku, quantity: request.qty, unitPrice: request.unit_cost?.toString() ?? null }],
    })),
  ).text;
}

/**
 * Claims the vendor's requests and stores the file that carries them, in one
 * transaction. Requests that cannot be sent as they are get an error log and
 * wait for a revision (which marks them for processing again).
 */
async function prepareFile(vendor: Vendor, profile: TradingProfile, report: StepReport): Promise<number> {
  const folder = vendor.sftp_outcoming_folder!;
  await ensureVendorSequence(vendor.id);
  return prisma.$transaction(
    async (tx) => {
      const claimed = await tx.$queryRaw<DropshipRequest[]>`
        SELECT * FROM dropship_request
         WHERE vendor_id = ${vendor.id} AND status = 'pending' AND needs_processing AND archived_at IS NULL
         ORDER BY request_id
         LIMIT ${MAX_PER_FILE}
         FOR UPDATE SKIP LOCKED`;
      if (claimed.length === 0) return 0;
      const logs: LogEntry[] = [];
      const sendable: DropshipRequest[] = [];
      for (const request of claimed) {
        const problems = requestProblemCodes(request);
        if (problems.length === 0) {
          sendable.push(request);
          continue;
        }
        report.count("refused");
        logs.push({
          ...vendorLog(vendor),
          action: "send_requests",
          status: "error",
          po_number: request.po_number,
          order_increment_id: request.order_increment_id,
          item_sku: request.item_sku,
          qty: request.qty,
          ...logMessage("logs.dropship.cannot_send", { po: request.po_number, problems }),
        });
      }
      const refusedIds = claimed.filter((request) => !sendable.includes(request)).map((request) => request.request_id);
      if (refusedIds.length) await tx.dropshipRequest.updateMany({ where: { request_id: { in: refusedIds } }, data: { needs_processing: false } });
      if (sendable.length === 0) {
        await writeLogs(logs, tx);
        return 0;
      }

      const now = new Date();
      const query: SqlQuery = (sql, params) => tx.$queryRawUnsafe(sql, ...params);
      let content: string;
      let control: { interchange: string | null; group: string | null; transactions: string[] };
      let fileName: string;
      if (profile.format === "x12") {
        const numbers = await reserveInterchangeNumbers(query, vendor.id, [sendable.length]);
        content = build850File(vendor, profile, sendable, numbers, now);
        control = { interchange: numbers.interchange, group: numbers.groups[0].group, transactions: numbers.groups[0].transactions };
        fileName = `850_${vendor.store_id}_${stamp(now)}_${numbers.interchange}.edi`;
      } else {
        const [number] = await reserveControlNumbers(query, vendor.id, 1);
        try {
          content = buildCsvFile(sendable, now);
        } catch (error) {
          if (!(error instanceof CsvWriteError)) throw error;
          throw new Error(`the purchase-order CSV cannot be written: ${error.problems.join("; ")}`);
        }
        control = { interchange: null, group: null, transactions: [] };
        fileName = `PO_${vendor.store_id}_${stamp(now)}_${number}.csv`;
      }
      const stored = await storePreparedFile(
        {
          vendorId: vendor.id,
          partner: "vendor",
          remotePath: joinRemote(folder, fileName),
          transactionSet: profile.format === "x12" ? "850" : "csv",
          content: Buffer.from(content),
          interchangeControlNumber: control.interchange,
          groupControlNumber: control.group,
          transactionControlNumbers: control.transactions,
        },
        tx,
      );
      // The ids as one array, not a list of parameters: Prisma keeps a model call's plan, every id in it, among its debug entries (D140).
      await tx.$executeRaw`
        UPDATE dropship_request SET transmission_id = ${stored!.id}, needs_processing = false, updated_at = ${now}
         WHERE request_id = ANY(${sendable.map((request) => request.request_id)}::int[])`;
      logs.push({
        ...vendorLog(vendor),
        action: "send_requests",
        status: "info",
        file_name: fileName,
        transmission_id: stored!.id,
        ...logMessage("logs.dropship.wrote_file", {
          file: fileName,
          requests: message("logs.n.ship_request", { count: sendable.length }),
          bytes: content.length,
          folder,
        }),
      });
      await writeLogs(logs, tx);
      report.count("requests_in_files", sendable.length);
      return sendable.length;
    },
    { timeout: 120_000 },
  );
}

/** Which vendors have something to send: claimable requests or files not yet uploaded. */
async function vendorsWithWork(vendorId?: number) {
  const ids = await prisma.$queryRaw<Array<{ id: number }>>`
    SELECT v.id FROM dropship_vendor v
     WHERE v.enabled = 1 AND v.archived_at IS NULL
       AND (EXISTS (SELECT 1 FROM dropship_request r WHERE r.vendor_id = v.id AND r.status = 'pending' AND r.needs_processing AND r.archived_at IS NULL)
         OR EXISTS (SELECT 1 FROM transmission t WHERE t.vendor_id = v.id AND t.partner = 'vendor' AND t.direction = 'out' AND t.status = 'prepared')
         OR ${HAS_CANCELLATIONS_TO_SEND})
     ORDER BY v.id`;
  const wanted = ids.map((row) => row.id).filter((id) => vendorId === undefined || id === vendorId);
  return prisma.vendor.findMany({ where: { id: { in: wanted } }, orderBy: { id: "asc" } });
}

export async function sendShipRequestsForVendor(vendor: Vendor, report: StepReport) {
  const { profile, problems, problemCodes } = vendorProfile(vendor);
  // reason: a code, or the words of an error (data).
  const fail = async (reason: RunMessage | string) => {
    report.problem(message("logs.dropship.vendor_reason", { vendor: vendor.name, reason }));
    await writeLogs([
      { ...vendorLog(vendor), action: "send_requests", status: "error", ...logMessage("logs.dropship.nothing_sent", { vendor: vendor.name, reason }) },
    ]);
  };
  if (problems.length) return fail(message("logs.dropship.settings_unusable", { problems: problemCodes.length ? problemCodes : problems.join("; ") }));
  if (!vendor.sftp_host || !vendor.sftp_outcoming_folder) return fail(message("logs.dropship.no_host"));
  try {
    await prepareFile(vendor, profile, report);
    // After the POs: a cancellation is uploaded after the file that carries its PO (files go up in the order stored).
    await prepareCancellationFile(vendor, profile, report);
  } catch (error) {
    return fail(errorRunMessage(error));
  }
  if (!(await hasPreparedVendorFiles(vendor.id))) return;
  try {
    await withVendorTransport(vendor, (transport) => deliverVendorFiles(vendor, transport, report));
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    await fail(message("logs.dropship.file_kept", { error: errorRunMessage(error) }));
  }
}

export async function sendShipRequests(options: { vendorId?: number } = {}): Promise<StepResult> {
  const report = new StepReport();
  const vendors = await vendorsWithWork(options.vendorId);
  // A few vendors at once, each over its own connection, as Populate Ship Responses reads them (D105, D131):
  // one vendor's SFTP round trips and database waits overlap another's. A vendor's own files still go up
  // one after another, in the order they were prepared, so a vendor never sees a later file before an earlier one.
  const outcomes = await inFlight(vendors, VENDORS_AT_ONCE, async (vendor) => {
    try {
      await sendShipRequestsForVendor(vendor, report);
    } catch (error) {
      // One vendor's fault never stops the others.
      report.problem(
        `${vendor.name}: ${errorMessage(error)}`,
        message("transport.problems.vendor_error", { vendor: vendor.name, error: errorRunMessage(error) }),
      );
      await writeLogs([
        {
          ...vendorLog(vendor),
          action: "send_requests",
          status: "error",
          ...logMessage("logs.dropship.sending_failed", { vendor: vendor.name, error: errorMessage(error) }),
        },
      ]);
    }
  });
  // What even the error handling could not handle (the database gone) fails the step, as before.
  for (const outcome of outcomes) if (outcome.status === "rejected") throw outcome.reason;
  const sent = report.counts.files_sent ?? 0;
  // Requests refused (an empty address…) and files another run holds are said in the summary, not only in the log.
  const refused = report.counts.refused ?? 0;
  const notes = [
    ...(refused ? [message("dropship_test.results.send_requests_refused", { requests: message("logs.n.ship_request", { count: refused }) })] : []),
    ...report.notes,
  ];
  const counted = {
    files: message("runs.n.file", { count: sent }),
    vendors: message("runs.n.vendor", { count: vendors.length }),
    requests: message("runs.n.new_ship_request", { count: report.counts.requests_in_files ?? 0 }),
  };
  const coded =
    vendors.length === 0
      ? message("dropship_test.results.send_requests_none")
      : notes.length
        ? message("dropship_test.results.send_requests_with_notes", { ...counted, notes: notes.slice(0, 5) })
        : message("dropship_test.results.send_requests", counted);
  return report.result(englishText(coded), coded);
}
