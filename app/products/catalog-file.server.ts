// The AS400's product catalogue files: where the product table's rows come
// from (D37). The AS400 drops CSV files (SKU, name, AS400 category, price,
// cost, status) into PRODUCT_CATALOG_FOLDER on the AS400 exchange; the product
// sync feed reads them before it tags products. Like the order-status files:
// 1. every *.csv there is downloaded and stored whole (transmission: partner
//    as400, direction in, content and sha256); content stored before is not
//    stored or applied again. Only once stored is the remote file archived;
// 2. each stored file not yet applied is applied in one transaction: products
//    are inserted or updated by SKU, only the columns the file has. Bad rows are
//    reported and the others apply; a file that cannot be read is set aside as
//    failed with its error; a database failure is retried next run (three
//    attempts). Neither stops the next file.
// The format is documented in docs/as400-files.md.
import type { Prisma } from "~/db/generated/client";
import type { FeedRunContext } from "~/feeds/runner.server";
import { applyReceivedInboundFiles, fetchAs400Files, fileRowErrors, type InboundFileKind } from "~/as400/inbound-files.server";
import { message, type RunMessage } from "~/i18n/messages";
import { readHeaderedCsv, rowsFittingHeader } from "~/as400/headered-csv";
import { PRODUCT_STATUSES } from "./grids.server";
import { LOCK_KEYS } from "~/db/lock-keys";

export const PRODUCT_CATALOG_FOLDER = "/as400/products";
export const PRODUCT_CATALOG_FILE_TYPE = "product_catalog";
export const PRODUCT_CATALOG_PARTNER = "as400";
/** The catalogue files, as the shared AS400 inbound pipeline (app/as400) fetches and stores them. */
const CATALOG_FILES: InboundFileKind = {
  folder: PRODUCT_CATALOG_FOLDER,
  partner: PRODUCT_CATALOG_PARTNER,
  transactionSet: PRODUCT_CATALOG_FILE_TYPE,
  storeLockNamespace: LOCK_KEYS.productCatalogFile,
};
const MAX_ATTEMPTS = 3;
const UPSERT_CHUNK = 5_000;

/** Columns of the file; other columns are ignored. `category` is accepted for as400_category_id. */
const COLUMNS = ["sku", "name", "as400_category_id", "price", "cost", "status"] as const;
type Column = (typeof COLUMNS)[number];
const OPTIONAL = ["as400_category_id", "price", "cost", "status"] as const;
type OptionalColumn = (typeof OPTIONAL)[number];
const HEADER_ALIASES: Record<string, Column> = { category: "as400_category_id", category_id: "as400_category_id" };

export interface CatalogRow {
  line: number;
  sku: string;
  name: string;
  values: Partial<Record<OptionalColumn, string | null>>;
}

export interface CatalogFile {
  columns: OptionalColumn[];
  rows: CatalogRow[];
  errors: string[];
}

export class CatalogFileError extends Error {}

const AMOUNT = /^\d{1,10}(\.\d{1,2})?$/;

export function readCatalogFile(content: Buffer | string): CatalogFile {
  const csv = readHeaderedCsv(content, {
    columns: COLUMNS,
    required: ["sku", "name"],
    aliases: HEADER_ALIASES,
    notThisKind: "not a product catalogue file",
    expectedHeader: "sku, name, ...",
    refuse: (message) => new CatalogFileError(message),
  });
  const columns = OPTIONAL.filter((column) => csv.has(column));
  const rows: CatalogRow[] = [];
  const errors: string[] = [];
  for (const { line, cell } of rowsFittingHeader(csv, errors)) {
    const problems: string[] = [];
    const sku = cell("sku");
    const name = cell("name");
    if (!sku) problems.push("sku: empty");
    else if (sku.length > 64) problems.push(`sku: "${sku.slice(0, 20)}…" is longer than 64 characters`);
    if (!name) problems.push("name: empty");
    const values: CatalogRow["values"] = {};
    for (const column of columns) {
      const value = cell(column);
      if (column === "price" && !AMOUNT.test(value)) problems.push(`price: "${value.slice(0, 20)}" is not an amount (12.95)`);
      else if (column === "cost" && value !== "" && !AMOUNT.test(value)) problems.push(`cost: "${value.slice(0, 20)}" is not an amount (6.50)`);
      else if (column === "status" && !(PRODUCT_STATUSES as readonly string[]).includes(value.toLowerCase()))
        problems.push(`status: "${value.slice(0, 20)}" is not one of ${PRODUCT_STATUSES.join(", ")}`);
      else if (column === "as400_category_id" && value.length > 50) problems.push(`as400_category_id: longer than 50 characters`);
      values[column] = value === "" ? null : column === "status" ? value.toLowerCase() : value;
    }
    if (problems.length) errors.push(...problems.map((problem) => `line ${line}, ${problem}`));
    else rows.push({ line, sku, name, values });
  }
  return { columns, rows, errors };
}

/** Inserts or updates the rows by SKU (the last row of a SKU wins); only the file's columns change on existing products. */
export async function applyCatalogRows(
  tx: Prisma.TransactionClient,
  file: Pick<CatalogFile, "columns" | "rows">,
): Promise<{ inserted: number; updated: number }> {
  const bySku = new Map(file.rows.map((row) => [row.sku, row]));
  const rows = [...bySku.values()];
  const sets = ["name = EXCLUDED.name", ...file.columns.map((column) => `${column} = EXCLUDED.${column}`), "updated_at = now()"].join(", ");
  let inserted = 0;
  let updated = 0;
  for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
    const chunk = rows.slice(i, i + UPSERT_CHUNK);
    const column = (name: OptionalColumn) => chunk.map((row) => row.values[name] ?? null);
    // xmax = 0 tells an inserted row from an updated one.
    const result = await tx.$queryRawUnsafe<Array<{ inserted: boolean }>>(
      `INSERT INTO product (sku, name, as400_category_id, price, cost, status, created_at, updated_at)
       SELECT s.sku, s.name, s.category, COALESCE(s.price, 0), s.cost, COALESCE(s.status, 'active'), now(), now()
         FROM unnest($1::text[], $2::text[], $3::text[], $4::numeric[], $5::numeric[], $6::text[]) AS s(sku, name, category, price, cost, status)
       ON CONFLICT (sku) DO UPDATE SET ${sets}
       RETURNING (xmax = 0) AS inserted`,
      chunk.map((row) => row.sku),
      chunk.map((row) => row.name),
      column("as400_category_id"),
      column("price"),
      column("cost"),
      column("status"),
    );
    const added = result.filter((row) => row.inserted).length;
    inserted += added;
    updated += result.length - added;
  }
  return { inserted, updated };
}

export interface CatalogReport {
  counts: Record<string, number>;
  /** As codes (D116). */
  problems: RunMessage[];
}

const count = (report: CatalogReport, key: string, by = 1) => (report.counts[key] = (report.counts[key] ?? 0) + by);

/** Fetches and applies the AS400's catalogue files; nothing to fetch when the AS400 exchange is not configured. */
export async function importProductCatalogFiles(report: CatalogReport, context?: Pick<FeedRunContext, "signal">): Promise<void> {
  const fetched = await fetchAs400Files(CATALOG_FILES, {
    signal: context?.signal,
    problem: (problem) => report.problems.push(problem),
    fileStored: (stored) => count(report, stored.isNew ? "catalog_files_stored" : "catalog_files_seen_before"),
    filesStillChanging: (files) => count(report, "catalog_files_still_changing", files.length),
  });
  if (typeof fetched === "object") report.problems.push(message("logs.as400.folder_unreadable", { folder: PRODUCT_CATALOG_FOLDER, error: fetched.error }));
  // Files stored by this run and any an earlier run could not finish, each in one transaction, the row problems noted.
  await applyReceivedInboundFiles(CATALOG_FILES, {
    read: readCatalogFile,
    Refusal: CatalogFileError,
    apply: async (tx, file) => {
      const applied = await applyCatalogRows(tx, file);
      const errors = file.errors;
      const note = errors.length ? `${errors.length} row problem${errors.length === 1 ? "" : "s"}: ${errors.slice(0, 50).join("; ")}` : null;
      return { applied, note };
    },
    oneTransaction: true,
    maxAttempts: MAX_ATTEMPTS,
    signal: context?.signal,
    each: (outcome) => {
      if (outcome.status !== "applied") {
        if (outcome.setAside) count(report, "catalog_files_failed");
        report.problems.push(outcome.problem);
        return;
      }
      const { file, applied } = outcome;
      count(report, "catalog_files_applied");
      count(report, "products_inserted", applied.inserted);
      count(report, "products_updated", applied.updated);
      if (file.errors.length) {
        count(report, "catalog_rows_invalid", file.errors.length);
        report.problems.push(fileRowErrors(outcome.fileName, file.errors));
      }
    },
  });
}
