// EOD batches: the report rows waiting for the AS400 go out as one file
// (docs/as400-files.md "EOD batch file"), through the AS400 exchange
// (AS400_*, the vendors' transport). The batch and its file are stored first
// (status created) and the rows tied to it, in one transaction; the upload
// comes after. A crash or an AS400 that is down leaves a created or failed
// batch that Retry Previous (or the next scheduled run) sends again, the very
// same bytes under the same name.
import prisma from "~/db.server";
import { as400ConnectionSettings, withAs400Transport } from "~/as400/connection.server";
import { BATCH_FILE_COLUMNS, batchFileRow, EOD_FOLDER, type PendingRow } from "./batch-file";
import { withEodLock } from "./lock.server";
import { errorMessage } from "~/lib/error-message";

export { EOD_FOLDER, BATCH_FILE_COLUMNS };

export type BatchStatus = "created" | "exported" | "failed";

export interface BatchSummary {
  id: number;
  file_name: string;
  remote_path: string;
  row_count: number;
  net_sales: string;
  status: BatchStatus;
  error: string | null;
  attempts: number;
}

/** The AS400 exchange is not configured (no AS400_HOST). */
export class As400NotConfiguredError extends Error {
  constructor() {
    super("The AS400 is not configured (AS400_HOST).");
  }
}
/** Nothing waits to be exported, or to be retried. */
export class NothingToSendError extends Error {
  constructor(readonly what: "export" | "retry") {
    super(what === "export" ? "No report rows are waiting to be exported." : "There is no failed or unsent EOD batch to retry.");
  }
}

const summaryOf = (batch: {
  id: number;
  file_name: string;
  remote_path: string;
  row_count: number;
  net_sales: unknown;
  status: string;
  error: string | null;
  attempts: number;
}): BatchSummary => ({
  id: batch.id,
  file_name: batch.file_name,
  remote_path: batch.remote_path,
  row_count: batch.row_count,
  net_sales: String(batch.net_sales),
  status: batch.status as BatchStatus,
  error: batch.error,
  attempts: batch.attempts,
});

/**
 * Export to AS400: every report row waiting (pending) goes into a new batch,
 * which is then uploaded. Throws NothingToSendError when none waits.
 */
export async function exportEodReport(): Promise<BatchSummary> {
  if (!as400ConnectionSettings()) throw new As400NotConfiguredError();
  return withEodLock(async () => {
    const batch = await createBatch();
    if (!batch) throw new NothingToSendError("export");
    return sendBatch(batch.id);
  });
}

/** Retry Previous: the newest batch that is failed or was never sent goes out again. */
export async function retryEodBatch(): Promise<BatchSummary> {
  if (!as400ConnectionSettings()) throw new As400NotConfiguredError();
  return withEodLock(async () => {
    const batch = await prisma.eodBatch.findFirst({ where: { status: { in: ["created", "failed"] } }, orderBy: { id: "desc" }, select: { id: true } });
    if (!batch) throw new NothingToSendError("retry");
    return sendBatch(batch.id);
  });
}

/** For callers holding the EOD lock (the scheduled job): every failed or unsent batch, oldest first. */
export async function resendOpenBatches(): Promise<BatchSummary[]> {
  const open = await prisma.eodBatch.findMany({ where: { status: { in: ["created", "failed"] } }, orderBy: { id: "asc" }, select: { id: true } });
  const sent: BatchSummary[] = [];
  for (const batch of open) sent.push(await sendBatch(batch.id));
  return sent;
}

/** For callers holding the EOD lock: a new batch of the pending rows, stored (not sent); null when none waits. */
export async function createBatch(): Promise<{ id: number } | null> {
  return prisma.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<PendingRow[]>`
      SELECT id, to_char(sales_date, 'YYYY-MM-DD') AS sales_date, store_id, revision, order_count,
             invoice_count, invoice_total::text AS invoice_total, credit_memo_count, credit_memo_total::text AS credit_memo_total,
             shipping_invoice_count, shipping_invoice_total::text AS shipping_invoice_total, net_sales::text AS net_sales
        FROM eod_report_row
       WHERE export_status = 'pending'
       ORDER BY sales_date, store_id
         FOR UPDATE`;
    if (rows.length === 0) return null;
    const [{ id }] = await tx.$queryRaw<Array<{ id: number }>>`SELECT nextval(pg_get_serial_sequence('eod_batch', 'id'))::int AS id`;
    const lastDate = rows.reduce((last, row) => (row.sales_date > last ? row.sales_date : last), rows[0].sales_date);
    const firstDate = rows.reduce((first, row) => (row.sales_date < first ? row.sales_date : first), rows[0].sales_date);
    const ids = rows.map((row) => row.id);
    // Totals in SQL decimals, never in floating point.
    const [totals] = await tx.$queryRaw<Array<{ invoice_total: string; credit_memo_total: string; shipping_invoice_total: string; net_sales: string }>>`
      SELECT COALESCE(SUM(invoice_total), 0)::text AS invoice_total, COALESCE(SUM(credit_memo_total), 0)::text AS credit_memo_total,
             COALESCE(SUM(shipping_invoice_total), 0)::text AS shipping_invoice_total, COALESCE(SUM(net_sales), 0)::text AS net_sales
        FROM eod_report_row WHERE id = ANY(${ids}::int[])`;
    await tx.eodBatch.create({ data: { ...batchFileRow(id, rows, firstDate, lastDate), ...totals, status: "created" } });
    await tx.$executeRaw`
      UPDATE eod_report_row SET batch_id = ${id}, batched_revision = revision, export_status = 'unsent'
       WHERE id = ANY(${ids}::int[])`;
    return { id };
  });
}

/** Uploads a stored batch and records the outcome on it and on the rows it still carries. */
export async function sendBatch(batchId: number): Promise<BatchSummary> {
  const batch = await prisma.eodBatch.findUniqueOrThrow({ where: { id: batchId } });
  const settings = as400ConnectionSettings();
  let failure: string | null = null;
  try {
    if (!settings) throw new As400NotConfiguredError();
    await withAs400Transport(settings, async (transport) => {
      // The AS400's folders are ours to lay out (as for the 810/846 copies).
      await transport.makeFolder(EOD_FOLDER);
      await transport.upload(EOD_FOLDER, batch.file_name, Buffer.from(batch.content));
    });
  } catch (error) {
    failure = errorMessage(error);
  }
  const status: BatchStatus = failure ? "failed" : "exported";
  const [updated] = await prisma.$transaction([
    prisma.eodBatch.update({
      where: { id: batchId },
      data: { status, error: failure, attempts: { increment: 1 }, updated_at: new Date(), ...(failure ? {} : { exported_at: new Date() }) },
    }),
    // Rows re-run since the batch was made have left it (their new revision waits for a new batch).
    prisma.eodReportRow.updateMany({ where: { batch_id: batchId }, data: { export_status: status === "exported" ? "exported" : "failed" } }),
  ]);
  return summaryOf(updated);
}
