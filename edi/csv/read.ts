// Reads the CSV files vendors send (acknowledgements, ship notices,
// inventory, invoices) and our own purchase orders (round trips, the demo
// vendor). csv-parse splits the text; the header row is matched to the
// columns of headers.ts; zod checks each row. A bad row becomes errors naming
// its line and column and the other rows are still read; a file without its
// required columns is refused with one error.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parse as parseCsvStream, type Options as CsvParseOptions } from "csv-parse";
import { parse as parseCsvSync } from "csv-parse/sync";
import { z } from "zod";
import type { CancellationAnswer, CancellationOutcome } from "../cancellations";
import {
  ACKNOWLEDGEMENT_STATUSES,
  CANCELLATION_STATUSES,
  CSV_DOCUMENTS,
  columnNames,
  normaliseHeaderName,
  requiredColumnNames,
  type AcknowledgementStatus,
  type CsvDocumentType,
} from "./headers";
import type { CsvPurchaseOrder, CsvPurchaseOrderLine } from "./purchase-order";
import type { CodedMessage, Phrase } from "../messages";
import { csvPhrase } from "../texts";

// ---------------------------------------------------------------------------
// Results

export interface CsvRowError {
  /** 1-based line where the row starts (a quoted value may span lines). */
  line: number;
  /** The column at fault; null when the whole row or file is. */
  column: string | null;
  /** What is wrong, without the position: `"abc" is not a whole number`. */
  problem: string;
  /** Position and problem: `line 4, quantity: "abc" is not a whole number`. */
  message: string;
  /** The message as a code with parameters (D124), for the reader's language; the problem of a row is our sentence, its values data. */
  coded: CodedMessage;
}

export interface CsvReadResult<T> {
  rows: T[];
  /** The first MAX_CSV_ERRORS_KEPT errors, by line. */
  errors: CsvRowError[];
  /** Every error found, including those not kept. */
  errorCount: number;
  /** Nothing could be read: no header row, or required columns missing. errors holds the reason. */
  refused: boolean;
  /** Every line was read (false when refused, or when broken quoting stopped the read part-way). */
  complete: boolean;
}

export interface CsvAcknowledgementLine {
  line: number;
  poNumber: string;
  sku: string;
  quantity: number;
  status: AcknowledgementStatus;
  /** YYYY-MM-DD */
  expectedDate: string | null;
  message: string | null;
}

export interface CsvShipNoticeLine {
  line: number;
  poNumber: string;
  sku: string;
  quantity: number;
  trackingNumber: string;
  carrier: string | null;
  /** YYYY-MM-DD */
  shipDate: string | null;
}

export interface CsvInventoryItem {
  line: number;
  sku: string;
  quantity: number;
  /** YYYY-MM-DD */
  availableDate: string | null;
}

/** One invoice row as written; invoice-level values may be null on all but one row. */
export interface CsvInvoiceRow {
  line: number;
  invoiceNumber: string;
  invoiceDate: string | null;
  poNumber: string;
  sku: string;
  quantity: number;
  unitPrice: number;
  lineTotal: number | null;
  shipping: number | null;
  tax: number | null;
  invoiceTotal: number | null;
}

export interface CsvInvoiceLine {
  line: number;
  poNumber: string;
  sku: string;
  quantity: number;
  unitPrice: number;
  /** As given, or quantity × unit price rounded to cents. */
  lineTotal: number;
}

export interface CsvInvoice {
  /** Line of the invoice's first row. */
  line: number;
  invoiceNumber: string;
  /** YYYY-MM-DD */
  invoiceDate: string;
  /** The PO every line bills, or null when the lines bill different POs. */
  poNumber: string | null;
  lines: CsvInvoiceLine[];
  shipping: number;
  tax: number;
  total: number;
}

export interface CsvInvoiceReadResult extends CsvReadResult<CsvInvoiceRow> {
  /** Complete invoices only: an invoice with any bad row is left out (and reported). */
  invoices: CsvInvoice[];
}

export interface CsvPurchaseOrderRow {
  line: number;
  poNumber: string;
  orderNumber: string;
  orderDate: string;
  sku: string;
  vendorSku: string | null;
  quantity: number;
  unitPrice: number | null;
  shipToName: string;
  shipToAddress1: string;
  shipToAddress2: string | null;
  shipToCity: string;
  shipToState: string;
  shipToZip: string;
  shipToCountry: string;
  shipToPhone: string | null;
  lineNumber: string | null;
  shipToCompany: string | null;
  shipMethod: string | null;
  notes: string | null;
}

export interface CsvPurchaseOrderReadResult extends CsvReadResult<CsvPurchaseOrderRow> {
  /** Complete purchase orders only, rows grouped by po_number; date is YYYY-MM-DD text. */
  orders: CsvPurchaseOrder[];
}

export interface CsvCancellationRow {
  line: number;
  poNumber: string;
  orderNumber: string | null;
  sku: string;
  lineNumber: string | null;
  ordered: number;
  cancelled: number;
  remaining: number;
  changeNumber: number;
  /** YYYY-MM-DD */
  cancelDate: string;
  reason: string | null;
}

/** Our cancellation file read back: one per PO, its rows the cancelled lines. */
export interface CsvCancellation {
  poNumber: string;
  orderNumber: string | null;
  changeNumber: number;
  cancelDate: string;
  reason: string | null;
  lines: Pick<CsvCancellationRow, "lineNumber" | "sku" | "ordered" | "cancelled" | "remaining">[];
}

export interface CsvCancellationReadResult extends CsvReadResult<CsvCancellationRow> {
  /** Complete cancellations only, rows grouped by po_number. */
  cancellations: CsvCancellation[];
}

export interface CsvCancellationAnswerRow {
  line: number;
  poNumber: string;
  sku: string;
  quantityCancelled: number | null;
  status: CancellationOutcome;
  message: string | null;
}

export interface CsvCancellationAnswerReadResult extends CsvReadResult<CsvCancellationAnswerRow> {
  /** One answer per po_number; a PO with any bad row is left out whole (and reported). */
  answers: CancellationAnswer[];
}

export interface CsvStreamSummary {
  refused: boolean;
  complete: boolean;
  /** Rows handed to onRow. */
  rowCount: number;
  /** All errors, including those not kept. */
  errorCount: number;
  /** The first maxErrors errors. */
  errors: CsvRowError[];
  /** Lines read, blank ones included. */
  lines: number;
}

export type CsvInput = string | Buffer | Uint8Array;

/**
 * Row errors kept per file (issue 28): a file of 600,000 bad rows kept every
 * error (+567 MB). The rest are counted, and the outcome says how many.
 */
export const MAX_CSV_ERRORS_KEPT = 100;

/** Records read between two turns of the event loop, so a long file never holds the process for more than a few milliseconds. */
const RECORDS_PER_TURN = 250;

/** Distinct invoice or PO numbers of bad rows remembered; past this no invoice or PO of the file can be told whole, and none is taken. */
const MAX_BAD_GROUPS = 100_000;

// ---------------------------------------------------------------------------
// Values. Each parser returns the value, or null when the text is not one.

/** Dates as YYYY-MM-DD from 2026-11-21, 2026/11/21, 11/21/2026, 11/21/26, 20261121 (a time after the date is ignored). */
export function parseCsvDate(text: string): string | null {
  let year: number, month: number, day: number;
  let match = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/i.exec(text);
  if (match) [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else if ((match = /^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})(?: [0-9:]+(?: ?[AP]M)?)?$/i.exec(text))) {
    // US order, as spreadsheets save it; a two-digit year is this century.
    [month, day, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
    if (match[3].length === 2) year += 2000;
  } else if ((match = /^(\d{4})(\d{2})(\d{2})$/.exec(text))) [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else return null;
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** 12, +12, 1,200, 12.0 (not 12.5, not -3). */
export function parseWholeNumber(text: string): number | null {
  if (!/^\+?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.0+)?$/.test(text)) return null;
  const value = Number(text.replace(/[+,]/g, ""));
  return Number.isSafeInteger(value) ? value : null;
}

/** 12, 12.5, -3.25, +1.50, $1,234.56, -$5. */
export function parseAmount(text: string): number | null {
  const match = /^([+-]?)\$?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)$/.exec(text);
  if (!match) return null;
  const value = Number(match[2].replace(/,/g, ""));
  return match[1] === "-" ? -value : value;
}

/**
 * Undoes the writer's CSV-injection guard: a value that starts with a quote
 * before a formula character ('=..., ''+...) loses one quote. Values are trimmed.
 */
export function cleanCsvValue(cell: string): string {
  const value = cell.trim();
  return /^'+[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
}

const quote = (text: string) => JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);

// zod fields over the cleaned cell text ("" when empty or the column is absent).
// The sentence is built only when the error is kept (MAX_CSV_ERRORS_KEPT): building it is most of a bad row's cost.
type Problem = { problem: () => Phrase };
const problem = (key: string, params?: Parameters<typeof csvPhrase>[1]): Problem => ({ problem: () => csvPhrase(key, params) });

function field<T>(read: (text: string) => T | Problem) {
  return z.string().transform((text, ctx) => {
    const value = read(text);
    if (value !== null && typeof value === "object" && "problem" in value) {
      ctx.issues.push({ code: "custom", message: "", input: text, params: { phrase: value.problem } });
      return z.NEVER;
    }
    return value as T;
  });
}

const REQUIRED = problem("required");

function wholeNumber(text: string): number | Problem {
  if (text === "") return REQUIRED;
  const value = parseWholeNumber(text);
  if (value !== null) return value;
  if (/^-\s*\d/.test(text)) return problem("negative", { value: quote(text) });
  return problem("not_whole_number", { value: quote(text) });
}

function amount(text: string): number | Problem {
  if (text === "") return REQUIRED;
  return parseAmount(text) ?? problem("not_amount", { value: quote(text) });
}

function date(text: string): string | Problem {
  if (text === "") return REQUIRED;
  return parseCsvDate(text) ?? problem("not_date", { value: quote(text) });
}

const optional =
  <T>(read: (text: string) => T | Problem) =>
  (text: string) =>
    text === "" ? null : read(text);

const requiredText = field((text) => (text === "" ? REQUIRED : text));
const optionalText = field((text) => (text === "" ? null : text));
const requiredWholeNumber = field(wholeNumber);
const requiredAmount = field(amount);
const optionalAmount = field(optional(amount));
const requiredDate = field(date);
const optionalDate = field(optional(date));
const acknowledgementStatus = field((text): AcknowledgementStatus | Problem => {
  if (text === "") return REQUIRED;
  const status = ACKNOWLEDGEMENT_STATUSES.find((s) => s === text.toLowerCase());
  return status ?? problem("not_status", { value: quote(text), statuses: ACKNOWLEDGEMENT_STATUSES.join(", ") });
});

const cancellationStatus = field((text): CancellationOutcome | Problem => {
  if (text === "") return REQUIRED;
  const status = CANCELLATION_STATUSES.find((s) => s === text.toLowerCase());
  return status ?? problem("not_status", { value: quote(text), statuses: CANCELLATION_STATUSES.join(", ") });
});
const optionalWholeNumber = field(optional(wholeNumber));

// ---------------------------------------------------------------------------
// Documents: the zod schema of a row (keys are column names) and its mapping.

interface DocumentReading<V, T> {
  type: CsvDocumentType;
  schema: z.ZodType<V>;
  toRow(values: V, line: number): T;
}

const defineReading = <V, T>(type: CsvDocumentType, schema: z.ZodType<V>, toRow: (values: V, line: number) => T): DocumentReading<V, T> => ({
  type,
  schema,
  toRow,
});

const acknowledgementReading = defineReading(
  "855",
  z.object({
    po_number: requiredText,
    sku: requiredText,
    quantity: requiredWholeNumber,
    status: acknowledgementStatus,
    expected_date: optionalDate,
    message: optionalText,
  }),
  (v, line): CsvAcknowledgementLine => ({
    line,
    poNumber: v.po_number,
    sku: v.sku,
    quantity: v.quantity,
    status: v.status,
    expectedDate: v.expected_date,
    message: v.message,
  }),
);

const shipNoticeReading = defineReading(
  "856",
  z.object({
    po_number: requiredText,
    sku: requiredText,
    quantity: requiredWholeNumber,
    tracking_number: requiredText,
    carrier: optionalText,
    ship_date: optionalDate,
  }),
  (v, line): CsvShipNoticeLine => ({
    line,
    poNumber: v.po_number,
    sku: v.sku,
    quantity: v.quantity,
    trackingNumber: v.tracking_number,
    carrier: v.carrier,
    shipDate: v.ship_date,
  }),
);

const inventoryReading = defineReading(
  "846",
  z.object({ sku: requiredText, quantity: requiredWholeNumber, available_date: optionalDate }),
  (v, line): CsvInventoryItem => ({ line, sku: v.sku, quantity: v.quantity, availableDate: v.available_date }),
);

// Invoice-level values may sit on one row only: optional here, required per invoice when grouping.
const invoiceReading = defineReading(
  "810",
  z.object({
    invoice_number: requiredText,
    invoice_date: optionalDate,
    po_number: requiredText,
    sku: requiredText,
    quantity: requiredWholeNumber,
    unit_price: requiredAmount,
    line_total: optionalAmount,
    shipping: optionalAmount,
    tax: optionalAmount,
    invoice_total: optionalAmount,
  }),
  (v, line): CsvInvoiceRow => ({
    line,
    invoiceNumber: v.invoice_number,
    invoiceDate: v.invoice_date,
    poNumber: v.po_number,
    sku: v.sku,
    quantity: v.quantity,
    unitPrice: v.unit_price,
    lineTotal: v.line_total,
    shipping: v.shipping,
    tax: v.tax,
    invoiceTotal: v.invoice_total,
  }),
);

const purchaseOrderReading = defineReading(
  "850",
  z.object({
    po_number: requiredText,
    order_number: requiredText,
    order_date: requiredDate,
    sku: requiredText,
    vendor_sku: optionalText,
    quantity: requiredWholeNumber,
    unit_price: optionalAmount,
    ship_to_name: requiredText,
    ship_to_address1: requiredText,
    ship_to_address2: optionalText,
    ship_to_city: requiredText,
    ship_to_state: requiredText,
    ship_to_zip: requiredText,
    ship_to_country: requiredText,
    ship_to_phone: optionalText,
    line_number: optionalText,
    ship_to_company: optionalText,
    ship_method: optionalText,
    notes: optionalText,
  }),
  (v, line): CsvPurchaseOrderRow => ({
    line,
    poNumber: v.po_number,
    orderNumber: v.order_number,
    orderDate: v.order_date,
    sku: v.sku,
    vendorSku: v.vendor_sku,
    quantity: v.quantity,
    unitPrice: v.unit_price,
    shipToName: v.ship_to_name,
    shipToAddress1: v.ship_to_address1,
    shipToAddress2: v.ship_to_address2,
    shipToCity: v.ship_to_city,
    shipToState: v.ship_to_state,
    shipToZip: v.ship_to_zip,
    shipToCountry: v.ship_to_country,
    shipToPhone: v.ship_to_phone,
    lineNumber: v.line_number,
    shipToCompany: v.ship_to_company,
    shipMethod: v.ship_method,
    notes: v.notes,
  }),
);

const cancellationReading = defineReading(
  "cancel",
  z.object({
    po_number: requiredText,
    order_number: optionalText,
    sku: requiredText,
    line_number: optionalText,
    quantity_ordered: requiredWholeNumber,
    quantity_cancelled: requiredWholeNumber,
    quantity_remaining: requiredWholeNumber,
    change_number: requiredWholeNumber,
    cancel_date: requiredDate,
    reason: optionalText,
  }),
  (v, line): CsvCancellationRow => ({
    line,
    poNumber: v.po_number,
    orderNumber: v.order_number,
    sku: v.sku,
    lineNumber: v.line_number,
    ordered: v.quantity_ordered,
    cancelled: v.quantity_cancelled,
    remaining: v.quantity_remaining,
    changeNumber: v.change_number,
    cancelDate: v.cancel_date,
    reason: v.reason,
  }),
);

const cancellationAnswerReading = defineReading(
  "cancel_answer",
  z.object({
    po_number: requiredText,
    sku: requiredText,
    quantity_cancelled: optionalWholeNumber,
    cancel_status: cancellationStatus,
    message: optionalText,
  }),
  (v, line): CsvCancellationAnswerRow => ({
    line,
    poNumber: v.po_number,
    sku: v.sku,
    quantityCancelled: v.quantity_cancelled,
    status: v.cancel_status,
    message: v.message,
  }),
);

// ---------------------------------------------------------------------------
// Records to rows

// Line endings are given explicitly: csv-parse would otherwise guess one from
// the first line and glue together the rows of a file that mixes CRLF and LF.
const PARSE_OPTIONS: CsvParseOptions = {
  bom: true,
  record_delimiter: ["\r\n", "\n", "\r"],
  // Whitespace around a quoted value (a, "b,c" ,d) is not part of it.
  trim: true,
  // A stray quote inside an unquoted value (12" ruler) is kept as text.
  relax_quotes: true,
  relax_column_count: true,
  // Raw text gives the true line numbers: csv-parse counts a CRLF inside quotes as two lines.
  raw: true,
  // A quote that is never closed must not swallow a large file into one value.
  max_record_size: 1_000_000,
};

type Values = Record<string, string>;

/** A row error from one of our sentences (or, for words that are data such as a parser's own error, plain text). */
export function formatCsvError(line: number, column: string | null, problem: Phrase | string): CsvRowError {
  const what: Phrase = typeof problem === "string" ? { text: problem, coded: { text: problem } } : problem;
  const full = column ? csvPhrase("at_line_column", { line, column, problem: what }) : csvPhrase("at_line", { line, problem: what });
  return { line, column, problem: what.text, message: full.text, coded: full.coded };
}

/** Line breaks in a record's raw text; csv-parse leaves out the "\n" of a CRLF that ends a record. */
function countLineBreaks(raw: string): number {
  let count = 0;
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code === 10) count++;
    else if (code === 13) {
      count++;
      if (raw.charCodeAt(i + 1) === 10) i++;
    }
  }
  return count;
}

interface Header {
  /** Column name → cell index. */
  indexes: Map<string, number>;
  width: number;
}

type Taken<T> =
  | { kind: "skipped" }
  | { kind: "refused"; error: CsvRowError }
  | { kind: "row"; row: T }
  | { kind: "invalid"; line: number; values: Values; errors: CsvRowError[]; count: number };

/** Turns parsed records, one at a time, into rows or errors. */
class RowReader<V, T> {
  private nextLine = 1;
  private header: Header | null = null;
  private readonly names: string[];
  /** The last record read had no line break after it (the file's last line). */
  private lastLineOpen = false;

  constructor(private readonly reading: DocumentReading<V, T>) {
    this.names = columnNames(reading.type);
  }

  get linesRead() {
    return this.nextLine - 1 + (this.lastLineOpen ? 1 : 0);
  }

  get hasHeader() {
    return this.header !== null;
  }

  /** `keepErrors` false: a bad row's errors are counted, their sentences not built (most of the cost of a file of bad rows). */
  take(cells: string[], raw: string, keepErrors = true): Taken<T> {
    const line = this.nextLine;
    this.nextLine += countLineBreaks(raw);
    this.lastLineOpen = !/[\r\n]$/.test(raw);
    // Blank lines, and rows of empty cells that spreadsheets leave behind.
    if (cells.every((cell) => cell.trim() === "")) return { kind: "skipped" };
    if (!this.header) {
      const header = this.readHeader(cells, line);
      if ("line" in header) return { kind: "refused", error: header };
      this.header = header;
      return { kind: "skipped" };
    }
    const { indexes, width } = this.header;
    const values: Values = {};
    for (const name of this.names) {
      const index = indexes.get(name);
      values[name] = index === undefined || index >= cells.length ? "" : cleanCsvValue(cells[index]);
    }
    // Surplus values usually mean a comma inside an unquoted value: every column after it is shifted.
    if (cells.length > width && cells.slice(width).some((cell) => cell.trim() !== "")) {
      const errors = keepErrors ? [formatCsvError(line, null, csvPhrase("surplus_values", { count: cells.length, width }))] : [];
      return { kind: "invalid", line, values, errors, count: 1 };
    }
    const parsed = this.reading.schema.safeParse(values);
    if (parsed.success) return { kind: "row", row: this.reading.toRow(parsed.data, line) };
    const { issues } = parsed.error;
    if (!keepErrors) return { kind: "invalid", line, values, errors: [], count: issues.length };
    const errors = issues.map((issue) => {
      const phrase = (issue as { params?: { phrase?: () => Phrase } }).params?.phrase;
      return formatCsvError(line, issue.path.length ? String(issue.path[0]) : null, phrase ? phrase() : issue.message);
    });
    return { kind: "invalid", line, values, errors, count: errors.length };
  }

  private readHeader(cells: string[], line: number): Header | CsvRowError {
    const known = new Set(this.names);
    const indexes = new Map<string, number>();
    const repeated = new Set<string>();
    cells.forEach((cell, index) => {
      const name = normaliseHeaderName(cell);
      if (!known.has(name)) return; // unknown columns are ignored
      if (indexes.has(name)) repeated.add(name);
      else indexes.set(name, index);
    });
    const missing = requiredColumnNames(this.reading.type).filter((name) => !indexes.has(name));
    const problems: Phrase[] = [];
    if (missing.length) problems.push(csvPhrase(missing.length > 1 ? "missing_columns" : "missing_column", { columns: missing.join(", ") }));
    if (repeated.size) problems.push(csvPhrase(repeated.size > 1 ? "repeated_columns" : "repeated_column", { columns: [...repeated].join(", ") }));
    if (!problems.length) return { indexes, width: cells.length };
    const { type } = CSV_DOCUMENTS[this.reading.type];
    const found = cells.map((cell) => cell.trim()).filter(Boolean);
    return formatCsvError(line, null, csvPhrase("not_readable", { document: csvPhrase(`document.${type}`), type, problems, found: found.join(", ") }));
  }

  /** After the last record: a file with no header row at all is refused. */
  finish(): CsvRowError | null {
    return this.header ? null : formatCsvError(1, null, csvPhrase("empty_file", { columns: columnNames(this.reading.type).join(",") }));
  }

  /** A parse error (broken quoting) in the record that starts at the next line: reading stops there. */
  broken(error: { code: string; message: string }): CsvRowError {
    const problems: Record<string, string> = {
      CSV_QUOTE_NOT_CLOSED: "quote_not_closed",
      CSV_INVALID_CLOSING_QUOTE: "text_after_quote",
      CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: "text_after_quote",
      CSV_MAX_RECORD_SIZE: "record_too_long",
    };
    // Another parser error is the parser's own words: data.
    const what = problems[error.code] ? csvPhrase(problems[error.code]) : error.message;
    return formatCsvError(this.nextLine, null, csvPhrase("not_read_further", { problem: what }));
  }
}

// By code rather than instanceof CsvError, which differs between csv-parse's ESM and CommonJS builds.
const isCsvParseError = (error: unknown): error is { code: string; message: string } => {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" && code.startsWith("CSV_");
};

/**
 * What a read keeps, bounded: the good rows (the file's data), the first
 * MAX_CSV_ERRORS_KEPT errors and a count, and for grouped documents (invoices,
 * POs) the lines of bad rows per group key, so a group with a bad row is left out whole.
 */
class Collected<T> {
  rows: T[] = [];
  errors: CsvRowError[] = [];
  errorCount = 0;
  refused = false;
  complete = true;
  readonly badLines = new Map<string, number[]>();
  /** More than MAX_BAD_GROUPS keys had bad rows: no group can be told whole. */
  tooManyBadGroups = false;

  constructor(private readonly groupColumn?: string) {}

  error(error: CsvRowError) {
    this.errorCount++;
    if (this.errors.length < MAX_CSV_ERRORS_KEPT) this.errors.push(error);
  }

  /** Whether the next errors are kept (else only counted). */
  get keepsErrors() {
    return this.errors.length < MAX_CSV_ERRORS_KEPT;
  }

  invalid(line: number, values: Values, errors: CsvRowError[], count: number) {
    errors.forEach((error) => this.error(error));
    this.errorCount += count - errors.length;
    const key = this.groupColumn ? values[this.groupColumn] : "";
    if (!key) return;
    const lines = this.badLines.get(key);
    if (lines) {
      if (lines.length < MAX_CSV_ERRORS_KEPT) lines.push(line);
    } else if (this.badLines.size < MAX_BAD_GROUPS) this.badLines.set(key, [line]);
    else this.tooManyBadGroups = true;
  }

  /** A refusal or a broken read: the errors so far, and nothing usable when refused. */
  result(): CsvReadResult<T> {
    const { errors, errorCount, refused, complete } = this;
    return { rows: refused ? [] : this.rows, errors, errorCount, refused, complete };
  }
}

/** Stops csv-parse from inside on_record once the file is refused. */
const STOP = Symbol("stop reading");

/** A file read whole, synchronously (the manual tools and the CLI; the app's runs read as streams: readCsvStream). */
function readWhole<V, T>(reading: DocumentReading<V, T>, input: CsvInput, groupColumn?: string): Collected<T> {
  const reader = new RowReader(reading);
  const read = new Collected<T>(groupColumn);
  const text = typeof input === "string" || Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  try {
    // Records are handled as they are parsed (on_record returns null), so a
    // parse error part-way keeps the rows before it.
    parseCsvSync(text, {
      ...PARSE_OPTIONS,
      on_record: (record: unknown) => {
        const { record: cells, raw } = record as { record: string[]; raw: string };
        const taken = take(reader, read, cells, raw);
        if (taken === STOP) throw STOP;
        if (taken !== null) read.rows.push(taken);
        return null;
      },
    });
  } catch (error) {
    if (error === STOP) return read;
    if (!isCsvParseError(error)) throw error;
    return brokenRead(reader, read, error);
  }
  return finishedRead(reader, read);
}

/** One record into the collection; STOP when the file is refused. */
function take<V, T>(reader: RowReader<V, T>, read: Collected<T>, cells: string[], raw: string): T | typeof STOP | null {
  const taken = reader.take(cells, raw, read.keepsErrors);
  if (taken.kind === "row") {
    return taken.row;
  } else if (taken.kind === "invalid") read.invalid(taken.line, taken.values, taken.errors, taken.count);
  else if (taken.kind === "refused") {
    read.error(taken.error);
    read.refused = true;
    read.complete = false;
    return STOP;
  }
  return null;
}

/** Broken quoting part-way: the rows before it stand; broken before the header row, nothing of the file is usable. */
function brokenRead<T>(reader: RowReader<unknown, T>, read: Collected<T>, error: { code: string; message: string }): Collected<T> {
  if (!reader.hasHeader) {
    Object.assign(read, { rows: [], errors: [], errorCount: 0, refused: true });
    read.badLines.clear();
  }
  read.error(reader.broken(error));
  read.complete = false;
  return read;
}

/** After the last record: a file with no header row is refused. */
function finishedRead<T>(reader: RowReader<unknown, T>, read: Collected<T>): Collected<T> {
  const empty = reader.finish();
  if (!empty) return read;
  Object.assign(read, { rows: [], errors: [], errorCount: 0, refused: true, complete: false });
  read.error(empty);
  return read;
}

/**
 * Reads a CSV document of any size from a stream (issue 15 for the 846, 28 for
 * every CSV), handing each good row to onRow (awaited: a slow onRow slows the
 * read instead of buffering rows). Memory holds one chunk, a few parsed
 * records and the kept errors, whatever the file size; every RECORDS_PER_TURN
 * records the event loop gets a turn, so the web keeps answering.
 */
async function readCsvStream<V, T>(
  reading: DocumentReading<V, T>,
  source: Readable | AsyncIterable<Buffer | string>,
  onRow: (row: T) => void | Promise<void>,
  read: Collected<T>,
): Promise<{ read: Collected<T>; rowCount: number; lines: number }> {
  const reader = new RowReader(reading);
  let rowCount = 0;
  // A parse error would destroy the stream and drop the records it still
  // buffers, so csv-parse is told to skip instead; we note how many records
  // came before the error and stop reading once those are handled.
  type ParseFailure = { error: { code: string; message: string }; afterRecords: number };
  let broken = null as ParseFailure | null;
  const parser = parseCsvStream({
    ...PARSE_OPTIONS,
    skip_records_with_error: true,
    on_skip: (error) => {
      if (!broken && error) broken = { error: { code: String(error.code), message: error.message }, afterRecords: parser.info.records };
    },
  });
  const input = source instanceof Readable ? source : Readable.from(source);
  // Settles when the source is fully written or either side fails; failures
  // surface through the loop below, so this promise only has to be awaited.
  const piping = pipeline(input, parser).then(
    () => undefined,
    () => undefined,
  );
  let consumed = 0;
  try {
    for await (const record of parser as AsyncIterable<{ record: string[]; raw: string }>) {
      if (broken && consumed >= broken.afterRecords) break; // leaving the loop destroys the parser, and the pipeline the source
      consumed++;
      if (consumed % RECORDS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
      const taken = take(reader, read, record.record, record.raw);
      if (taken === STOP) break;
      if (taken !== null) {
        rowCount++;
        const pending = onRow(taken);
        if (pending) await pending;
      }
    }
  } catch (error) {
    if (!isCsvParseError(error)) throw error; // the source failed, or onRow threw
    broken ??= { error, afterRecords: consumed };
  }
  await piping;
  if (broken && !read.refused) return { read: brokenRead(reader, read, broken.error), rowCount, lines: reader.linesRead };
  if (read.refused) return { read, rowCount, lines: reader.linesRead };
  return { read: finishedRead(reader, read), rowCount, lines: reader.linesRead };
}

// ---------------------------------------------------------------------------
// Public readers

export function readAcknowledgementCsv(input: CsvInput): CsvReadResult<CsvAcknowledgementLine> {
  return readWhole(acknowledgementReading, input).result();
}

export function readShipNoticeCsv(input: CsvInput): CsvReadResult<CsvShipNoticeLine> {
  return readWhole(shipNoticeReading, input).result();
}

/** Whole-file inventory read; for large files use readInventoryCsvStream. */
export function readInventoryCsv(input: CsvInput): CsvReadResult<CsvInventoryItem> {
  return readWhole(inventoryReading, input).result();
}

/** A CSV document read as a stream: the summary of what onRow was given and the errors kept. */
async function streamSummary<V, T>(
  reading: DocumentReading<V, T>,
  source: Readable | AsyncIterable<Buffer | string>,
  onRow: (row: T) => void | Promise<void>,
): Promise<CsvStreamSummary> {
  const { read, rowCount, lines } = await readCsvStream(reading, source, onRow, new Collected<T>());
  return { refused: read.refused, complete: read.complete, rowCount, errorCount: read.errorCount, errors: read.errors, lines };
}

/** Reads an inventory file of any size from a stream (see readCsvStream). */
export function readInventoryCsvStream(
  source: Readable | AsyncIterable<Buffer | string>,
  onRow: (item: CsvInventoryItem) => void | Promise<void>,
): Promise<CsvStreamSummary> {
  return streamSummary(inventoryReading, source, onRow);
}

/** Reads an acknowledgement file of any size from a stream (see readCsvStream). */
export function readAcknowledgementCsvStream(
  source: Readable | AsyncIterable<Buffer | string>,
  onRow: (line: CsvAcknowledgementLine) => void | Promise<void>,
): Promise<CsvStreamSummary> {
  return streamSummary(acknowledgementReading, source, onRow);
}

/** Reads a ship notice file of any size from a stream (see readCsvStream). */
export function readShipNoticeCsvStream(
  source: Readable | AsyncIterable<Buffer | string>,
  onRow: (line: CsvShipNoticeLine) => void | Promise<void>,
): Promise<CsvStreamSummary> {
  return streamSummary(shipNoticeReading, source, onRow);
}

/** Rows grouped into invoices; an invoice with any bad row is left out whole. */
export function readInvoiceCsv(input: CsvInput): CsvInvoiceReadResult {
  return invoicesOf(readWhole(invoiceReading, input, "invoice_number"));
}

/**
 * An invoice file of any size read as a stream (see readCsvStream): its good
 * rows are kept to be grouped (they are the file's data), its bad rows only as
 * counted errors and their invoice numbers.
 */
export async function readInvoiceCsvStream(source: Readable | AsyncIterable<Buffer | string>): Promise<CsvInvoiceReadResult> {
  const collected = new Collected<CsvInvoiceRow>("invoice_number");
  const { read } = await readCsvStream(invoiceReading, source, (row) => void collected.rows.push(row), collected);
  return invoicesOf(read);
}

/** With the errors of grouping added to the row errors (first MAX_CSV_ERRORS_KEPT by line, all counted). */
function withGroupErrors<T>(read: Collected<T>, errors: CsvRowError[]): CsvReadResult<T> {
  const result = read.result();
  return {
    ...result,
    errors: [...result.errors, ...errors].sort((a, b) => a.line - b.line).slice(0, MAX_CSV_ERRORS_KEPT),
    errorCount: result.errorCount + errors.length,
  };
}

function invoicesOf(read: Collected<CsvInvoiceRow>): CsvInvoiceReadResult {
  const { documents, errors } = groupRows(
    read,
    (row) => row.invoiceNumber,
    "invoice",
    {
      invoice_date: (row) => row.invoiceDate,
      shipping: (row) => row.shipping,
      tax: (row) => row.tax,
      invoice_total: (row) => row.invoiceTotal,
    },
    ["invoice_date", "invoice_total"],
    (key, rows, level): CsvInvoice => {
      const poNumbers = new Set(rows.map((row) => row.poNumber));
      return {
        line: rows[0].line,
        invoiceNumber: key,
        invoiceDate: level.invoice_date as string,
        poNumber: poNumbers.size === 1 ? rows[0].poNumber : null,
        lines: rows.map((row) => ({
          line: row.line,
          poNumber: row.poNumber,
          sku: row.sku,
          quantity: row.quantity,
          unitPrice: row.unitPrice,
          lineTotal: row.lineTotal ?? Math.round(row.quantity * row.unitPrice * 100) / 100,
        })),
        shipping: (level.shipping as number | null) ?? 0,
        tax: (level.tax as number | null) ?? 0,
        total: level.invoice_total as number,
      };
    },
  );
  return { ...withGroupErrors(read, errors), invoices: documents };
}

/** Our purchase order file read back, rows grouped by po_number. */
export function readPurchaseOrderCsv(input: CsvInput): CsvPurchaseOrderReadResult {
  const read = readWhole(purchaseOrderReading, input, "po_number");
  const { documents, errors } = groupRows(
    read,
    (row) => row.poNumber,
    "purchase_order",
    {
      order_number: (row) => row.orderNumber,
      order_date: (row) => row.orderDate,
      ship_to_name: (row) => row.shipToName,
      ship_to_address1: (row) => row.shipToAddress1,
      ship_to_address2: (row) => row.shipToAddress2,
      ship_to_city: (row) => row.shipToCity,
      ship_to_state: (row) => row.shipToState,
      ship_to_zip: (row) => row.shipToZip,
      ship_to_country: (row) => row.shipToCountry,
      ship_to_phone: (row) => row.shipToPhone,
      ship_to_company: (row) => row.shipToCompany,
      ship_method: (row) => row.shipMethod,
      notes: (row) => row.notes,
    },
    [],
    (key, rows, level): CsvPurchaseOrder => {
      const text = (column: string) => level[column] as string;
      const maybe = (column: string) => level[column] as string | null;
      const phone = maybe("ship_to_phone");
      return {
        poNumber: key,
        orderNumber: text("order_number"),
        date: text("order_date"),
        shipTo: {
          name: text("ship_to_name"),
          company: maybe("ship_to_company"),
          address1: text("ship_to_address1"),
          address2: maybe("ship_to_address2"),
          city: text("ship_to_city"),
          state: text("ship_to_state"),
          zip: text("ship_to_zip"),
          country: text("ship_to_country"),
        },
        ...(phone ? { contact: { phone } } : {}),
        shipMethod: maybe("ship_method"),
        notes: maybe("notes"),
        lines: rows.map((row): CsvPurchaseOrderLine => ({
          lineNumber: row.lineNumber,
          sku: row.sku,
          vendorSku: row.vendorSku,
          quantity: row.quantity,
          unitPrice: row.unitPrice,
        })),
      };
    },
  );
  return { ...withGroupErrors(read, errors), orders: documents };
}

/** Our cancellation file read back (the demo vendor answers from it), rows grouped by po_number. */
export function readCancellationCsv(input: CsvInput): CsvCancellationReadResult {
  const read = readWhole(cancellationReading, input, "po_number");
  const { documents, errors } = groupRows(
    read,
    (row) => row.poNumber,
    "purchase_order",
    {
      order_number: (row) => row.orderNumber,
      change_number: (row) => row.changeNumber,
      cancel_date: (row) => row.cancelDate,
      reason: (row) => row.reason,
    },
    [],
    (key, rows, level): CsvCancellation => ({
      poNumber: key,
      orderNumber: level.order_number as string | null,
      changeNumber: level.change_number as number,
      cancelDate: level.cancel_date as string,
      reason: level.reason as string | null,
      lines: rows.map(({ lineNumber, sku, ordered, cancelled, remaining }) => ({ lineNumber, sku, ordered, cancelled, remaining })),
    }),
  );
  return { ...withGroupErrors(read, errors), cancellations: documents };
}

/** Refused when any line (or the PO as a whole) is refused; accepted otherwise. */
export function cancellationOutcomeOf(outcomes: readonly CancellationOutcome[]): CancellationOutcome {
  return outcomes.includes("refused") ? "refused" : "accepted";
}

/** A vendor's cancellation-answer file, rows grouped by po_number into one answer each. */
export function readCancellationAnswerCsv(input: CsvInput): CsvCancellationAnswerReadResult {
  const read = readWhole(cancellationAnswerReading, input, "po_number");
  const { documents, errors } = groupRows(
    read,
    (row) => row.poNumber,
    "purchase_order",
    {},
    [],
    (key, rows): CancellationAnswer => {
      const messages = [...new Set(rows.map((row) => row.message).filter((message): message is string => message !== null))];
      return {
        poNumber: key,
        outcome: cancellationOutcomeOf(rows.map((row) => row.status)),
        lines: rows.map((row) => ({
          sku: row.sku,
          ...(row.quantityCancelled !== null ? { quantity: row.quantityCancelled } : {}),
          outcome: row.status,
          ...(row.message !== null ? { reason: row.message } : {}),
        })),
        codes: [...new Set(rows.map((row) => row.status))],
        ...(messages.length ? { reason: messages.join("; ") } : {}),
      };
    },
  );
  return { ...withGroupErrors(read, errors), answers: documents };
}

/**
 * Groups rows into documents by a key column. Document-level columns may be
 * repeated on every row or given once; values given twice must agree.
 * `needed` lists document-level columns that must be given at least once.
 */
function groupRows<R extends { line: number }, D>(
  read: Collected<R>,
  keyOf: (row: R) => string,
  label: "invoice" | "purchase_order",
  levelColumns: Record<string, (row: R) => string | number | null>,
  needed: string[],
  build: (key: string, rows: R[], level: Record<string, string | number | null>) => D,
): { documents: D[]; errors: CsvRowError[] } {
  const groups = new Map<string, R[]>();
  for (const row of read.rows) {
    const rows = groups.get(keyOf(row));
    if (rows) rows.push(row);
    else groups.set(keyOf(row), [row]);
  }
  const badLines = read.badLines;
  const documents: D[] = [];
  const errors: CsvRowError[] = [];
  if (read.tooManyBadGroups) {
    const first = read.rows[0]?.line ?? 1;
    return {
      documents,
      errors: [formatCsvError(first, null, csvPhrase("too_many_bad_groups", { label: csvPhrase(`label.${label}`), count: MAX_BAD_GROUPS }))],
    };
  }
  for (const [key, rows] of groups) {
    const problems: CsvRowError[] = [];
    const level: Record<string, string | number | null> = {};
    const givenOn: Record<string, number> = {};
    for (const row of rows) {
      for (const [column, get] of Object.entries(levelColumns)) {
        const value = get(row);
        if (value === null) continue;
        if (!(column in givenOn)) {
          level[column] = value;
          givenOn[column] = row.line;
        } else if (level[column] !== value) {
          problems.push(
            formatCsvError(
              row.line,
              column,
              csvPhrase("differs", {
                value: quote(String(value)),
                other: quote(String(level[column])),
                given_on: givenOn[column],
                label: csvPhrase(`label.${label}`),
                key,
              }),
            ),
          );
        }
      }
    }
    for (const column of needed)
      if (!(column in givenOn))
        problems.push(formatCsvError(rows[0].line, column, csvPhrase("not_given", { label: csvPhrase(`label.${label}`), key, column })));
    const lines = [...new Set([...(badLines.get(key) ?? []), ...problems.map((problem) => problem.line)])].sort((a, b) => a - b);
    if (lines.length) {
      errors.push(
        ...problems,
        formatCsvError(
          rows[0].line,
          null,
          csvPhrase(lines.length > 1 ? "left_out_lines" : "left_out_line", { label: csvPhrase(`label.${label}`), key, lines: lines.join(", ") }),
        ),
      );
    } else {
      for (const column of Object.keys(levelColumns)) level[column] ??= null;
      documents.push(build(key, rows, level));
    }
  }
  return { documents, errors };
}
