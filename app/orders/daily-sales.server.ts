// Home's Daily Sales block (spec 001 §2, §3 "Daily sales", §7 GET /api/daily_sales).
// What each figure means is decision D19 in docs/decisions.md. "The day" is a
// calendar day in APP_TIMEZONE: sales records carry it as their record_date, and
// assignments count when their created_time falls inside it there.
import { prisma } from "~/db.server";
import { env } from "~/env.server";
import { dayIn } from "~/lib/app-time";
import { message } from "~/i18n/messages";
import { ValidationError } from "~/lib/validation.server";

/** One row of the per-store table: assignments created that day at one store or dropshipper. */
export interface StoreAssignments {
  source_code: string;
  /** Units assigned. */
  qty_assigned: number;
  /** Assignments created. */
  assigned: number;
  /** Of those, how many are Complete (shipped). */
  shipped: number;
}

export interface DailySales {
  /** Sales for the day: invoices dated that day, USD. */
  total_invoices: number;
  /** Returns for the day: credit memos dated that day, USD. */
  credit_memos: number;
  /** Shipping invoices dated that day, USD. */
  shipping_invoices: number;
  /** Value (grand totals, USD) of the orders still waiting to be shipped. */
  total_outstanding_orders: number;
  /** Value (grand totals, USD) of the orders with a drop-ship assignment not yet Complete. */
  total_pending_dropship_orders: number;
  /** Keyed by source_code, in source_code order. */
  total_assignments: Record<string, StoreAssignments>;
  /** total_invoices − credit_memos − shipping_invoices. */
  net_sales: number;
  /** How many orders the two order figures are made of. */
  outstanding_order_count: number;
  pending_dropship_order_count: number;
  /** The day the figures are for, YYYY-MM-DD in APP_TIMEZONE. */
  day: string;
}

export interface NetSalesDay {
  date: string;
  net_sales: number;
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

function checkDay(day: string): string {
  const valid = DAY_PATTERN.test(day) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day);
  if (!valid) throw new ValidationError({ day: [message("errors.input.date")] });
  return day;
}

interface Options {
  /** Defaults to APP_TIMEZONE. */
  timeZone?: string;
  /** What "today" is measured from (tests). */
  now?: Date;
}

/** The Daily Sales figures of `day` (YYYY-MM-DD), today in APP_TIMEZONE by default. */
export async function dailySales(day?: string, options: Options = {}): Promise<DailySales> {
  const timeZone = options.timeZone ?? env().APP_TIMEZONE;
  const theDay = checkDay(day ?? dayIn(timeZone, options.now));

  // One statement for the figures. Sales records are read through the
  // (record_date, record_type) index; the order figures read the orders that
  // are not finished and the assignments that are not Complete.
  const [figures] = await prisma.$queryRaw<
    Array<{
      total_invoices: number;
      credit_memos: number;
      shipping_invoices: number;
      net_sales: number;
      total_outstanding_orders: number;
      outstanding_order_count: number;
      total_pending_dropship_orders: number;
      pending_dropship_order_count: number;
    }>
  >`
    WITH sales AS (
      SELECT COALESCE(SUM(amount) FILTER (WHERE record_type = 'invoice'), 0) AS invoices,
             COALESCE(SUM(amount) FILTER (WHERE record_type = 'credit_memo'), 0) AS credit_memos,
             COALESCE(SUM(amount) FILTER (WHERE record_type = 'shipping_invoice'), 0) AS shipping
        FROM sales_record
       WHERE record_date = ${theDay}::date
         AND record_type IN ('invoice', 'credit_memo', 'shipping_invoice')
    ), outstanding AS (
      SELECT COUNT(*)::int AS orders, COALESCE(SUM(grand_total_purchased), 0) AS total
        FROM order_grid
       WHERE COALESCE(magento_status, '') NOT IN ('complete', 'closed', 'canceled', 'fraud')
         AND total_shipped < total_shippable_qty_ordered
    ), pending_dropship AS (
      SELECT COUNT(*)::int AS orders, COALESCE(SUM(o.grand_total_purchased), 0) AS total
        FROM order_grid o
       WHERE o.order_id IN (
               SELECT a.order_increment_id
                 FROM assignment a
                WHERE a.assign_status IN (1, 2, 3)
                  -- a DNH transfer released it (sales assignment, D21)
                  AND NOT EXISTS (SELECT 1 FROM dnh_transfer d WHERE d.assignment_id = a.id)
                  AND (a.dropshipper_name IS NOT NULL
                       OR EXISTS (SELECT 1 FROM inventory_source s WHERE s.source_code = a.store_id AND s.type = 'dropshipper')))
    )
    SELECT sales.invoices::float8 AS total_invoices,
           sales.credit_memos::float8 AS credit_memos,
           sales.shipping::float8 AS shipping_invoices,
           (sales.invoices - sales.credit_memos - sales.shipping)::float8 AS net_sales,
           outstanding.total::float8 AS total_outstanding_orders,
           outstanding.orders AS outstanding_order_count,
           pending_dropship.total::float8 AS total_pending_dropship_orders,
           pending_dropship.orders AS pending_dropship_order_count
      FROM sales, outstanding, pending_dropship`;

  // The day's assignments, through the created_time index: the bounds are the
  // day's midnights in the app's time zone.
  const stores = await prisma.$queryRaw<StoreAssignments[]>`
    SELECT store_id AS source_code,
           SUM(qty_assigned)::int AS qty_assigned,
           COUNT(*)::int AS assigned,
           (COUNT(*) FILTER (WHERE assign_status = 4))::int AS shipped
      FROM assignment a
     WHERE created_time >= (${theDay}::date)::timestamp AT TIME ZONE ${timeZone}
       AND created_time < (${theDay}::date + 1)::timestamp AT TIME ZONE ${timeZone}
       AND NOT EXISTS (SELECT 1 FROM dnh_transfer d WHERE d.assignment_id = a.id)
     GROUP BY store_id
     ORDER BY store_id`;

  return {
    total_invoices: figures.total_invoices,
    credit_memos: figures.credit_memos,
    shipping_invoices: figures.shipping_invoices,
    total_outstanding_orders: figures.total_outstanding_orders,
    total_pending_dropship_orders: figures.total_pending_dropship_orders,
    total_assignments: Object.fromEntries(stores.map((store) => [store.source_code, store])),
    net_sales: figures.net_sales,
    outstanding_order_count: figures.outstanding_order_count,
    pending_dropship_order_count: figures.pending_dropship_order_count,
    day: theDay,
  };
}

/**
 * Net sales (invoices − credit memos − shipping invoices) of each of the `days`
 * days ending with `day` (today in APP_TIMEZONE by default), oldest first; a
 * day without records is 0.
 */
export async function netSalesHistory(days = 14, day?: string, options: Options = {}): Promise<NetSalesDay[]> {
  if (!Number.isInteger(days) || days < 1 || days > 366) throw new ValidationError({ days: [message("errors.input.whole_number", { min: 1, max: 366 })] });
  const timeZone = options.timeZone ?? env().APP_TIMEZONE;
  const last = checkDay(day ?? dayIn(timeZone, options.now));
  return prisma.$queryRaw<NetSalesDay[]>`
    WITH per_day AS (
      SELECT record_date,
             SUM(CASE record_type WHEN 'invoice' THEN amount ELSE -amount END) AS net
        FROM sales_record
       WHERE record_date BETWEEN ${last}::date - ${days - 1}::int AND ${last}::date
         AND record_type IN ('invoice', 'credit_memo', 'shipping_invoice')
       GROUP BY record_date
    )
    SELECT to_char(d, 'YYYY-MM-DD') AS date, COALESCE(per_day.net, 0)::float8 AS net_sales
      FROM generate_series(${last}::date - ${days - 1}::int, ${last}::date, interval '1 day') AS d
      LEFT JOIN per_day ON per_day.record_date = d::date
     ORDER BY d`;
}
