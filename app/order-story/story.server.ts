// One order's whole story (issue 32 item 1): the order, its items and their
// assignments, drop-ship requests with the vendor's answers and cancellations,
// the files in and out with their log lines, the realtime AS400 rows and what
// staff did, in one time-ordered list. Read through prisma directly, in two
// rounds of parallel indexed queries; every list is capped (STORY_CAP) and the
// answer says which were cut.
import prisma from "~/db.server";
import { message as codedMessage, storedForReader, type ReaderText } from "~/i18n/messages";
import { NotFoundError } from "~/lib/validation.server";
import { staffActivityForOrder } from "~/staff-activity/activity.server";

/** At most this many rows of each kind (log lines, realtime rows, staff actions, files) are read for one order. */
export const STORY_CAP = 500;

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null);
const money = (value: { toString(): string } | null | undefined) => (value === null || value === undefined ? null : value.toString());

export interface StoryFile {
  id: number;
  file_name: string;
  partner: string;
  direction: string;
  transaction_set: string | null;
  status: string;
  error: string | null;
  created_at: string | null;
  processed_at: string | null;
}

export type StoryEventKind =
  | "order_created"
  | "order_cancelled"
  | "assignment"
  | "dnh"
  | "request"
  | "request_sent"
  | "response"
  | "cancellation"
  | "cancellation_answer"
  | "file"
  | "log"
  | "realtime_sale"
  | "realtime_shipping"
  | "staff";

/** One line of the story: when, what kind, its words' parameters, and the records it names. */
export interface StoryEvent {
  at: string;
  kind: StoryEventKind;
  /** Parameters of the kind's sentence (order_story.events.<kind>). */
  params: Record<string, string | number | null>;
  /** A stored message (a log line's), in the reader's language at the edge. */
  message?: ReaderText | null;
  status?: string | null;
  file_id?: number | null;
  request_id?: number | null;
  assignment_id?: number | null;
}

const fileSelect = {
  id: true,
  file_name: true,
  partner: true,
  direction: true,
  transaction_set: true,
  status: true,
  error: true,
  created_at: true,
  processed_at: true,
} as const;

type FileRow = {
  id: number;
  file_name: string;
  partner: string;
  direction: string;
  transaction_set: string | null;
  status: string;
  error: string | null;
  created_at: Date;
  processed_at: Date | null;
};

const storyFile = (row: FileRow): StoryFile => ({ ...row, created_at: iso(row.created_at), processed_at: iso(row.processed_at) });

/** GET /api/order/{increment_id} and /order/{increment_id}: the story, or a NotFoundError naming the order. */
export async function orderStory(incrementId: string) {
  const cap = STORY_CAP;
  // Round 1: everything keyed by the order's number (each an indexed lookup), in parallel.
  const [order, assignments, requests, responsesByOrder, logsByOrder, sales, shipping, staff, special] = await Promise.all([
    prisma.order.findUnique({
      where: { order_id: incrementId },
      include: { items: { orderBy: { item_id: "asc" }, take: cap } },
    }),
    prisma.assignment.findMany({
      where: { order_increment_id: incrementId },
      orderBy: { id: "asc" },
      take: cap,
      include: { dnh: { orderBy: { id: "asc" } } },
    }),
    prisma.dropshipRequest.findMany({
      where: { order_increment_id: incrementId },
      orderBy: { request_id: "asc" },
      take: cap,
      include: {
        transmission: { select: fileSelect },
        responses: { orderBy: { id: "asc" }, take: cap, include: { transmission: { select: fileSelect } } },
        cancellations: { orderBy: { id: "asc" }, take: cap, include: { transmission: { select: fileSelect }, answer: { select: fileSelect } } },
      },
    }),
    prisma.dropshipResponse.findMany({
      where: { order_increment_id: incrementId },
      orderBy: { id: "asc" },
      take: cap,
      include: { transmission: { select: fileSelect } },
    }),
    prisma.dropshipLog.findMany({ where: { order_increment_id: incrementId }, orderBy: { id: "desc" }, take: cap + 1 }),
    prisma.realtimeSalesLog.findMany({
      where: { order_increment_id: incrementId },
      orderBy: { id: "desc" },
      take: cap + 1,
      select: {
        id: true,
        event: true,
        amount: true,
        status: true,
        message: true,
        message_code: true,
        created_at: true,
        as400_status: true,
        as400_transmission_id: true,
        as400_file_name: true,
        as400_sent_at: true,
      },
    }),
    prisma.realtimeShippingLog.findMany({
      where: { order_increment_id: incrementId },
      orderBy: { id: "desc" },
      take: cap + 1,
      select: {
        id: true,
        tracking_number: true,
        tracking_carrier: true,
        status: true,
        message: true,
        message_code: true,
        created_at: true,
        as400_status: true,
        as400_transmission_id: true,
        as400_file_name: true,
        as400_sent_at: true,
      },
    }),
    staffActivityForOrder(incrementId, cap + 1),
    prisma.specialOrder.findUnique({ where: { order_id: incrementId }, select: { id: true, store_ticket: true, store_id: true, status: true } }),
  ]);
  if (!order) throw new NotFoundError(codedMessage("order_story.not_found", { order: incrementId }));

  // Round 2: the log lines that name the order's POs but not the order (a received file's), and the
  // files named only by log lines or realtime rows (their metadata, never their content).
  const poNumbers = [...new Set(requests.map((request) => request.po_number))];
  const knownLogIds = new Set(logsByOrder.map((log) => log.id));
  const filesById = new Map<number, StoryFile>();
  const addFile = (row: FileRow | null | undefined) => {
    if (row && !filesById.has(row.id)) filesById.set(row.id, storyFile(row));
  };
  for (const request of requests) {
    addFile(request.transmission);
    for (const response of request.responses) addFile(response.transmission);
    for (const cancellation of request.cancellations) {
      addFile(cancellation.transmission);
      addFile(cancellation.answer);
    }
  }
  for (const response of responsesByOrder) addFile(response.transmission);
  const logsByPo = poNumbers.length
    ? await prisma.dropshipLog.findMany({
        where: { po_number: { in: poNumbers }, NOT: { order_increment_id: incrementId } },
        orderBy: { id: "desc" },
        take: cap + 1,
      })
    : [];
  const logs = [...logsByOrder.slice(0, cap), ...logsByPo.slice(0, cap).filter((log) => !knownLogIds.has(log.id))];
  const namedFileIds = new Set<number>();
  for (const log of logs) if (log.transmission_id) namedFileIds.add(log.transmission_id);
  for (const row of [...sales, ...shipping]) if (row.as400_transmission_id) namedFileIds.add(row.as400_transmission_id);
  const missing = [...namedFileIds].filter((id) => !filesById.has(id)).slice(0, cap);
  if (missing.length) {
    const rows = await prisma.transmission.findMany({ where: { id: { in: missing } }, select: fileSelect });
    for (const row of rows) addFile(row);
  }

  // --- the per-item summary ---------------------------------------------------------------
  const requestByAssignment = new Map(requests.map((request) => [request.assignment_id, request]));
  const items = order.items.map((item) => ({
    item_id: item.item_id,
    sku: item.sku,
    name: item.name,
    qty_ordered: item.qty_ordered,
    qty_shipped: item.qty_shipped,
    qty_refunded: item.qty_refunded,
    qty_canceled: item.qty_canceled,
    price: money(item.price),
    assignments: assignments
      .filter((assignment) => assignment.item_id === item.item_id)
      .map((assignment) => {
        const request = requestByAssignment.get(assignment.id);
        return {
          id: assignment.id,
          source: assignment.dropshipper_name ? ("vendor" as const) : ("store" as const),
          store_id: assignment.store_id,
          dropshipper_name: assignment.dropshipper_name,
          qty_assigned: assignment.qty_assigned,
          assign_status: assignment.assign_status,
          purchase_order: assignment.purchase_order,
          form_number: assignment.form_number,
          dnh: assignment.dnh.map((dnh) => ({ transfer_num: dnh.transfer_num, reason: dnh.reason, created_at: iso(dnh.created_at) })),
          request: request ? { request_id: request.request_id, po_number: request.po_number, status: request.status, vendor_id: request.vendor_id } : null,
          created_time: iso(assignment.created_time),
        };
      }),
  }));

  // --- requests with the vendor's answers -------------------------------------------------------
  const responseIds = new Set<number>();
  const requestList = requests.map((request) => ({
    request_id: request.request_id,
    assignment_id: request.assignment_id,
    vendor_id: request.vendor_id,
    vendor_name: request.vendor_name,
    po_number: request.po_number,
    item_sku: request.item_sku,
    qty: request.qty,
    qty_cancelled: request.qty_cancelled,
    status: request.status,
    vendor_expected_date: request.vendor_expected_date ? request.vendor_expected_date.toISOString().slice(0, 10) : null,
    vendor_codes: request.vendor_codes,
    vendor_note: request.vendor_note,
    transmission_id: request.transmission_id,
    sent_at: iso(request.sent_at),
    created_at: iso(request.created_at),
    responses: request.responses.map((response) => {
      responseIds.add(response.id);
      return responseRow(response);
    }),
    cancellations: request.cancellations.map((cancellation) => ({
      id: cancellation.id,
      qty: cancellation.qty,
      whole: cancellation.whole,
      cause: cancellation.cause,
      status: cancellation.status,
      transmission_id: cancellation.transmission_id,
      answer_transmission_id: cancellation.answer_transmission_id,
      answer_codes: cancellation.answer_codes,
      answer_note: cancellation.answer_note,
      sent_at: iso(cancellation.sent_at),
      answered_at: iso(cancellation.answered_at),
      created_at: iso(cancellation.created_at),
    })),
  }));
  /** Answers that name the order but no request of it (an 810 for a PO we no longer hold, say). */
  const otherResponses = responsesByOrder.filter((response) => !responseIds.has(response.id)).map(responseRow);
  const allResponses = [...requestList.flatMap((request) => request.responses), ...otherResponses];
  const fulfilments = allResponses
    .filter((response) => response.shopify_fulfillment_id || response.tracking_number)
    .map((response) => ({
      response_id: response.id,
      po_number: response.po_number,
      shopify_fulfillment_id: response.shopify_fulfillment_id,
      tracking_number: response.tracking_number,
      tracking_carrier: response.tracking_carrier,
      status: response.status,
      at: response.processed_at ?? response.created_at,
    }));

  // --- the story, oldest first ------------------------------------------------------------------
  const events: StoryEvent[] = [];
  const push = (at: Date | string | null | undefined, event: Omit<StoryEvent, "at">) => {
    const when = typeof at === "string" ? at : iso(at);
    if (when) events.push({ at: when, ...event });
  };
  push(order.created_at, { kind: "order_created", params: { order: order.order_id, total: money(order.grand_total_purchased) } });
  push(order.shopify_cancelled_at, { kind: "order_cancelled", params: { order: order.order_id } });
  for (const assignment of assignments) {
    push(assignment.created_time, {
      kind: "assignment",
      params: { sku: assignment.product_sku, qty: assignment.qty_assigned, source: assignment.dropshipper_name ?? assignment.store_id },
      status: String(assignment.assign_status),
      assignment_id: assignment.id,
    });
    for (const dnh of assignment.dnh)
      push(dnh.created_at, { kind: "dnh", params: { sku: dnh.product_sku, transfer: dnh.transfer_num, reason: dnh.reason }, assignment_id: assignment.id });
  }
  for (const request of requestList) {
    push(request.created_at, {
      kind: "request",
      params: { po: request.po_number, vendor: request.vendor_name, sku: request.item_sku, qty: request.qty },
      status: request.status,
      request_id: request.request_id,
      assignment_id: request.assignment_id,
    });
    push(request.sent_at, {
      kind: "request_sent",
      params: { po: request.po_number, vendor: request.vendor_name },
      request_id: request.request_id,
      file_id: request.transmission_id,
    });
    for (const cancellation of request.cancellations) {
      push(cancellation.created_at, {
        kind: "cancellation",
        params: { po: request.po_number, qty: cancellation.qty },
        status: cancellation.status,
        request_id: request.request_id,
        file_id: cancellation.transmission_id,
      });
      push(cancellation.answered_at, {
        kind: "cancellation_answer",
        params: { po: request.po_number, codes: cancellation.answer_codes.join(", "), note: cancellation.answer_note },
        status: cancellation.status,
        request_id: request.request_id,
        file_id: cancellation.answer_transmission_id,
      });
    }
  }
  for (const response of allResponses)
    push(response.created_at, {
      kind: "response",
      params: {
        type: response.response_type,
        po: response.po_number,
        line_status: response.line_status,
        tracking: response.tracking_number,
        carrier: response.tracking_carrier,
        invoice: response.invoice_number,
      },
      status: response.status,
      request_id: response.request_id,
      file_id: response.transmission_id,
    });
  for (const file of filesById.values())
    push(file.created_at, {
      kind: "file",
      params: { file: file.file_name, set: file.transaction_set, direction: file.direction },
      status: file.status,
      file_id: file.id,
    });
  for (const log of logs)
    push(log.created_at, {
      kind: "log",
      params: { action: log.action, vendor: log.vendor_name, file: log.file_name },
      message: storedForReader(log.message_code, log.message),
      status: log.status,
      file_id: log.transmission_id,
    });
  for (const row of sales.slice(0, cap))
    push(row.created_at, {
      kind: "realtime_sale",
      params: { event: row.event, amount: money(row.amount), as400: row.as400_status, file: row.as400_file_name },
      message: row.message || row.message_code ? storedForReader(row.message_code, row.message) : null,
      status: row.status,
      file_id: row.as400_transmission_id,
    });
  for (const row of shipping.slice(0, cap))
    push(row.created_at, {
      kind: "realtime_shipping",
      params: { tracking: row.tracking_number, carrier: row.tracking_carrier, as400: row.as400_status, file: row.as400_file_name },
      message: row.message || row.message_code ? storedForReader(row.message_code, row.message) : null,
      status: row.status,
      file_id: row.as400_transmission_id,
    });
  const staffRows = staff.length > cap ? staff.slice(staff.length - cap) : staff;
  for (const row of staffRows)
    push(row.created_at, {
      kind: "staff",
      params: { staff: row.staff, action: row.action, record: row.record_type ? `${row.record_type} ${row.record_id ?? ""}`.trim() : null },
      status: row.outcome,
    });
  events.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));

  return {
    order: {
      id: order.id,
      increment_id: order.order_id,
      shopify_order_id: order.shopify_order_id,
      customer_email: order.customer_email,
      bill_to_name: order.concat_bill_to_name,
      ship_to_name: order.concat_ship_to_name,
      shipping_address: order.concat_shipping_address,
      shipping_description: order.shipping_description,
      magento_status: order.magento_status,
      fulfillment_status: order.fulfillment_status,
      financial_status: order.financial_status,
      grand_total_purchased: money(order.grand_total_purchased),
      total_shippable_qty_ordered: order.total_shippable_qty_ordered,
      total_assigned: order.total_assigned,
      total_shipped: order.total_shipped,
      created_at: iso(order.created_at),
      updated_at: iso(order.updated_at),
      shopify_cancelled_at: iso(order.shopify_cancelled_at),
    },
    special_order: special,
    items,
    requests: requestList,
    other_responses: otherResponses,
    fulfilments,
    files: [...filesById.values()].sort((a, b) => a.id - b.id),
    events,
    cap,
    /** The kinds of which more rows exist than were read (the latest `cap` are shown). */
    truncated: {
      items: order.items.length >= cap,
      assignments: assignments.length >= cap,
      requests: requests.length >= cap,
      logs: logsByOrder.length > cap || logsByPo.length > cap,
      realtime_sales: sales.length > cap,
      realtime_shipping: shipping.length > cap,
      staff: staff.length > cap,
      files: namedFileIds.size > cap,
    },
  };
}

export type OrderStory = Awaited<ReturnType<typeof orderStory>>;

type ResponseWithFile = {
  id: number;
  request_id: number | null;
  vendor_name: string;
  po_number: string;
  item_sku: string | null;
  qty: number | null;
  response_type: string;
  line_status: string | null;
  detail: string | null;
  invoice_number: string | null;
  amount: { toString(): string } | null;
  tracking_number: string | null;
  tracking_carrier: string | null;
  shopify_fulfillment_id: string | null;
  status: string;
  transmission_id: number | null;
  processed_at: Date | null;
  created_at: Date;
};

function responseRow(response: ResponseWithFile) {
  return {
    id: response.id,
    request_id: response.request_id,
    vendor_name: response.vendor_name,
    po_number: response.po_number,
    item_sku: response.item_sku,
    qty: response.qty,
    response_type: response.response_type,
    line_status: response.line_status,
    detail: response.detail,
    invoice_number: response.invoice_number,
    amount: money(response.amount),
    tracking_number: response.tracking_number,
    tracking_carrier: response.tracking_carrier,
    shopify_fulfillment_id: response.shopify_fulfillment_id,
    status: response.status,
    transmission_id: response.transmission_id,
    processed_at: iso(response.processed_at),
    created_at: iso(response.created_at)!,
  };
}
