// Demo EOD data: the report rows of the last two weeks, built from the seeded
// sales records by the EOD run's own statement, and one batch per day from
// thirteen days ago to two days ago (one of them failed, for Retry Previous). Yesterday
// and today wait to be exported.
import type { PrismaClient } from "../../app/db/generated/client";
import { batchFileRow, type PendingRow } from "../../app/eod/batch-file";
import { rebuildDays } from "../../app/eod/rebuild";
import { dayIn, shiftDay } from "../../app/lib/app-time";

const TIME_ZONE = process.env.APP_TIMEZONE || "America/New_York";

export async function seedEod(db: PrismaClient, now: Date) {
  const today = dayIn(TIME_ZONE, now);
  await rebuildDays(db, shiftDay(today, -13), today);
  for (let back = 13; back >= 2; back--) {
    const day = shiftDay(today, -back);
    const rows = await db.$queryRaw<PendingRow[]>`
      SELECT id, to_char(sales_date, 'YYYY-MM-DD') AS sales_date, store_id, revision, order_count,
             invoice_count, invoice_total::text AS invoice_total, credit_memo_count, credit_memo_total::text AS credit_memo_total,
             shipping_invoice_count, shipping_invoice_total::text AS shipping_invoice_total, net_sales::text AS net_sales
        FROM eod_report_row WHERE sales_date = ${day}::date ORDER BY store_id`;
    if (!rows.length) continue;
    const failed = back === 4;
    const sum = (key: "invoice_total" | "credit_memo_total" | "shipping_invoice_total" | "net_sales") =>
      (rows.reduce((cents, row) => cents + Math.round(Number(row[key]) * 100), 0) / 100).toFixed(2);
    const [{ id }] = await db.$queryRaw<Array<{ id: number }>>`SELECT nextval(pg_get_serial_sequence('eod_batch', 'id'))::int AS id`;
    const madeAt = new Date(Date.parse(`${shiftDay(day, 1)}T03:00:00Z`)); // 10 or 11 pm in New York
    await db.eodBatch.create({
      data: {
        ...batchFileRow(id, rows, day, day),
        invoice_total: sum("invoice_total"),
        credit_memo_total: sum("credit_memo_total"),
        shipping_invoice_total: sum("shipping_invoice_total"),
        net_sales: sum("net_sales"),
        status: failed ? "failed" : "exported",
        error: failed ? "AS400: could not connect to 10.20.0.15:22: connection timed out after 20 s" : null,
        attempts: failed ? 3 : 1,
        exported_at: failed ? null : new Date(madeAt.getTime() + 4000),
        created_at: madeAt,
        updated_at: madeAt,
      },
    });
    await db.$executeRaw`
      UPDATE eod_report_row SET batch_id = ${id}, batched_revision = revision, export_status = ${failed ? "failed" : "exported"}
       WHERE sales_date = ${day}::date`;
  }
}
