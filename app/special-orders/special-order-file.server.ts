// Reading the AS400's special-order files (docs/as400-files.md, "Special-order
// file"): CSV, one row per item, the rows of one ticket (store_id plus
// store_ticket) together or apart. Reading never judges a ticket: the pull
// checks each one with the shared rules, so a bad ticket becomes an error row
// staff revise. Only a file that is not a special-order file at all is refused.
import { parse as parseCsv } from "csv-parse/sync";
import { normaliseHeaderName } from "../../edi/csv/headers";
import type { SpecialOrderItem } from "./special-order-rules";

export const TICKET_COLUMNS = [
  "store_id",
  "store_ticket",
  "employee_number",
  "customer_name",
  "customer_email",
  "customer_phone",
  "customer_address_1",
  "customer_address_2",
  "customer_address_city",
  "customer_address_state_code",
  "customer_address_zip",
  "shipping_cost",
] as const;
export const ITEM_COLUMNS = ["sku", "size", "width", "price", "tax"] as const;
export const SPECIAL_ORDER_COLUMNS = [...TICKET_COLUMNS, ...ITEM_COLUMNS] as const;
const REQUIRED_COLUMNS = ["store_id", "store_ticket", "sku"] as const;

export type TicketField = (typeof TICKET_COLUMNS)[number];

export interface SpecialOrderTicket {
  /** Line of the ticket's first row. */
  line: number;
  fields: Record<TicketField, string>;
  items: SpecialOrderItem[];
}

export interface SpecialOrderFile {
  tickets: SpecialOrderTicket[];
  /** Rows that belong to no ticket ("line 7: store_ticket is empty"). */
  errors: string[];
}

/** The whole file is refused: not CSV, empty, or a required column missing. */
export class SpecialOrderFileError extends Error {}

export function readSpecialOrderFile(content: Buffer | string): SpecialOrderFile {
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parseCsv(typeof content === "string" ? content : content.toString("utf8"), {
      bom: true,
      record_delimiter: ["\r\n", "\n", "\r"],
      trim: true,
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      max_record_size: 1_000_000,
    }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
  } catch (error) {
    throw new SpecialOrderFileError(`not readable as CSV: ${error instanceof Error ? error.message : String(error)}`);
  }
  const filled = records.filter(({ record }) => record.some((cell) => cell.trim() !== ""));
  if (filled.length === 0) throw new SpecialOrderFileError("the file is empty: it needs a header row (store_id, store_ticket, ..., sku, size, width, price, tax)");

  const [header, ...body] = filled;
  const names = header.record.map(normaliseHeaderName);
  const known = new Set<string>(SPECIAL_ORDER_COLUMNS);
  const index = new Map<string, number>();
  for (const [position, name] of names.entries()) {
    if (!known.has(name)) continue;
    if (index.has(name)) throw new SpecialOrderFileError(`line ${header.info.lines}: the column ${name} is named twice`);
    index.set(name, position);
  }
  const missing = REQUIRED_COLUMNS.filter((name) => !index.has(name));
  if (missing.length) {
    throw new SpecialOrderFileError(
      `line ${header.info.lines}: not a special-order file: missing required column${missing.length > 1 ? "s" : ""} ${missing.join(", ")} (the header row has: ${names.join(", ")})`,
    );
  }

  const tickets = new Map<string, SpecialOrderTicket>();
  const errors: string[] = [];
  for (const { record, info } of body) {
    const line = info.lines - record.reduce((breaks, value) => breaks + (value.match(/\r\n|\r|\n/g)?.length ?? 0), 0);
    if (record.length > names.length) {
      errors.push(`line ${line}: ${record.length} values but the header has ${names.length} columns (a comma in a value that is not quoted?)`);
      continue;
    }
    const cell = (name: string) => (index.has(name) ? (record[index.get(name)!] ?? "").trim() : "");
    const storeId = cell("store_id");
    const storeTicket = cell("store_ticket");
    if (!storeId || !storeTicket) {
      errors.push(`line ${line}: ${!storeId ? "store_id" : "store_ticket"} is empty, so the row belongs to no ticket`);
      continue;
    }
    const key = `${storeId}\u0000${storeTicket}`;
    let ticket = tickets.get(key);
    if (!ticket) {
      ticket = { line, fields: Object.fromEntries(TICKET_COLUMNS.map((name) => [name, cell(name)])) as Record<TicketField, string>, items: [] };
      tickets.set(key, ticket);
    } else {
      // A later row may leave the ticket's fields empty; the first value given wins.
      for (const name of TICKET_COLUMNS) if (!ticket.fields[name]) ticket.fields[name] = cell(name);
    }
    // A row without any item value carries ticket fields only.
    const item = Object.fromEntries(ITEM_COLUMNS.map((name) => [name, cell(name)])) as unknown as SpecialOrderItem;
    if (ITEM_COLUMNS.some((name) => item[name] !== "")) ticket.items.push(item);
  }
  return { tickets: [...tickets.values()], errors };
}
