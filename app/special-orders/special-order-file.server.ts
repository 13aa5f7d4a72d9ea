// Reading the AS400's special-order files (docs/as400-files.md, "Special-order
// file"): CSV, one row per item, the rows of one ticket (store_id plus
// store_ticket) together or apart. Reading never judges a ticket: the pull
// checks each one with the shared rules, so a bad ticket becomes an error row
// staff revise. Only a file that is not a special-order file at all is refused.
import { readHeaderedCsv, rowsFittingHeader } from "~/as400/headered-csv";
import { CUSTOMER_FIELDS, ITEM_FIELDS, type SpecialOrderItem } from "./special-order-rules";

export const TICKET_COLUMNS = ["store_id", "store_ticket", "employee_number", ...CUSTOMER_FIELDS, "shipping_cost"] as const;
export const ITEM_COLUMNS = ITEM_FIELDS;
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
  const csv = readHeaderedCsv(content, {
    columns: SPECIAL_ORDER_COLUMNS,
    required: REQUIRED_COLUMNS,
    notThisKind: "not a special-order file",
    expectedHeader: "store_id, store_ticket, ..., sku, size, width, price, tax",
    relaxQuotes: false,
    refuse: (message) => new SpecialOrderFileError(message),
  });

  const tickets = new Map<string, SpecialOrderTicket>();
  const errors: string[] = [];
  for (const { line, cell } of rowsFittingHeader(csv, errors)) {
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
