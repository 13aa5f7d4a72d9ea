// The order-status file feed (feed order_sync): the order system drops CSV
// files with each order's status ('Magento Status') and its marketplace and
// ChannelAdvisor fields into ORDER_STATUS_FOLDER on the AS400 / order-system
// exchange (AS400_* in env). Each run:
// 1. downloads every *.csv there and stores it whole (transmission: partner
//    order_system, direction in, content and sha256). A file whose content was
//    stored before is not stored or applied again. Only once stored is the
//    remote file moved into archive/.
// 2. applies each stored file not yet applied, in one transaction per file:
//    rows for orders the grid does not have are reported, a row older than the
//    row's updated_at is skipped. A file that cannot be read is set aside as
//    failed with its error; one the database could not take is tried again
//    next run, and set aside after three attempts. Neither stops the next file.
// The format is documented in docs/as400-files.md.
import type { Prisma } from "~/db/generated/client";
import { env } from "~/env.server";
import type { FeedOutcome, FeedRunContext } from "~/feeds/runner.server";
import { applyReceivedInboundFiles, feedFetchHooks, fetchAs400Files, fileRowErrors, rowsNotApplied, type InboundFileKind } from "~/as400/inbound-files.server";
import { readHeaderedCsv, rowsFittingHeader } from "~/as400/headered-csv";
import { LOCK_KEYS } from "~/db/lock-keys";
import { englishText } from "~/i18n/english.server";
import { message, withProblems, type RunMessage } from "~/i18n/messages";
import { zoneOffset } from "~/lib/app-time";
import { ORDER_SYSTEM_COLUMNS } from "./order-grid";

/** Where the order system puts its order-status files, on the AS400 exchange (next to /as400/invoices and /as400/inventory). */
export const ORDER_STATUS_FOLDER = "/as400/order-status";
/** transaction_set of the stored files, among the order system's others. */
export const ORDER_STATUS_FILE_TYPE = "order_status";
export const ORDER_STATUS_PARTNER = "order_system";

/** The order grid fields a file sets, by column name (the same names as the grid's). */
export const ORDER_STATUS_FIELDS = ["magento_status", ...ORDER_SYSTEM_COLUMNS] as const;
export type OrderStatusField = (typeof ORDER_STATUS_FIELDS)[number];
export const ORDER_STATUS_COLUMNS = ["order_id", ...ORDER_STATUS_FIELDS, "updated_at"] as const;
const REQUIRED_COLUMNS = ["order_id", "updated_at"];

const MAX_ATTEMPTS = 3;
const UPDATE_CHUNK = 5_000;
/** The order-status files, as the shared AS400 inbound pipeline (app/as400) fetches and stores them. */
const ORDER_STATUS_FILES: InboundFileKind = {
  folder: ORDER_STATUS_FOLDER,
  partner: ORDER_STATUS_PARTNER,
  transactionSet: ORDER_STATUS_FILE_TYPE,
  storeLockNamespace: LOCK_KEYS.orderStatusFile,
};

// ---------------------------------------------------------------------------
// Reading a file

export interface OrderStatusRow {
  /** Line of the file the row starts on. */
  line: number;
  order_id: string;
  updated_at: Date;
  /** The fields whose column the file has; an empty cell clears the field (null). */
  values: Partial<Record<OrderStatusField, string | null>>;
}

export interface OrderStatusFile {
  /** The fields the file has a column for: only these are set. */
  fields: OrderStatusField[];
  rows: OrderStatusRow[];
  /** Rows that could not be read ("line 4, updated_at: ..."); the other rows still apply. */
  errors: string[];
}

/** The whole file is refused (not CSV, no header, a required column missing). */
export class OrderStatusFileError extends Error {}

export function readOrderStatusFile(content: Buffer | string, timeZone = env().APP_TIMEZONE): OrderStatusFile {
  const csv = readHeaderedCsv(content, {
    columns: ORDER_STATUS_COLUMNS,
    required: REQUIRED_COLUMNS,
    notThisKind: "not an order status file",
    expectedHeader: "order_id, ..., updated_at",
    refuse: (message) => new OrderStatusFileError(message),
  });
  const fields = ORDER_STATUS_FIELDS.filter((field) => csv.has(field));

  const rows: OrderStatusRow[] = [];
  const errors: string[] = [];
  for (const { line, cell } of rowsFittingHeader(csv, errors)) {
    const orderId = cell("order_id");
    const updatedText = cell("updated_at");
    const updatedAt = parseOrderSystemTime(updatedText, timeZone);
    const problems: string[] = [];
    if (!orderId) problems.push(`line ${line}, order_id: empty`);
    if (!updatedAt) {
      const notDate = `"${updatedText.slice(0, 40)}" is not a date and time (2026-11-21T14:05:00-05:00, 2026-11-21 14:05:00 or 2026-11-21-14.05.00.000000)`;
      problems.push(`line ${line}, updated_at: ${updatedText ? notDate : "empty"}`);
    }
    if (problems.length) {
      errors.push(...problems);
      continue;
    }
    const values: OrderStatusRow["values"] = {};
    for (const field of fields) {
      const value = cell(field);
      values[field] = value === "" ? null : field === "magento_status" ? value.toLowerCase() : value;
    }
    rows.push({ line, order_id: orderId, updated_at: updatedAt!, values });
  }
  return { fields, rows, errors };
}

/**
 * A time as the order system writes it: ISO 8601 with Z or an offset; or
 * without one ("2026-11-21 14:05:00", "2026-11-21T14:05", DB2's
 * "2026-11-21-14.05.00.000000"), which is the time in `timeZone`.
 */
export function parseOrderSystemTime(text: string, timeZone: string): Date | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i.exec(text);
  const db2 = iso ? null : /^(\d{4})-(\d{2})-(\d{2})-(\d{2})\.(\d{2})\.(\d{2})(?:\.(\d{1,9}))?$/.exec(text);
  const match = iso ?? db2;
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0));
  const millis = match[7] ? Number(match[7].slice(0, 3).padEnd(3, "0")) : 0;
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate() || hour > 23 || minute > 59 || second > 59) return null;
  const wall = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const offsetText = iso?.[8];
  if (offsetText) {
    if (offsetText.toUpperCase() === "Z") return new Date(wall);
    const sign = offsetText.startsWith("-") ? -1 : 1;
    const digits = offsetText.slice(1).replace(":", "");
    const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0);
    return new Date(wall - sign * minutes * 60_000);
  }
  // Wall-clock time in the zone: the offset at that moment (checked twice, for the days clocks change).
  let utc = wall - zoneOffset(wall, timeZone);
  const again = wall - zoneOffset(utc, timeZone);
  if (again !== utc) utc = again;
  return new Date(utc);
}

// ---------------------------------------------------------------------------
// Applying a file

export interface OrderStatusApplyResult {
  applied: number;
  /** Rows older than what the order grid holds. */
  stale: OrderStatusRow[];
  /** Rows for order ids the grid does not have. */
  unknown: OrderStatusRow[];
}

/** Applies the rows to order_grid inside `tx`: each order's rows in file order, an older one skipped. */
export async function applyOrderStatusRows(tx: Prisma.TransactionClient, file: Pick<OrderStatusFile, "fields" | "rows">): Promise<OrderStatusApplyResult> {
  const result: OrderStatusApplyResult = { applied: 0, stale: [], unknown: [] };
  const ids = [...new Set(file.rows.map((row) => row.order_id))];
  const current = new Map<string, { id: number; updated_at: Date }>();
  for (let start = 0; start < ids.length; start += UPDATE_CHUNK) {
    const chunk = ids.slice(start, start + UPDATE_CHUNK);
    const found = await tx.$queryRaw<Array<{ id: number; order_id: string; updated_at: Date }>>`
      SELECT id, order_id, updated_at FROM order_grid WHERE order_id = ANY(${chunk}::text[]) ORDER BY id FOR UPDATE`;
    for (const row of found) current.set(row.order_id, { id: row.id, updated_at: row.updated_at });
  }

  const changes = new Map<number, { updated_at: Date; values: OrderStatusRow["values"] }>();
  for (const row of file.rows) {
    const order = current.get(row.order_id);
    if (!order) {
      result.unknown.push(row);
      continue;
    }
    if (row.updated_at < order.updated_at) {
      result.stale.push(row);
      continue;
    }
    order.updated_at = row.updated_at;
    changes.set(order.id, { updated_at: row.updated_at, values: { ...changes.get(order.id)?.values, ...row.values } });
    result.applied++;
  }

  const entries = [...changes.entries()];
  const columns = file.fields;
  // One statement per chunk; the column names come from ORDER_STATUS_FIELDS only.
  const sql = `
    UPDATE order_grid AS o
       SET ${[...columns.map((column) => `"${column}" = v."${column}"`), "updated_at = v.updated_at"].join(", ")}
      FROM unnest($1::int[], $2::timestamptz[]${columns.map((_, i) => `, $${i + 3}::text[]`).join("")})
           AS v(id, updated_at${columns.map((column) => `, "${column}"`).join("")})
     WHERE o.id = v.id`;
  for (let start = 0; start < entries.length; start += UPDATE_CHUNK) {
    const chunk = entries.slice(start, start + UPDATE_CHUNK);
    await tx.$executeRawUnsafe(
      sql,
      chunk.map(([id]) => id),
      chunk.map(([, change]) => change.updated_at.toISOString()),
      ...columns.map((column) => chunk.map(([, change]) => change.values[column] ?? null)),
    );
  }
  return result;
}

// ---------------------------------------------------------------------------
// The feed

class Report {
  readonly counts: Record<string, number> = {};
  /** As codes (D116); the log's meta also keeps them in English. */
  readonly problems: RunMessage[] = [];
  readonly unknownOrders = new Set<string>();
  count(key: string, by = 1) {
    this.counts[key] = (this.counts[key] ?? 0) + by;
  }
  problem(problem: RunMessage) {
    this.problems.push(problem);
  }
}

/** The order_sync feed's job: fetch the order system's order-status files and apply them. */
export async function importOrderStatusFiles(context?: FeedRunContext): Promise<FeedOutcome> {
  const report = new Report();
  const fetched = await fetchAs400Files(ORDER_STATUS_FILES, feedFetchHooks(report, context));
  if (fetched === "not_configured") report.problem(message("logs.order_status.not_configured"));
  else if (fetched !== "fetched") report.problem(message("logs.order_status.folder_unreadable", { folder: ORDER_STATUS_FOLDER, error: fetched.error }));
  // Files stored by this run and any an earlier run could not finish.
  await applyStoredFiles(report, context);
  return outcome(report);
}

/** The stored files, each in one transaction, the rows not applied noted. */
async function applyStoredFiles(report: Report, context?: FeedRunContext) {
  await applyReceivedInboundFiles(ORDER_STATUS_FILES, {
    read: (content) => readOrderStatusFile(content),
    Refusal: OrderStatusFileError,
    apply: async (tx, file) => {
      const applied = await applyOrderStatusRows(tx, file);
      const notes = [
        ...file.errors,
        ...applied.unknown.map((row) => `line ${row.line}: order ${row.order_id} is not in the order grid`),
        ...applied.stale.map((row) => `line ${row.line}: order ${row.order_id} skipped, the grid holds a newer status than ${row.updated_at.toISOString()}`),
      ];
      return { applied, note: rowsNotApplied(notes, "row") };
    },
    oneTransaction: true,
    maxAttempts: MAX_ATTEMPTS,
    signal: context?.signal,
    each: async (outcome) => {
      if (outcome.status === "applied") {
        const { file, applied: result } = outcome;
        report.count("files_applied");
        report.count("rows_applied", result.applied);
        report.count("rows_older_skipped", result.stale.length);
        report.count("rows_unknown_order", result.unknown.length);
        report.count("rows_invalid", file.errors.length);
        for (const row of result.unknown) report.unknownOrders.add(row.order_id);
        if (file.errors.length) report.problem(fileRowErrors(outcome.fileName, file.errors));
      } else {
        if (outcome.setAside) report.count("files_failed");
        report.problem(outcome.problem);
      }
      await context?.progress({ ...report.counts });
    },
  });
}

function outcome(report: Report): FeedOutcome {
  const c = (key: string) => report.counts[key] ?? 0;
  const unknown = [...report.unknownOrders];
  const folder = ORDER_STATUS_FOLDER;
  const parts: RunMessage[] = [
    c("folder_created")
      ? message("logs.order_status.folder_created", { folder })
      : c("files_seen_before")
        ? message("logs.order_status.new_files_seen", {
            files: message("logs.n.new_file", { count: c("files_stored") }),
            folder,
            seen: message("logs.n.file", { count: c("files_seen_before") }),
          })
        : message("logs.order_status.new_files", { files: message("logs.n.new_file", { count: c("files_stored") }), folder }),
    message("logs.order_status.applied", {
      files: message("logs.n.file", { count: c("files_applied") }),
      rows: message("logs.n.row", { count: c("rows_applied") }),
    }),
  ];
  if (c("rows_older_skipped")) parts.push(message("logs.order_status.older_skipped", { rows: message("logs.n.row", { count: c("rows_older_skipped") }) }));
  if (unknown.length)
    parts.push(
      message("logs.order_status.unknown_orders", {
        rows: message("logs.n.row", { count: c("rows_unknown_order") }),
        orders: `${unknown.slice(0, 10).join(", ")}${unknown.length > 10 ? ", …" : ""}`,
      }),
    );
  if (c("files_failed")) parts.push(message("logs.order_status.files_failed", { files: message("logs.n.file", { count: c("files_failed") }) }));
  const problems = report.problems.slice(0, 50);
  const coded = withProblems(message("logs.list", { items: parts }), report.problems);
  return {
    message: englishText(coded),
    messageCode: coded,
    error: report.problems.length > 0,
    meta: {
      ...report.counts,
      unknown_orders: unknown.slice(0, 100),
      problems: problems.map(englishText),
      ...(problems.length ? { problem_codes: problems } : {}),
    },
  };
}
