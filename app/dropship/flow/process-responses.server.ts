// Step 4, Process Ship Responses: each stored vendor file, in the vendor's
// order, is read and applied in one transaction that also marks it processed
// (or failed, with the segment at fault) and queues what goes out because of
// it: the 997 we answer with, and the AS400 copies of 810s and 846s. After
// the files: uploads of what was queued, Shopify fulfilments for shipments,
// and stock to Shopify. A file that cannot be read is kept, logged, answered
// with a rejecting 997, and never holds up the files after it.
import { logMessage } from "~/i18n/english.server";
import { countVendorFile } from "~/observability/metrics.server";
import prisma from "~/db.server";
import { errorRunMessage } from "~/runs/error-messages.server";
import { message } from "~/i18n/messages";
import type { Prisma, Vendor } from "~/db/generated/client";
import { recogniseIncomingFile, sortIncomingFiles } from "@edi/incoming";
import { TransportError } from "@edi/transport";
import { withVendorTransport } from "../vendor-connection.server";
import { prepareWaiting997s } from "./ack-997.server";
import { ApplyBatch, type ApplyContext } from "./apply-responses.server";
import { ensureVendorSequence, plural, StepReport, vendorLog, vendorProfile, writeLogs, type LogEntry, type StepResult } from "./context.server";
import { deliverAs400Copies, deliverVendorFiles, hasPreparedVendorFiles } from "./outbound.server";
import { fulfilShipments, syncInventoryToShopify } from "./shopify-sync.server";
import { crashPoint, testBatchSize } from "./crash-hook.server";
import { errorMessage } from "~/lib/error-message";
import { summaryOf, type FileOutcome } from "./response-outcome.server";
import { fromBase64, storedContent } from "./stored-content.server";
import { queueAs400Copy } from "./response-answers.server";
import { processX12Stock } from "./process-stock.server";
import { poNumbersOf, processX12, readWholeX12, type ReadX12 } from "./process-x12.server";
import { processCsv } from "./process-csv.server";
import { writeLogsInSlices } from "./apply-slices.server";

export { carrierName } from "./process-x12.server";

/** After this many unexpected failures (not a bad file: a bug or the database) a file is set aside as failed. */
const MAX_ATTEMPTS = 3;

// --- stored files, a batch per transaction ----------------------------------------

/** Files per transaction (D102): their requests read and their results written a statement each. */
const FILES_PER_BATCH = testBatchSize(100);
/** Files up to this size come with the claim; larger ones (a stock file of MBs) are read in slices. */
const CLAIM_CONTENT_BYTES = 256 * 1024;

interface ClaimedFile {
  id: number;
  file_name: string;
  transaction_set: string | null;
  head: Buffer;
  bytes: number;
  /** Files up to CLAIM_CONTENT_BYTES. */
  content: Buffer | null;
}

/** A claimed file as the claim reads it: its bytes as base64 (see fromBase64). */
type ClaimedRow = Omit<ClaimedFile, "head" | "content"> & { head: string; content: string | null };

/** Processes one stored file; false when another run has it or it is already done. */
export async function processStoredFile(transmissionId: number, vendor: Vendor, report: StepReport): Promise<boolean> {
  return (await processStoredFiles([transmissionId], vendor, report)) > 0;
}

/**
 * Processes stored files of one vendor, in the order given, in one
 * transaction (D102): claimed at once (FOR UPDATE SKIP LOCKED: a file another
 * run holds is left to it), the requests they name read in one statement, and
 * what they apply (responses, request moves, group acknowledgements, the
 * files' outcomes, logs) written a statement each. Answers how many it took.
 * A crash or error leaves every file of the batch as it was.
 */
export async function processStoredFiles(transmissionIds: number[], vendor: Vendor, report: StepReport): Promise<number> {
  const { profile, problems, problemCodes } = vendorProfile(vendor);
  await ensureVendorSequence(vendor.id);
  const outcomes = await prisma.$transaction(
    async (tx) => {
      const claimed = await tx.$queryRaw<ClaimedRow[]>`
        SELECT id, file_name, transaction_set, encode(substring(content from 1 for 4096), 'base64') AS head, octet_length(content) AS bytes,
               CASE WHEN octet_length(content) <= ${CLAIM_CONTENT_BYTES}::int THEN encode(content, 'base64') END AS content
          FROM transmission WHERE id = ANY(${transmissionIds}::int[]) AND status = 'received' FOR UPDATE SKIP LOCKED`;
      const byId = new Map(claimed.map((file) => [file.id, file]));
      const files = transmissionIds
        .map((id) => byId.get(id))
        .filter((file): file is ClaimedRow => file !== undefined)
        .map((file): ClaimedFile => ({ ...file, head: fromBase64(file.head), content: file.content === null ? null : fromBase64(file.content) }));
      if (files.length === 0) return [];
      const batch = new ApplyBatch(tx as Prisma.TransactionClient);
      const settingsUnusable = problems.length > 0 && profile.format === "x12" && problems.some((p) => /identifier|qualifier/.test(p));
      const isX12 = (file: ClaimedFile) => profile.format !== "csv" || /^\s*ISA/.test(file.head.subarray(0, 16).toString("latin1"));
      const typeOf = (file: ClaimedFile) => file.transaction_set ?? recogniseIncomingFile(file.file_name, file.head, vendor as never, profile).type;
      // X12 files read whole up front: the requests all of them name are read in one statement.
      const reads = new Map<number, ReadX12>();
      if (!settingsUnusable) {
        for (const file of files) {
          const type = typeOf(file);
          if (file.content && isX12(file) && type !== "846") reads.set(file.id, await readWholeX12(file.content, profile, type));
        }
        await batch.prefetch([...reads.values()].flatMap(poNumbersOf));
      }
      const logs: LogEntry[] = [];
      const results: Array<{ file: ClaimedFile; type: string | null; outcome: FileOutcome }> = [];
      for (const file of files) {
        const content = storedContent(tx as Prisma.TransactionClient, file.id, file.head, Number(file.bytes), file.content);
        const context: ApplyContext = { tx: tx as Prisma.TransactionClient, batch, vendor, transmissionId: file.id, fileName: file.file_name, logs };
        const type = typeOf(file);
        let outcome: FileOutcome;
        if (settingsUnusable) {
          outcome = {
            status: "failed",
            error: `the vendor's settings are not usable: ${problems.join("; ")}`,
            errorCode: message("logs.outcome.vendor_settings_unusable", { problems: problemCodes }),
            ...summaryOf("logs.outcome.vendor_settings"),
          };
        } else if (!isX12(file)) {
          outcome = await processCsv(context, content, type);
        } else {
          // A vendor's stock file can be tens of MB: streamed, not read whole (issue 15, 3c).
          outcome =
            (type === "846" ? await processX12Stock(context, profile, content) : null) ??
            (await processX12(context, profile, reads.get(file.id) ?? (await readWholeX12(await content.whole(), profile, type))));
        }
        if (outcome.status === "processed" && type === "810" && profile.format === "x12")
          await queueAs400Copy(context, "810", vendor.edi810_enabled === 1 ? vendor.edi810_as400_filepath : null);
        logs.push({
          ...vendorLog(vendor),
          action: "process_responses",
          status: outcome.status === "failed" ? "error" : outcome.error ? "warning" : "success",
          file_name: file.file_name,
          transmission_id: file.id,
          // The fault is our sentence about the file (D124, errorCode), with the file's segments and values in it as data.
          ...(outcome.status === "failed"
            ? logMessage(vendor.edi997_enabled === 1 && profile.format === "x12" ? "logs.dropship.process_failed_997" : "logs.dropship.process_failed", {
                file: file.file_name,
                error: outcome.errorCode ?? outcome.error,
                id: file.id,
              })
            : logMessage("logs.dropship.processed", {
                file: file.file_name,
                summary: outcome.summaryCode ?? outcome.summary,
                error: outcome.error ? message("logs.paren", { text: outcome.errorCode ?? outcome.error }) : "",
              })),
        });
        results.push({ file, type, outcome });
        report.advance(); // the bar moves per file; processShipResponses sets it right after each batch
      }
      await batch.flush();
      // Every file's outcome in one statement.
      const fileOutcomes = results.map(({ file, type, outcome }) => ({
        id: file.id,
        status: outcome.status,
        error: outcome.error ?? null,
        error_segment: outcome.errorSegment ?? null,
        transaction_set: type,
      }));
      // The logs before the files' outcomes: each log line's foreign key to its file is then checked against a row this
      // transaction has only locked, which costs a tenth of checking it against a row it has already updated (D141).
      await writeLogsInSlices(logs, tx as Prisma.TransactionClient);
      await tx.$executeRaw`
        UPDATE transmission t SET status = o.status, error = o.error, error_segment = o.error_segment, processed_at = now(),
                                  transaction_set = o.transaction_set, updated_at = now()
          FROM jsonb_to_recordset(${JSON.stringify(fileOutcomes)}::jsonb)
               AS o(id int, status text, error text, error_segment text, transaction_set text)
         WHERE t.id = o.id`;
      return results;
    },
    { timeout: 300_000, maxWait: 30_000 },
  );
  crashPoint("after-apply");
  // Counted once committed.
  for (const { file, outcome } of outcomes) {
    report.count(outcome.status === "failed" ? "files_failed" : "files_processed");
    countVendorFile(outcome.status === "failed" ? "failed" : "processed", vendor.id);
    if (outcome.status === "failed")
      report.problem(
        `${vendor.name}: ${file.file_name} ${outcome.error}`,
        message("logs.dropship.file_error", { vendor: vendor.name, file: file.file_name, error: outcome.errorCode ?? outcome.error ?? "" }),
      );
  }
  return outcomes.length;
}

/** Not the file's fault (the database, a bug): tried again next run, set aside after MAX_ATTEMPTS. */
async function fileFailed(file: { id: number; file_name: string }, vendor: Vendor, error: unknown, report: StepReport) {
  const updated = await prisma.transmission.update({ where: { id: file.id }, data: { attempts: { increment: 1 }, error: errorMessage(error) } });
  if (updated.attempts >= MAX_ATTEMPTS) {
    await prisma.transmission.update({ where: { id: file.id }, data: { status: "failed" } });
    countVendorFile("set_aside", vendor.id);
  }
  report.problem(`${vendor.name}: ${file.file_name}: ${errorMessage(error)}`);
  await writeLogs([
    {
      ...vendorLog(vendor),
      action: "process_responses",
      status: "error",
      file_name: file.file_name,
      transmission_id: file.id,
      ...logMessage(updated.attempts >= MAX_ATTEMPTS ? "logs.dropship.processing_set_aside" : "logs.dropship.processing_failed", {
        file: file.file_name,
        error: errorMessage(error),
      }),
    },
  ]);
}

/** Stored files waiting, with their first bytes (for vendors who sort by contents). */
async function waitingFiles(vendorId?: number) {
  // The first bytes only for vendors who sort by them: 10,000 waiting files are not 40 MB of heads.
  return prisma.$queryRaw<Array<{ id: number; vendor_id: number; file_name: string; head: Uint8Array | null }>>`
    SELECT t.id, t.vendor_id, t.file_name, CASE WHEN v.sort_files_by_file_contents = 1 THEN substring(t.content from 1 for 4096) END AS head
      FROM transmission t JOIN dropship_vendor v ON v.id = t.vendor_id
     WHERE t.direction = 'in' AND t.partner = 'vendor' AND t.status = 'received'
       AND (${vendorId ?? null}::int IS NULL OR t.vendor_id = ${vendorId ?? null}::int)
     ORDER BY t.vendor_id, t.id`;
}

export async function processShipResponses(options: { vendorId?: number; transmissionIds?: number[] } = {}): Promise<StepResult> {
  const report = new StepReport();
  let files = await waitingFiles(options.vendorId);
  if (options.transmissionIds) files = files.filter((file) => options.transmissionIds!.includes(file.id));
  const vendorIds = [...new Set(files.map((file) => file.vendor_id))];
  const vendors = new Map((await prisma.vendor.findMany({ where: { id: { in: vendorIds } } })).map((vendor) => [vendor.id, vendor]));
  let done = 0;
  report.progress(done, files.length, "files");
  for (const vendorId of vendorIds) {
    const vendor = vendors.get(vendorId)!;
    const { profile } = vendorProfile(vendor);
    const mine = sortIncomingFiles(
      files
        .filter((file) => file.vendor_id === vendorId)
        .map((file) => ({ ...file, name: file.file_name, firstBytes: file.head ? Buffer.from(file.head) : Buffer.alloc(0) })),
      profile,
    );
    for (let i = 0; i < mine.length; i += FILES_PER_BATCH) {
      const chunk = mine.slice(i, i + FILES_PER_BATCH);
      try {
        await processStoredFiles(
          chunk.map((file) => file.id),
          vendor,
          report,
        );
        report.progress((done += chunk.length), files.length, "files");
        continue;
      } catch (error) {
        // One file's trouble must not hold up the others: the batch again, a file at a time.
        if (chunk.length === 1) {
          await fileFailed(chunk[0], vendor, error, report);
          report.progress(++done, files.length, "files");
          continue;
        }
      }
      report.progress(done, files.length, "files"); // what the failed batch counted is undone
      for (const file of chunk) {
        try {
          await processStoredFiles([file.id], vendor, report);
        } catch (error) {
          await fileFailed(file, vendor, error, report);
        }
        report.progress(++done, files.length, "files");
      }
    }
  }
  // One 997 per vendor for the groups of this run's files (and any a crashed run left), then the uploads.
  await prepareWaiting997s(report);
  await deliverAnswers(report);
  await fulfilShipments(report);
  await syncInventoryToShopify(report);
  await deliverAs400Copies(report);
  const summary = files.length
    ? `${plural(report.counts.files_processed ?? 0, "file")} processed, ${report.counts.files_failed ?? 0} ` +
      `failed; ${plural(report.counts.fulfilments ?? 0, "fulfilment")} created in Shopify.`
    : `No new vendor files; ${plural(report.counts.fulfilments ?? 0, "fulfilment")} created in Shopify.`;
  const coded =
    report.counts.files_processed || report.counts.files_failed
      ? message("dropship_test.results.process_responses", {
          files: message("runs.n.file", { count: report.counts.files_processed ?? 0 }),
          failed: report.counts.files_failed ?? 0,
          fulfilments: message("runs.n.fulfilment", { count: report.counts.fulfilments ?? 0 }),
        })
      : message("dropship_test.results.process_responses_none", { fulfilments: message("runs.n.fulfilment", { count: report.counts.fulfilments ?? 0 }) });
  return report.result(summary, coded);
}

/** Uploads the queued 997s (and anything else prepared) of every vendor that has some. */
export async function deliverAnswers(report: StepReport) {
  const vendorIds = (
    await prisma.transmission.findMany({
      where: { direction: "out", partner: "vendor", status: "prepared" },
      distinct: ["vendor_id"],
      select: { vendor_id: true },
    })
  )
    .map((row) => row.vendor_id!)
    .filter(Boolean);
  for (const vendor of await prisma.vendor.findMany({ where: { id: { in: vendorIds }, enabled: 1 } })) {
    if (!(await hasPreparedVendorFiles(vendor.id))) continue;
    try {
      await withVendorTransport(vendor, (transport) => deliverVendorFiles(vendor, transport, report));
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      report.problem(`${vendor.name}: ${error.message}`, message("transport.problems.vendor_error", { vendor: vendor.name, error: errorRunMessage(error) }));
      await writeLogs([
        {
          ...vendorLog(vendor),
          action: "send_file",
          status: "error",
          ...logMessage("logs.dropship.upload_vendor_failed", { vendor: vendor.name, error: error.message }),
        },
      ]);
    }
  }
}
