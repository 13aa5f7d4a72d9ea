// Writes the purchase order CSV we send to CSV vendors: one row per PO line,
// the header of headers.ts, CRLF line endings, quotes where a value needs them.
// Vendors open these files in spreadsheets, so text that a spreadsheet would
// run as a formula is neutralised with a leading quote (OWASP CSV injection).
import { stringify } from "csv-stringify/sync";
import type { CancellationAnswer, CancellationOrder } from "../cancellations";
import { columnNames, type CsvDocumentType } from "./headers";
import type { CsvPurchaseOrder } from "./purchase-order";
import { parseCsvDate } from "./read";

export type { CsvPurchaseOrder, CsvPurchaseOrderLine, CsvShipTo } from "./purchase-order";

export interface PurchaseOrderCsv {
  text: string;
  /** Data rows, header excluded. */
  rowCount: number;
  /** Values that were given a leading quote, for the log. */
  neutralised: string[];
}

/** The orders cannot be written: every problem found, one per line of the message. */
export class CsvWriteError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "CsvWriteError";
  }
}

// A leading =, +, -, @, tab or carriage return starts a formula. Quotes
// already in front count too, so that the reader, which drops one quote,
// gives back exactly what was written ("'=x" is written "''=x").
const FORMULA_START = /^'*[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * The value as it may go into a cell: prefixed with ' when a spreadsheet
 * would run it. In a numeric column a plain number (-5, +1.50) is left as is.
 */
export function neutraliseCsvValue(value: string, numeric = false): string {
  if (numeric && PLAIN_NUMBER.test(value)) return value;
  return FORMULA_START.test(value) ? `'${value}` : value;
}

function formatAmount(value: number): string {
  // Cents when the amount has no finer part, else every digit given.
  return Math.abs(value * 100 - Math.round(value * 100)) < 1e-9 ? value.toFixed(2) : String(value);
}

/** One row per PO line; throws CsvWriteError, listing every problem, when a required value is missing or wrong. */
export function writePurchaseOrderCsv(orders: readonly CsvPurchaseOrder[]): PurchaseOrderCsv {
  const problems: string[] = [];
  const neutralised: string[] = [];
  const rows: Array<Record<string, string>> = [];

  for (const order of orders) {
    const where = `PO ${order.poNumber || "(no number)"}`;
    const text = (column: string, value: string | null | undefined, required: boolean, at = where) =>
      textCell(problems, neutralised, at, column, value, required);
    const orderDate = order.date instanceof Date ? isoDay(order.date) : parseCsvDate((order.date ?? "").trim());
    if (!orderDate) problems.push(`${where}: order_date ${JSON.stringify(String(order.date))} is not a date`);
    if (!order.lines.length) problems.push(`${where}: no lines`);
    const { shipTo } = order;
    // Order-level values are repeated on every row, so each row stands alone.
    const orderValues = {
      po_number: text("po_number", order.poNumber, true),
      order_number: text("order_number", order.orderNumber, true),
      order_date: orderDate ?? "",
      ship_to_name: text("ship_to_name", shipTo.name, true),
      ship_to_address1: text("ship_to_address1", shipTo.address1, true),
      ship_to_address2: text("ship_to_address2", shipTo.address2, false),
      ship_to_city: text("ship_to_city", shipTo.city, true),
      ship_to_state: text("ship_to_state", shipTo.state, true),
      ship_to_zip: text("ship_to_zip", shipTo.zip, true),
      ship_to_country: text("ship_to_country", shipTo.country, true),
      ship_to_phone: text("ship_to_phone", order.contact?.phone, false),
      ship_to_company: text("ship_to_company", shipTo.company, false),
      ship_method: text("ship_method", order.shipMethod, false),
      notes: text("notes", order.notes, false),
    };
    order.lines.forEach((line, index) => {
      const at = `${where}, line ${index + 1}`;
      if (!Number.isSafeInteger(line.quantity) || line.quantity <= 0)
        problems.push(`${at}: quantity ${JSON.stringify(line.quantity)} is not a whole number above 0`);
      let unitPrice = "";
      if (typeof line.unitPrice === "number") {
        if (Number.isFinite(line.unitPrice)) unitPrice = formatAmount(line.unitPrice);
        else problems.push(`${at}: unit_price ${line.unitPrice} is not a number`);
      } else if (line.unitPrice != null && line.unitPrice.trim() !== "") {
        unitPrice = line.unitPrice.trim();
        if (!PLAIN_NUMBER.test(unitPrice)) problems.push(`${at}: unit_price ${JSON.stringify(line.unitPrice)} is not a number`);
      }
      rows.push({
        ...orderValues,
        line_number: text("line_number", line.lineNumber == null ? null : String(line.lineNumber), false, at),
        sku: text("sku", line.sku, true, at),
        vendor_sku: text("vendor_sku", line.vendorSku, false, at),
        quantity: neutraliseCsvValue(String(line.quantity), true),
        unit_price: neutraliseCsvValue(unitPrice, true),
      });
    });
  }
  if (problems.length) throw new CsvWriteError(problems);

  return { text: csvText("850", rows), rowCount: rows.length, neutralised };
}

/** The rows under the document's header, CRLF line endings, quoted where a value needs it. */
function csvText(type: CsvDocumentType, rows: Array<Record<string, string>>): string {
  return stringify(rows, {
    header: true,
    columns: columnNames(type),
    record_delimiter: "\r\n",
    // csv-stringify quotes values holding a comma, a quote or the whole record
    // delimiter; a lone \n or \r, or edge whitespace some readers trim, must be quoted too.
    quoted_match: /^\s|\s$|[\r\n]/,
  });
}

/** A text value as it goes into a cell, noted when it had to be neutralised; a problem when required and empty. */
function textCell(problems: string[], neutralised: string[], at: string, column: string, value: string | null | undefined, required: boolean): string {
  const given = value ?? "";
  if (required && given.trim() === "") problems.push(`${at}: ${column} is empty`);
  const safe = neutraliseCsvValue(given);
  if (safe !== given) neutralised.push(given);
  return safe;
}

const isoDay = (date: Date) => (Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10));

/**
 * The cancellation CSV: one row per cancelled line, the PO's values repeated
 * on each; throws CsvWriteError, listing every problem, as writePurchaseOrderCsv.
 */
export function writeCancellationCsv(orders: readonly CancellationOrder[]): PurchaseOrderCsv {
  const problems: string[] = [];
  const neutralised: string[] = [];
  const rows: Array<Record<string, string>> = [];
  for (const order of orders) {
    const where = `PO ${order.poNumber || "(no number)"}`;
    const text = (column: string, value: string | null | undefined, required: boolean, at = where) =>
      textCell(problems, neutralised, at, column, value, required);
    const cancelDate = isoDay(order.changeDate);
    if (!cancelDate) problems.push(`${where}: cancel_date ${JSON.stringify(String(order.changeDate))} is not a date`);
    if (!Number.isSafeInteger(order.changeNumber) || order.changeNumber < 1)
      problems.push(`${where}: change_number ${JSON.stringify(order.changeNumber)} is not a whole number above 0`);
    if (!order.lines.length) problems.push(`${where}: no lines`);
    const orderValues = {
      po_number: text("po_number", order.poNumber, true),
      order_number: text("order_number", order.orderNumber, false),
      change_number: String(order.changeNumber),
      cancel_date: cancelDate ?? "",
      reason: text("reason", order.reason, false),
    };
    order.lines.forEach((line, index) => {
      const at = `${where}, line ${index + 1}`;
      if (!Number.isSafeInteger(line.ordered) || line.ordered <= 0)
        problems.push(`${at}: quantity_ordered ${JSON.stringify(line.ordered)} is not a whole number above 0`);
      if (!Number.isSafeInteger(line.cancelled) || line.cancelled <= 0 || line.cancelled > line.ordered)
        problems.push(`${at}: quantity_cancelled ${JSON.stringify(line.cancelled)} is not a whole number from 1 to quantity_ordered`);
      rows.push({
        ...orderValues,
        sku: text("sku", line.sku, true, at),
        line_number: String(line.lineNumber),
        quantity_ordered: String(line.ordered),
        quantity_cancelled: String(line.cancelled),
        quantity_remaining: String(line.ordered - line.cancelled),
      });
    });
  }
  if (problems.length) throw new CsvWriteError(problems);
  return { text: csvText("cancel", rows), rowCount: rows.length, neutralised };
}

/** A cancellation-answer CSV (the demo vendor's, the tests'): a row per answered line; a line without sku is a problem. */
export function writeCancellationAnswerCsv(answers: readonly CancellationAnswer[]): PurchaseOrderCsv {
  const problems: string[] = [];
  const neutralised: string[] = [];
  const rows: Array<Record<string, string>> = [];
  for (const answer of answers) {
    const where = `PO ${answer.poNumber || "(no number)"}`;
    if (!answer.lines.length) problems.push(`${where}: no lines`);
    answer.lines.forEach((line, index) => {
      const at = `${where}, line ${index + 1}`;
      if (line.quantity !== undefined && (!Number.isSafeInteger(line.quantity) || line.quantity < 0))
        problems.push(`${at}: quantity_cancelled ${JSON.stringify(line.quantity)} is not a whole number`);
      rows.push({
        po_number: textCell(problems, neutralised, where, "po_number", answer.poNumber, true),
        sku: textCell(problems, neutralised, at, "sku", line.sku, true),
        quantity_cancelled: line.quantity === undefined ? "" : String(line.quantity),
        cancel_status: line.outcome,
        message: textCell(problems, neutralised, at, "message", line.reason, false),
      });
    });
  }
  if (problems.length) throw new CsvWriteError(problems);
  return { text: csvText("cancel_answer", rows), rowCount: rows.length, neutralised };
}
