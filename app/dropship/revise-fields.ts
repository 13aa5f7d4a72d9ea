// The fields of the drop-ship revise forms (spec 000 §2, §3), in the order the
// pages show them: what names the record (read-only), its item, then what is
// the request's or the response's own. Their checks are ./revise-forms.ts.
const RECORD_FIELDS = [
  { name: "vendor_name", readOnly: true },
  { name: "assignment_id", readOnly: true },
  { name: "po_number", readOnly: true },
  { name: "order_increment_id", readOnly: true },
  { name: "item_sku", required: true },
  { name: "qty", required: true, type: "number" as const },
];

export const REQUEST_FIELDS = [
  ...RECORD_FIELDS,
  { name: "ship_name_first", required: true },
  { name: "ship_name_last", required: true },
  { name: "ship_address", required: true, lines: 4 },
  { name: "ship_city", required: true },
  { name: "ship_state", required: true },
  { name: "ship_zip", required: true },
  { name: "country_id", required: true },
];

export const RESPONSE_FIELDS = [...RECORD_FIELDS, { name: "tracking_number", required: true }, { name: "tracking_carrier", required: true }];

/** A request the vendor rejected or backordered: its item may go to another source ("Send to another source", D231). */
export const SEND_ELSEWHERE_STATUSES = ["rejected", "backordered"] as const;

/** Where "Send to another source" goes: the Reassign form of the request's assignment (spec 001 §2). */
export const SEND_ELSEWHERE_PATH = "/sales/awaiting-assignment/reassign";
