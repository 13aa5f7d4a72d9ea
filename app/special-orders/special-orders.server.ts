// Special orders as staff see them (spec 001 §2, §3, §7): the Current, Errors
// and Logs grids, a log's file for download, and the revise form's load and
// save. Saving a revision sends the order to Shopify at once; if Shopify
// refuses again, a new error row says why.
import prisma from "~/db.server";
import type { Prisma } from "~/db/generated/client";
import { defineGrid, gridSourceFrom, optionsFrom, runGrid } from "~/grid/grid.server";
import { message, storedForReader, type CodedMessage } from "~/i18n/messages";
import { NotFoundError, ValidationError } from "~/lib/validation.server";
import type { ShopifyAdmin } from "~/shopify/admin-client.server";
import { baseTotal, processSpecialOrder, SPECIAL_ORDER_STATUSES } from "./processing.server";
import { CUSTOMER_FIELDS, readItems, specialOrderProblems } from "./special-order-rules";
import { logger } from "~/observability/logger.server";

const log = logger("special-orders");

// --- grids ---------------------------------------------------------------------------------

/**
 * Current special orders: those Shopify has (an order_id), order_id
 * descending, and those pulled but not yet created in Shopify (Pending, no
 * order_id: first, since PostgreSQL puts nulls first when descending), so
 * staff see them before the next pull creates them. View Order opens the order
 * in the store admin. Errors are on the error screen.
 */
export const specialOrderCurrentGrid = defineGrid({
  id: "special_order_current",
  rowKey: "id",
  defaultSort: { key: "order_id", dir: "desc" },
  source: () => gridSourceFrom(prisma.specialOrder),
  baseWhere: { OR: [{ order_id: { not: null } }, { status: "pending" }] },
  columns: [
    { key: "order_id", label: "special_orders.columns.order_id", dataType: "text", cellLink: "/order/{order_id}" },
    { key: "shopify_order_id", label: "special_orders.columns.shopify_order_id", dataType: "text" },
    { key: "store_ticket", label: "special_orders.columns.store_ticket", dataType: "text" },
    { key: "bill_to_name", label: "special_orders.columns.bill_to_name", dataType: "text" },
    { key: "ship_to_name", label: "special_orders.columns.ship_to_name", dataType: "text" },
    { key: "grand_total_base", label: "special_orders.columns.grand_total_base", dataType: "textOnly", filter: "none", searchable: false },
    { key: "grand_total_purchased", label: "special_orders.columns.grand_total_purchased", dataType: "textOnly", filter: "none", searchable: false },
    {
      key: "status",
      label: "special_orders.columns.status",
      dataType: "select",
      options: optionsFrom(SPECIAL_ORDER_STATUSES, "special_orders.statuses"),
      tones: { pending: "attention", created: "success", error: "critical" },
    },
    { key: "shipping_description", label: "special_orders.columns.shipping_description", dataType: "text" },
    { key: "customer_email", label: "special_orders.columns.customer_email", dataType: "text" },
    {
      key: "actions",
      label: "special_orders.columns.actions",
      dataType: "links",
      field: null,
      // The path is completed in the browser with the shop's admin URL (see the Current page).
      links: [
        {
          path: "shopify:admin/orders",
          field: "shopify_order_id",
          field_request_name: "id",
          label: "special_orders.view_order",
          target: "_blank",
          condition: { operator: "notempty", field: "shopify_order_id" },
        },
      ],
    },
  ],
});

/** Special order errors still to revise: id descending; Revise opens the special order's form. */
export const specialOrderErrorGrid = defineGrid({
  id: "special_order_error",
  rowKey: "id",
  defaultSort: { key: "id", dir: "desc" },
  source: () => gridSourceFrom(prisma.specialOrderError),
  baseWhere: { resolved_at: null },
  columns: [
    { key: "id", label: "special_orders.columns.id", dataType: "text", valueType: "int" },
    { key: "special_order_id", label: "special_orders.columns.special_order_id", dataType: "text", valueType: "int" },
    { key: "store_ticket", label: "special_orders.columns.store_ticket", dataType: "text" },
    { key: "store_id", label: "special_orders.columns.store_id", dataType: "text" },
    { key: "employee_number", label: "special_orders.columns.employee_number", dataType: "text" },
    { key: "customer_name", label: "special_orders.columns.customer_name", dataType: "text" },
    { key: "customer_email", label: "special_orders.columns.customer_email", dataType: "text" },
    { key: "customer_phone", label: "special_orders.columns.customer_phone", dataType: "text" },
    { key: "error_message", label: "special_orders.columns.error_message", dataType: "text", codeField: "error_code" },
    { key: "created_at", label: "special_orders.columns.created_at", dataType: "datetime", filter: "date_range" },
    { key: "updated_at", label: "special_orders.columns.updated_at", dataType: "datetime" },
    {
      key: "actions",
      label: "special_orders.columns.actions",
      dataType: "links",
      field: null,
      links: [{ path: "/special_order/revise", field: "special_order_id", field_request_name: "id", label: "special_orders.revise", target: "_self" }],
    },
  ],
});

/** Every special-order file pulled: id descending; Download gives the file as it came. */
export const specialOrderLogGrid = defineGrid({
  id: "special_order_log",
  rowKey: "id",
  defaultSort: { key: "id", dir: "desc" },
  source: () => gridSourceFrom(prisma.specialOrderLog),
  columns: [
    { key: "id", label: "special_orders.columns.id", dataType: "text", valueType: "int" },
    { key: "file_path", label: "special_orders.columns.file_path", dataType: "text" },
    { key: "summary", label: "special_orders.columns.summary", dataType: "textOnly", filter: "none", sortable: false, codeField: "summary_code" },
    { key: "created_at", label: "special_orders.columns.created_at", dataType: "datetime", filter: "date_range" },
    {
      key: "actions",
      label: "special_orders.columns.actions",
      dataType: "links",
      field: null,
      links: [{ path: "/api/special_order_log_download", field: "id", field_request_name: "id", label: "special_orders.download", target: "_self" }],
    },
  ],
});

/** The spec's list answers for these three: data, last_page, total at the top level (spec 001 §7), and the columns. */
async function flatList(grid: Parameters<typeof runGrid>[0], params: URLSearchParams) {
  const answer = await runGrid(grid, params);
  return { ...answer.data, columns: answer.columns };
}
/** Totals as exact decimal text ("246.96"), the same in the page's first render and the API's JSON. */
const money = (value: unknown) => (value === null || value === undefined ? null : (value as { toFixed(digits: number): string }).toFixed(2));
export async function listCurrentSpecialOrders(params: URLSearchParams) {
  const answer = await flatList(specialOrderCurrentGrid, params);
  return {
    ...answer,
    data: answer.data.map((row) => ({ ...row, grand_total_base: money(row.grand_total_base), grand_total_purchased: money(row.grand_total_purchased) })),
  };
}
export const listSpecialOrderErrors = (params: URLSearchParams) => flatList(specialOrderErrorGrid, params);
export const listSpecialOrderLogs = (params: URLSearchParams) => flatList(specialOrderLogGrid, params);

/** The file of a log row, as it came from the AS400. */
export async function specialOrderLogFile(idText: string | null): Promise<{ name: string; content: Uint8Array }> {
  const id = Number(idText);
  const log =
    Number.isSafeInteger(id) && id > 0 ? await prisma.specialOrderLog.findUnique({ where: { id }, select: { file_path: true, content: true } }) : null;
  if (!log) throw new NotFoundError(`Special order log ${idText ?? ""} does not exist`);
  return { name: log.file_path.split("/").pop() || `special_order_log_${id}.csv`, content: log.content };
}

// --- revise --------------------------------------------------------------------------------

async function findSpecialOrder(id: number) {
  const order = Number.isSafeInteger(id) && id > 0 ? await prisma.specialOrder.findUnique({ where: { id } }) : null;
  if (!order) throw new NotFoundError(`Special order ${id} does not exist`);
  return order;
}

/** GET /api/special_order/{id}: the form's fields, items as a JSON string (spec 001 §7). */
export async function getSpecialOrderForm(id: number) {
  const order = await findSpecialOrder(id);
  const lastError = await prisma.specialOrderError.findFirst({
    where: { special_order_id: id },
    orderBy: [{ resolved_at: { sort: "desc", nulls: "first" } }, { id: "desc" }],
    select: { error_message: true, error_code: true },
  });
  return {
    id: order.id,
    status: order.status,
    order_id: order.order_id,
    store_ticket: order.store_ticket,
    employee_number: order.employee_number,
    store_id: order.store_id,
    // In the reader's language when the pull wrote it as a code (D114), rendered at the edge (D136).
    error_message: lastError ? storedForReader(lastError.error_code, lastError.error_message) : null,
    ...Object.fromEntries(CUSTOMER_FIELDS.map((field) => [field, order[field] ?? null])),
    items: JSON.stringify(readItems(order.items) ?? []),
    shipping_cost: order.shipping_cost.toFixed(2),
  };
}

const text = (value: unknown) => (value === null || value === undefined ? "" : String(value).trim());

/** A revision's answer: 200, or 409 when Shopify already has the order; the message is rendered by the route (D127). */
export interface SpecialOrderAnswer {
  status: 200 | 409;
  body: { error: boolean; message: CodedMessage };
}

/**
 * POST /api/special_order/{id} (_method=PUT): the shared rules (422 with the
 * first failing item rule under `items`, as codes), then the save, then Shopify at once.
 */
export async function updateSpecialOrder(id: number, body: Record<string, unknown>, admin: () => Promise<ShopifyAdmin>): Promise<SpecialOrderAnswer> {
  const order = await findSpecialOrder(id);
  if (order.status === "created") {
    return { status: 409, body: { error: true, message: message("special_orders.already_created", { order_id: order.order_id ?? "" }) } };
  }
  const items = readItems(body.items);
  if (items === null) throw new ValidationError({ items: [message("special_orders.validation.items_json")] });
  const values = { ...Object.fromEntries(CUSTOMER_FIELDS.map((field) => [field, text(body[field])])), shipping_cost: text(body.shipping_cost), items };
  const problems = specialOrderProblems(values, message);
  if (Object.keys(problems).length) throw new ValidationError(problems);

  const name = text(body.customer_name);
  const data: Prisma.SpecialOrderUpdateInput = {
    ...Object.fromEntries(CUSTOMER_FIELDS.map((field) => [field, text(body[field]) || null])),
    customer_name: name,
    customer_address_state_code: text(body.customer_address_state_code).toUpperCase(),
    items: items.map((item) => ({ sku: item.sku.trim(), size: item.size.trim(), width: item.width.trim(), price: item.price.trim(), tax: item.tax.trim() })),
    shipping_cost: Number(values.shipping_cost),
    bill_to_name: name,
    ship_to_name: name,
    grand_total_base: baseTotal(items, values.shipping_cost),
    status: "pending",
  };
  const saved = await prisma.$transaction(async (tx) => {
    // Not if a pull created it in Shopify meanwhile (it holds the row while it does).
    const changed = await tx.specialOrder.updateMany({ where: { id, status: { not: "created" } }, data: data as Prisma.SpecialOrderUpdateManyMutationInput });
    if (changed.count === 0) return false;
    // The revision answers the open errors; a new refusal makes a new one.
    await tx.specialOrderError.updateMany({ where: { special_order_id: id, resolved_at: null }, data: { resolved_at: new Date() } });
    return true;
  });
  if (!saved) {
    const now = await findSpecialOrder(id);
    return { status: 409, body: { error: true, message: message("special_orders.already_created", { order_id: now.order_id ?? "" }) } };
  }

  let outcome;
  try {
    outcome = await processSpecialOrder(await admin(), id);
  } catch (error) {
    // Saved; Shopify could not be reached: the pull sends it at its next run.
    log.error({ err: error }, `${id} saved, not sent to Shopify yet`);
    return { status: 200, body: { error: false, message: message("special_orders.saved_pending") } };
  }
  if (outcome.status === "error") return { status: 200, body: { error: true, message: message("special_orders.saved_refused", { message: outcome.message }) } };
  return { status: 200, body: { error: false, message: message("special_orders.saved") } };
}
