// GET /api/daily_sales → the Daily Sales figures of today in APP_TIMEZONE (spec 001 §3, §7):
// total_invoices, credit_memos, shipping_invoices, total_outstanding_orders,
// total_pending_dropship_orders, total_assignments (keyed by store), plus net_sales,
// the order counts, day, and history (net sales of the last 14 days) for Home's chart.
import { apiRoute } from "~/http/route.server";
import { dailySales, netSalesHistory } from "~/orders/daily-sales.server";

export const loader = apiRoute(async () => {
  const figures = await dailySales();
  return { ...figures, history: await netSalesHistory(14, figures.day) };
});
