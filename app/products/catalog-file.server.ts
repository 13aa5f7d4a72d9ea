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
import { createHash } from "node:crypto";
import { parse as parseCsv } from "csv-parse/sync";
import prisma from "~/db.server";
import type { Prisma } from "~/db/generated/client";
import { as400ConnectionSettings } from "~/dropship/vendor-connection.server";
import type { FeedRunContext } from "~/feeds/runner.server";
import { normaliseHeaderName } from "../../edi/csv/headers";
import { isTemporaryUploadName, TransportError, withTransport, type VendorTransport } from "../../edi/transport";
import { PRODUCT_STATUSES } from "./grids.server";

export const PRODUCT_CATALOG_FOLDER = "/as400/products";
export const PRODUCT_CATALOG_FILE_TYPE = "product_catalog";
export const PRODUCT_CATALOG_PARTNER = "as400";
const MAX_ATTEMPTS = 3;
const STORE_LOCK_NAMESPACE = 72_700_021;
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
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parseCsv(typeof content === "string" ? content : content.toString("utf8"), {
      bom: true,
      record_delimiter: ["\r\n", "\n", "\r"],
      trim: true,
      relax_quotes: true,
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      max_record_size: 1_000_000,
    }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
  } catch (error) {
    throw new CatalogFileError(`not readable as CSV: ${error instanceof Error ? error.message : String(error)}`);
  }
  const filled = records.filter(({ record }) => record.some((cell) => cell.trim() !== ""));
  if (filled.length === 0) throw new CatalogFileError("the file is empty: it needs a header row (sku, name, ...)");
  const [header, ...body] = filled;
  const names = header.record.map((name) => {
    const normalised = normaliseHeaderName(name);
    return HEADER_ALIASES[normalised] ?? normalised;
  });
  const index = new Map<string, number>();
  for (const [position, name] of names.entries()) {
    if (!(COLUMNS as readonly string[]).includes(name)) continue;
    if (index.has(name)) throw new CatalogFileError(`line ${header.info.lines}: the column ${name} is named twice`);
    index.set(name, position);
  }
  const missing = ["sku", "name"].filter((name) => !index.has(name));
  if (missing.length) {
    throw new CatalogFileError(`line ${header.info.lines}: not a product catalogue file: missing required column${missing.length > 1 ? "s" : ""} ${missing.join(", ")} (the header row has: ${names.join(", ")})`);
  }
  const columns = OPTIONAL.filter((column) => index.has(column));
  const rows: CatalogRow[] = [];
  const errors: string[] = [];
  for (const { record, info } of body) {
    const line = info.lines - record.reduce((breaks, value) => breaks + (value.match(/\r\n|\r|\n/g)?.length ?? 0), 0);
    if (record.length > names.length) {
      errors.push(`line ${line}: ${record.length} values but the header has ${names.length} columns (a comma in a value that is not quoted?)`);
      continue;
    }
    const cell = (name: Column) => (record[index.get(name)!] ?? "").trim();
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
      else if (column === "status" && !(PRODUCT_STATUSES as readonly string[]).includes(value.toLowerCase())) problems.push(`status: "${value.slice(0, 20)}" is not one of ${PRODUCT_STATUSES.join(", ")}`);
      else if (column === "as400_category_id" && value.length > 50) problems.push(`as400_category_id: longer than 50 characters`);
      values[column] = value === "" ? null : column === "status" ? value.toLowerCase() : value;
    }
    if (problems.length) errors.push(...problems.map((problem) => `line ${line}, ${problem}`));
    else rows.push({ line, sku, name, values });
  }
  return { columns, rows, errors };
}

/** Inserts or updates the rows by SKU (the last row of a SKU wins); only the file's columns change on existing products. */
export async function applyCatalogRows(tx: Prisma.TransactionClient, file: Pick<CatalogFile, "columns" | "rows">): Promise<{ inserted: number; updated: number }> {
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
  problems: string[];
}

const sha256 = (content: Buffer) => createHash("sha256").update(content).digest("hex");
const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));
const count = (report: CatalogReport, key: string, by = 1) => (report.counts[key] = (report.counts[key] ?? 0) + by);

/** Fetches and applies the AS400's catalogue files; nothing to do when the AS400 exchange is not configured. */
export async function importProductCatalogFiles(report: CatalogReport, context?: Pick<FeedRunContext, "signal">): Promise<void> {
  const settings = as400ConnectionSettings();
  if (settings) {
    try {
      await withTransport(settings, (transport) => fetchFiles(transport, report, context));
    } catch (error) {
      report.problems.push(`could not read ${PRODUCT_CATALOG_FOLDER} on the AS400: ${errorMessage(error)}`);
    }
  }
  // Files stored by this run and any an earlier run could not finish.
  const waiting = await prisma.transmission.findMany({
    where: { partner: PRODUCT_CATALOG_PARTNER, direction: "in", transaction_set: PRODUCT_CATALOG_FILE_TYPE, status: "received" },
    orderBy: { id: "asc" },
    select: { id: true },
  });
  for (const { id } of waiting) {
    if (context?.signal.aborted) return;
    await applyStoredFile(id, report);
  }
}

async function fetchFiles(transport: VendorTransport, report: CatalogReport, context?: Pick<FeedRunContext, "signal">) {
  if (!(await transport.exists(PRODUCT_CATALOG_FOLDER))) {
    await transport.makeFolder(PRODUCT_CATALOG_FOLDER);
    return;
  }
  const files = (await transport.list(PRODUCT_CATALOG_FOLDER))
    .filter((file) => file.type === "file" && /\.csv$/i.test(file.name) && !isTemporaryUploadName(file.name))
    .sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }));
  for (const file of files) {
    if (context?.signal.aborted) return;
    try {
      const content = await transport.download(file.path, file.size);
      count(report, (await storeFile(file.name, file.path, content)) ? "catalog_files_stored" : "catalog_files_seen_before");
    } catch (error) {
      if (!(error instanceof TransportError) || error.isConnectionFault) throw error;
      report.problems.push(`${file.name} not downloaded (${error.message}); it stays for the next run`);
      continue;
    }
    // Only now, with the file stored, is it moved out of the way.
    try {
      await transport.archive(file.path);
    } catch (error) {
      if (!(error instanceof TransportError) || error.isConnectionFault) throw error;
      report.problems.push(`${file.name} stored but not archived (${error.message}); the next run sees it is stored and tries again`);
    }
  }
}

/** Stores the file unless the same content was stored before; true when new. */
async function storeFile(name: string, remotePath: string, content: Buffer): Promise<boolean> {
  const hash = sha256(content);
  return prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${STORE_LOCK_NAMESPACE}::int, hashtext(${hash}))`;
    const where = { vendor_id: null, partner: PRODUCT_CATALOG_PARTNER, direction: "in", transaction_set: PRODUCT_CATALOG_FILE_TYPE, content_hash: hash };
    if (await tx.transmission.findFirst({ where, select: { id: true } })) return false;
    await tx.transmission.create({
      data: {
        partner: PRODUCT_CATALOG_PARTNER,
        direction: "in",
        file_name: name,
        remote_path: remotePath,
        transaction_set: PRODUCT_CATALOG_FILE_TYPE,
        transaction_control_numbers: [],
        content_hash: hash,
        content: new Uint8Array(content),
        size: content.length,
        status: "received",
      },
    });
    return true;
  });
}

async function applyStoredFile(transmissionId: number, report: CatalogReport) {
  const stored = await prisma.transmission.findUniqueOrThrow({ where: { id: transmissionId }, select: { id: true, file_name: true, content: true, attempts: true } });
  let file: CatalogFile;
  try {
    file = readCatalogFile(Buffer.from(stored.content));
  } catch (error) {
    if (!(error instanceof CatalogFileError)) throw error;
    await prisma.transmission.update({ where: { id: stored.id }, data: { status: "failed", error: error.message, attempts: { increment: 1 }, processed_at: new Date() } });
    count(report, "catalog_files_failed");
    report.problems.push(`${stored.file_name} refused: ${error.message}`);
    return;
  }
  try {
    const result = await prisma.$transaction(
      async (tx) => {
        const applied = await applyCatalogRows(tx, file);
        const error = file.errors.length ? `${file.errors.length} row problem${file.errors.length === 1 ? "" : "s"}: ${file.errors.slice(0, 50).join("; ")}` : null;
        await tx.transmission.update({ where: { id: stored.id }, data: { status: "processed", error, attempts: { increment: 1 }, processed_at: new Date() } });
        return applied;
      },
      { maxWait: 10_000, timeout: 300_000 },
    );
    count(report, "catalog_files_applied");
    count(report, "products_inserted", result.inserted);
    count(report, "products_updated", result.updated);
    if (file.errors.length) {
      count(report, "catalog_rows_invalid", file.errors.length);
      report.problems.push(`${stored.file_name}: ${file.errors.slice(0, 3).join("; ")}${file.errors.length > 3 ? ` (and ${file.errors.length - 3} more)` : ""}`);
    }
  } catch (error) {
    const attempts = stored.attempts + 1;
    const giveUp = attempts >= MAX_ATTEMPTS;
    await prisma.transmission.update({
      where: { id: stored.id },
      data: { status: giveUp ? "failed" : "received", error: `attempt ${attempts}: ${errorMessage(error)}`, attempts, ...(giveUp ? { processed_at: new Date() } : {}) },
    });
    if (giveUp) count(report, "catalog_files_failed");
    report.problems.push(`${stored.file_name} not applied (attempt ${attempts} of ${MAX_ATTEMPTS}): ${errorMessage(error)}`);
  }
}
