// The drop-ship area's server-defined grids.
import prisma from "~/db.server";
import { defineGrid, gridSourceFrom, optionsFrom } from "~/grid/grid.server";
import { SEND_ELSEWHERE_PATH, SEND_ELSEWHERE_STATUSES } from "./revise-fields";
import { REQUEST_STATUS_TONES, RESPONSE_STATUS_TONES } from "./revise-rules";

const LOG_ACTIONS = [
  "populate_requests",
  "send_requests",
  "populate_responses",
  "process_responses",
  "clear_completed",
  "receive_file",
  "send_file",
  "ack_997",
  "shopify_fulfillment",
  "shopify_inventory",
  "as400_copy",
  "host_key_pinned",
  "host_key_reset",
  "cancel_requests",
  "cancel_answers",
] as const;
const LOG_STATUSES = ["info", "success", "warning", "error"] as const;

/** An order number opens the order's page; a row's file opens in the file viewer (issue 32 item 3, D261). */
const ORDER_LINK = "/order/{order_increment_id}";
const FILE_LINK = {
  path: "/file/{transmission_id}",
  field: "transmission_id",
  field_request_name: "id",
  label: "order_story.grid_links.file",
  target: "_self" as const,
  condition: { operator: "notempty" as const, field: "transmission_id" },
};

/** Drop Shipping Logs (spec 000 §2): sorted by id descending, keyed by id. */
export const dropshipLogGrid = defineGrid({
  id: "dropship_log",
  rowKey: "id",
  defaultSort: { key: "id", dir: "desc" },
  source: () => gridSourceFrom(prisma.dropshipLog),
  columns: [
    { key: "id", label: "dropship.logs.columns.id", dataType: "text", valueType: "int" },
    { key: "created_at", label: "dropship.logs.columns.created_at", dataType: "datetime", filter: "date_range" },
    { key: "vendor_name", label: "dropship.logs.columns.vendor_name", dataType: "text" },
    { key: "action", label: "dropship.logs.columns.action", dataType: "select", options: optionsFrom(LOG_ACTIONS, "dropship.logs.actions") },
    {
      key: "status",
      label: "dropship.logs.columns.status",
      dataType: "select",
      options: optionsFrom(LOG_STATUSES, "dropship.logs.statuses"),
      tones: { info: "info", success: "success", warning: "warning", error: "critical" },
    },
    { key: "po_number", label: "dropship.logs.columns.po_number", dataType: "text" },
    { key: "order_increment_id", label: "dropship.logs.columns.order_increment_id", dataType: "text", cellLink: ORDER_LINK },
    { key: "item_sku", label: "dropship.logs.columns.item_sku", dataType: "text" },
    { key: "qty", label: "dropship.logs.columns.qty", dataType: "textOnly", valueType: "int", filter: "none", searchable: false },
    { key: "tracking_number", label: "dropship.logs.columns.tracking_number", dataType: "text" },
    { key: "file_name", label: "dropship.logs.columns.file_name", dataType: "text", cellLink: "/file/{transmission_id}" },
    {
      key: "message",
      label: "dropship.logs.columns.message",
      dataType: "textOnly",
      filter: "text",
      sortable: false,
      searchable: true,
      codeField: "message_code",
    },
  ],
});

export type DropshipLogAction = (typeof LOG_ACTIONS)[number];
export type DropshipLogStatus = (typeof LOG_STATUSES)[number];

export const REQUEST_STATUSES = [
  "pending",
  "sent",
  "acknowledged",
  "backordered",
  "rejected",
  "cancel_requested",
  "cancelled",
  "cancel_refused",
  "shipped",
  "invoiced",
  "completed",
  "archived",
] as const;
export const RESPONSE_STATUSES = ["received", "processed", "fulfilled", "failed"] as const;
export const RESPONSE_TYPES = ["997", "855", "856", "810", "846", "865", "csv"] as const;

/** Drop Shipping Requests: request_id descending; rows link to the revise form. */
export const dropshipRequestGrid = defineGrid({
  id: "dropship_request",
  rowLink: { path: "/dropship/requests/revise?id={request_id}" },
  rowKey: "request_id",
  defaultSort: { key: "request_id", dir: "desc" },
  source: () => gridSourceFrom(prisma.dropshipRequest),
  columns: [
    { key: "request_id", label: "requests.columns.request_id", dataType: "text", valueType: "int" },
    { key: "created_at", label: "requests.columns.created_at", dataType: "datetime", filter: "date_range" },
    { key: "vendor_name", label: "requests.columns.vendor_name", dataType: "text", cellLink: "/dropship/vendor/edit?id={vendor_id}" },
    // The PO opens the vendor's answers to it: the responses grid filtered by the PO.
    { key: "po_number", label: "requests.columns.po_number", dataType: "text", cellLink: "/dropship/responses?po_number={po_number}" },
    { key: "order_increment_id", label: "requests.columns.order_increment_id", dataType: "text", cellLink: ORDER_LINK },
    { key: "item_sku", label: "requests.columns.item_sku", dataType: "text" },
    { key: "qty", label: "requests.columns.qty", dataType: "textOnly", valueType: "int", filter: "none", searchable: false },
    { key: "ship_name_last", label: "requests.columns.ship_name_last", dataType: "text" },
    { key: "ship_city", label: "requests.columns.ship_city", dataType: "text" },
    {
      key: "status",
      label: "requests.columns.status",
      dataType: "select",
      options: optionsFrom(REQUEST_STATUSES, "requests.statuses"),
      tones: REQUEST_STATUS_TONES,
    },
    { key: "sent_at", label: "requests.columns.sent_at", dataType: "datetime" },
    {
      key: "actions",
      label: "requests.columns.actions",
      dataType: "links",
      field: null,
      links: [
        { path: "/dropship/requests/revise", field: "request_id", field_request_name: "id", label: "requests.revise", target: "_self" },
        // The generic condition's "=" once per status: one link shows at most, no new operator needed (D231).
        ...SEND_ELSEWHERE_STATUSES.map((status) => ({
          path: SEND_ELSEWHERE_PATH,
          field: "assignment_id",
          field_request_name: "id",
          label: "cancel_ui.send_elsewhere",
          target: "_self" as const,
          condition: { operator: "=" as const, field: "status", value: status },
        })),
        FILE_LINK,
      ],
    },
  ],
});

/** Drop Shipping Responses: id descending. */
export const dropshipResponseGrid = defineGrid({
  id: "dropship_response",
  rowLink: { path: "/dropship/responses/revise?id={id}" },
  rowKey: "id",
  defaultSort: { key: "id", dir: "desc" },
  source: () => gridSourceFrom(prisma.dropshipResponse),
  columns: [
    { key: "id", label: "responses.columns.id", dataType: "text", valueType: "int" },
    { key: "created_at", label: "responses.columns.created_at", dataType: "datetime", filter: "date_range" },
    { key: "vendor_name", label: "responses.columns.vendor_name", dataType: "text" },
    { key: "response_type", label: "responses.columns.response_type", dataType: "select", options: optionsFrom(RESPONSE_TYPES, "responses.types") },
    { key: "po_number", label: "responses.columns.po_number", dataType: "text" },
    { key: "order_increment_id", label: "responses.columns.order_increment_id", dataType: "text", cellLink: ORDER_LINK },
    { key: "item_sku", label: "responses.columns.item_sku", dataType: "text" },
    { key: "qty", label: "responses.columns.qty", dataType: "textOnly", valueType: "int", filter: "none", searchable: false },
    { key: "tracking_number", label: "responses.columns.tracking_number", dataType: "text" },
    { key: "tracking_carrier", label: "responses.columns.tracking_carrier", dataType: "text" },
    {
      key: "status",
      label: "responses.columns.status",
      dataType: "select",
      options: optionsFrom(RESPONSE_STATUSES, "responses.statuses"),
      tones: RESPONSE_STATUS_TONES,
    },
    { key: "processed_at", label: "responses.columns.processed_at", dataType: "datetime" },
    {
      key: "actions",
      label: "responses.columns.actions",
      dataType: "links",
      field: null,
      links: [
        { path: "/dropship/responses/revise", field: "id", field_request_name: "id", label: "responses.revise", target: "_self" },
        {
          path: "/dropship/requests/revise",
          field: "request_id",
          field_request_name: "id",
          label: "order_story.grid_links.request",
          target: "_self",
          condition: { operator: "notempty", field: "request_id" },
        },
        FILE_LINK,
      ],
    },
  ],
});
