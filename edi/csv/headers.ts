// The CSV files exchanged with vendors whose edi_format is 0: the one place
// that names their columns. Readers, the writer, file recognition and
// docs/edi-csv.md (checked by a test) all follow these lists.
//
// "required" means the column must be in the header and every row must give
// it a value; an optional column may be left out of the header or left empty.

/**
 * A CSV document, named by the X12 transaction set it stands for; the
 * cancellation (ours, an 860's place) and its answer (an 865's) by what they are.
 */
export type CsvDocumentType = "850" | "855" | "856" | "846" | "810" | "cancel" | "cancel_answer";

/** How a column's text is read (and written). */
export type CsvValueKind = "text" | "whole number" | "amount" | "date" | "status";

export interface CsvColumn {
  name: string;
  required: boolean;
  kind: CsvValueKind;
  description: string;
}

export interface CsvDocumentSpec {
  type: CsvDocumentType;
  title: string;
  /** out: we write it (purchase orders); in: vendors send it. */
  direction: "out" | "in";
  columns: readonly CsvColumn[];
}

const column = (name: string, required: boolean, kind: CsvValueKind, description: string): CsvColumn => ({ name, required, kind, description });

/** Acknowledgement statuses, as the 855's line statuses. */
export const ACKNOWLEDGEMENT_STATUSES = ["accepted", "backordered", "rejected", "changed"] as const;
export type AcknowledgementStatus = (typeof ACKNOWLEDGEMENT_STATUSES)[number];

export const PURCHASE_ORDER_COLUMNS = [
  column("po_number", true, "text", "Our purchase order number; the vendor quotes it back in every file."),
  column("order_number", true, "text", "The shop's order number the PO was made for."),
  column("order_date", true, "date", "Date of the PO, YYYY-MM-DD."),
  column("sku", true, "text", "Our SKU for the item."),
  column("vendor_sku", false, "text", "The vendor's own part number, when known."),
  column("quantity", true, "whole number", "Units ordered."),
  column("unit_price", false, "amount", "Our agreed cost per unit in USD (vendors that invoice at cost)."),
  column("ship_to_name", true, "text", "Customer's full name."),
  column("ship_to_address1", true, "text", "First address line."),
  column("ship_to_address2", false, "text", "Second address line (suite, apartment)."),
  column("ship_to_city", true, "text", "City."),
  column("ship_to_state", true, "text", "State or province code, e.g. NY."),
  column("ship_to_zip", true, "text", "ZIP or postal code (text: keeps leading zeros)."),
  column("ship_to_country", true, "text", "ISO 3166-1 alpha-2 country code, e.g. US."),
  column("ship_to_phone", false, "text", "Customer's phone number, for the carrier."),
  column("line_number", false, "text", "Our line number within the PO (as PO101 in an 850)."),
  column("ship_to_company", false, "text", "Company name of the ship-to address."),
  column("ship_method", false, "text", "Requested shipping service, e.g. UPS Ground."),
  column("notes", false, "text", "Free-text instructions for the vendor; may span lines."),
] as const satisfies readonly CsvColumn[];

export const ACKNOWLEDGEMENT_COLUMNS = [
  column("po_number", true, "text", "Our PO number, from the purchase order file."),
  column("sku", true, "text", "Our SKU, from the purchase order file."),
  column("quantity", true, "whole number", "Units the status applies to."),
  column("status", true, "status", "accepted, backordered, rejected or changed (any case)."),
  column("expected_date", false, "date", "When backordered or changed units are expected to ship."),
  column("message", false, "text", "The vendor's note, e.g. the reason for a rejection."),
] as const satisfies readonly CsvColumn[];

export const SHIP_NOTICE_COLUMNS = [
  column("po_number", true, "text", "Our PO number."),
  column("sku", true, "text", "Our SKU."),
  column("quantity", true, "whole number", "Units in this shipment."),
  column("tracking_number", true, "text", "The carrier's tracking number."),
  column("carrier", false, "text", "Carrier name or SCAC, e.g. UPS, FedEx, USPS."),
  column("ship_date", false, "date", "Date the package left the vendor."),
] as const satisfies readonly CsvColumn[];

export const INVENTORY_COLUMNS = [
  column("sku", true, "text", "Our SKU (or the vendor's, mapped by the inventory job)."),
  column("quantity", true, "whole number", "Units available now."),
  column("available_date", false, "date", "When stock is expected again, for items at 0."),
] as const satisfies readonly CsvColumn[];

// Invoice-level columns (invoice_date, shipping, tax, invoice_total) may be
// repeated on every row of the invoice or given on its first row only.
export const INVOICE_COLUMNS = [
  column("invoice_number", true, "text", "The vendor's invoice number; rows with the same number form one invoice."),
  column("invoice_date", true, "date", "Invoice date (invoice level)."),
  column("po_number", true, "text", "Our PO number the line bills."),
  column("sku", true, "text", "Our SKU."),
  column("quantity", true, "whole number", "Units billed."),
  column("unit_price", true, "amount", "Price per unit in USD."),
  column("line_total", false, "amount", "quantity × unit_price; computed when absent."),
  column("shipping", false, "amount", "Shipping charge for the invoice (invoice level); 0 when absent."),
  column("tax", false, "amount", "Tax for the invoice (invoice level); 0 when absent."),
  column("invoice_total", true, "amount", "Amount due for the whole invoice (invoice level)."),
] as const satisfies readonly CsvColumn[];

/** What a vendor says of a cancellation, as CancellationOutcome. */
export const CANCELLATION_STATUSES = ["accepted", "refused"] as const;

// One row per cancelled line; PO-level values are repeated on every row.
export const CANCELLATION_COLUMNS = [
  column("po_number", true, "text", "Our PO number, as in the purchase order file."),
  column("order_number", false, "text", "The shop's order number the PO was made for."),
  column("sku", true, "text", "Our SKU of the cancelled line."),
  column("line_number", false, "text", "The line's number within the PO, as in the purchase order file."),
  column("quantity_ordered", true, "whole number", "Units the purchase order ordered of this line."),
  column("quantity_cancelled", true, "whole number", "Units of this line cancelled now (all of them, or some)."),
  column("quantity_remaining", true, "whole number", "Units still to ship: quantity_ordered − quantity_cancelled."),
  column("change_number", true, "whole number", "This cancellation's number for the PO, 1 for its first; quote it back."),
  column("cancel_date", true, "date", "When the cancellation was decided, YYYY-MM-DD."),
  column("reason", false, "text", "Why the lines are cancelled, e.g. Order cancelled by the customer."),
] as const satisfies readonly CsvColumn[];

export const CANCELLATION_ANSWER_COLUMNS = [
  column("po_number", true, "text", "Our PO number, from the cancellation file."),
  column("sku", true, "text", "Our SKU, from the cancellation file."),
  column("quantity_cancelled", false, "whole number", "Units the vendor cancelled; when empty, what the cancellation asked."),
  column("cancel_status", true, "status", "accepted or refused (any case): whether the vendor cancelled the line."),
  column("message", false, "text", "The vendor's note, e.g. why a cancellation is refused (already shipped)."),
] as const satisfies readonly CsvColumn[];

export const CSV_DOCUMENTS: Record<CsvDocumentType, CsvDocumentSpec> = {
  "850": { type: "850", title: "Purchase order", direction: "out", columns: PURCHASE_ORDER_COLUMNS },
  "855": { type: "855", title: "Acknowledgement", direction: "in", columns: ACKNOWLEDGEMENT_COLUMNS },
  "856": { type: "856", title: "Ship notice", direction: "in", columns: SHIP_NOTICE_COLUMNS },
  "846": { type: "846", title: "Inventory", direction: "in", columns: INVENTORY_COLUMNS },
  "810": { type: "810", title: "Invoice", direction: "in", columns: INVOICE_COLUMNS },
  cancel: { type: "cancel", title: "Cancellation", direction: "out", columns: CANCELLATION_COLUMNS },
  cancel_answer: { type: "cancel_answer", title: "Cancellation answer", direction: "in", columns: CANCELLATION_ANSWER_COLUMNS },
};

/** Column names in file order. */
export function columnNames(type: CsvDocumentType): string[] {
  return CSV_DOCUMENTS[type].columns.map((c) => c.name);
}

export function requiredColumnNames(type: CsvDocumentType): string[] {
  return CSV_DOCUMENTS[type].columns.filter((c) => c.required).map((c) => c.name);
}

/** The header row as written (purchase orders) and as documented. */
export function headerLine(type: CsvDocumentType): string {
  return columnNames(type).join(",");
}

/**
 * How a header cell is matched to a column name: surrounding whitespace and
 * case are ignored, and runs of spaces or hyphens count as one underscore, so
 * "PO Number", " po-number " and "PO_NUMBER" are all po_number.
 */
export function normaliseHeaderName(name: string): string {
  return name
    .replace(/^\uFEFF/, "")
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}
