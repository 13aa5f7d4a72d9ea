// A stored file, opened by its id (issue 32 item 2): a transmission (vendor,
// AS400 or order-system file, in or out) by its number, or an EOD batch file
// as "eod-<id>" (D262). Shown a page at a time (FILE_PAGE_SIZE segments, rows
// or lines) with the total, so a file of tens of MB never goes into the page
// whole; X12 one segment a line with its name, CSV as a table, anything else
// as text. Downloaded by id only, never by a path a user typed.
import { readIsa, segmentName } from "@edi/x12";
import { parse as parseCsv } from "csv-parse/sync";
import { z } from "zod";
import prisma from "~/db.server";
import { message, storedForReader } from "~/i18n/messages";
import { NotFoundError, parseInput } from "~/lib/validation.server";

export const FILE_PAGE_SIZE = 500;
/** At most this many records of each kind that name a file are listed on its page. */
export const FILE_LINKS_CAP = 200;

/** A file's address: a transmission's number, or eod-<number> for an EOD batch file. */
export const fileIdSchema = z.object({
  id: z.string().regex(/^(eod-)?[1-9][0-9]{0,9}$/, "file_viewer.errors.id"),
  page: z.coerce.number().int().min(1, "file_viewer.errors.page").max(1_000_000, "file_viewer.errors.page").default(1),
});

export type FileKey = { kind: "transmission" | "eod"; id: number; key: string };

export function parseFileKey(input: { id?: string; page?: string | null }): FileKey & { page: number } {
  const parsed = parseInput(fileIdSchema, { id: input.id ?? "", page: input.page || undefined });
  const eod = parsed.id.startsWith("eod-");
  const id = Number(eod ? parsed.id.slice(4) : parsed.id);
  if (!Number.isSafeInteger(id) || id > 2_147_483_647) parseInput(fileIdSchema, { id: "x" });
  return { kind: eod ? "eod" : "transmission", id, key: parsed.id, page: parsed.page };
}

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null);

interface StoredFile {
  key: string;
  kind: "transmission" | "eod";
  id: number;
  file_name: string;
  partner: string;
  vendor_id: number | null;
  vendor_name: string | null;
  direction: string;
  transaction_set: string | null;
  status: string;
  error: string | null;
  error_segment: string | null;
  size: number;
  remote_path: string | null;
  released_to: string | null;
  reply_to_id: number | null;
  created_at: string | null;
  processed_at: string | null;
  content: Uint8Array;
}

async function loadFile(key: FileKey): Promise<StoredFile> {
  if (key.kind === "eod") {
    const batch = await prisma.eodBatch.findUnique({ where: { id: key.id } });
    if (!batch) throw new NotFoundError(message("file_viewer.not_found", { id: key.key }));
    return {
      key: key.key,
      kind: "eod",
      id: batch.id,
      file_name: batch.file_name,
      partner: "as400",
      vendor_id: null,
      vendor_name: null,
      direction: "out",
      transaction_set: "eod",
      status: batch.status,
      error: batch.error,
      error_segment: null,
      size: batch.content.byteLength,
      remote_path: batch.remote_path,
      released_to: null,
      reply_to_id: null,
      created_at: iso(batch.created_at),
      processed_at: iso(batch.exported_at),
      content: batch.content,
    };
  }
  const row = await prisma.transmission.findUnique({ where: { id: key.id }, include: { vendor: { select: { name: true } } } });
  if (!row) throw new NotFoundError(message("file_viewer.not_found", { id: key.key }));
  return {
    key: key.key,
    kind: "transmission",
    id: row.id,
    file_name: row.file_name,
    partner: row.partner,
    vendor_id: row.vendor_id,
    vendor_name: row.vendor?.name ?? null,
    direction: row.direction,
    transaction_set: row.transaction_set,
    status: row.status,
    error: row.error,
    error_segment: row.error_segment,
    size: row.size,
    remote_path: row.remote_path,
    released_to: row.released_to,
    reply_to_id: row.reply_to_id,
    created_at: iso(row.created_at),
    processed_at: iso(row.processed_at),
    content: row.content,
  };
}

export interface X12Segment {
  /** 1-based, counted from the file's first segment (as a transmission's error_segment counts). */
  index: number;
  id: string;
  name: string | null;
  elements: string[];
}

/** The segments of X12 text, split by the ISA's own delimiters; null when the text is not X12. */
export function x12Segments(text: string): { segments: string[]; element: string } | null {
  const start = text.search(/\S/);
  if (start < 0 || !text.startsWith("ISA", start)) return null;
  const isa = readIsa(text, start, true);
  if (!isa || "error" in isa) return null;
  const body = isa.stripLineBreaks ? text.slice(start).replace(/[\r\n]+/g, "") : text.slice(start);
  const segments = body
    .split(isa.delimiters.segment)
    .map((segment) => segment.trim())
    .filter(Boolean);
  return { segments, element: isa.delimiters.element };
}

const looksCsv = (file: Pick<StoredFile, "file_name" | "transaction_set">) => file.transaction_set === "csv" || /\.csv$/i.test(file.file_name);

function pageOf<T>(all: T[], page: number) {
  const total = all.length;
  const lastPage = Math.max(1, Math.ceil(total / FILE_PAGE_SIZE));
  const current = Math.min(page, lastPage);
  return { total, lastPage, current, slice: all.slice((current - 1) * FILE_PAGE_SIZE, current * FILE_PAGE_SIZE), offset: (current - 1) * FILE_PAGE_SIZE };
}

/** The content of one page: X12 segments, CSV rows under the first line's headers, or lines of text. */
export function fileContentPage(file: Pick<StoredFile, "file_name" | "transaction_set" | "content">, page: number) {
  const text = Buffer.from(file.content).toString("utf8");
  const x12 = x12Segments(text);
  if (x12) {
    const { total, lastPage, current, slice, offset } = pageOf(x12.segments, page);
    const segments: X12Segment[] = slice.map((segment, i) => {
      const [id = "", ...elements] = segment.split(x12.element);
      return { index: offset + i + 1, id, name: segmentName(id), elements };
    });
    return { format: "x12" as const, page: current, per_page: FILE_PAGE_SIZE, last_page: lastPage, total, segments };
  }
  const lines = text.split(/\r?\n/);
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  if (looksCsv(file) && lines.length) {
    const rows = lines.slice(1);
    const { total, lastPage, current, slice, offset } = pageOf(rows, page);
    const parseLine = (line: string): string[] => {
      try {
        return (parseCsv(line, { relax_column_count: true, relax_quotes: true, skip_empty_lines: false }) as string[][])[0] ?? [];
      } catch {
        return [line];
      }
    };
    return {
      format: "csv" as const,
      page: current,
      per_page: FILE_PAGE_SIZE,
      last_page: lastPage,
      total,
      header: parseLine(lines[0]!),
      rows: slice.map((line, i) => ({ line: offset + i + 2, cells: parseLine(line) })),
    };
  }
  const { total, lastPage, current, slice, offset } = pageOf(lines, page);
  return {
    format: "text" as const,
    page: current,
    per_page: FILE_PAGE_SIZE,
    last_page: lastPage,
    total,
    lines: slice.map((line, i) => ({ line: offset + i + 1, text: line })),
  };
}

/** The records and log lines that name a transmission (each list capped at FILE_LINKS_CAP). */
async function recordsNaming(file: StoredFile) {
  const take = FILE_LINKS_CAP;
  if (file.kind === "eod") {
    return { requests: [], responses: [], cancellations: [], logs: [], realtime_sales: [], realtime_shipping: [], reply_to: null, replies: [] };
  }
  const id = file.id;
  const vendorId = file.vendor_id;
  const [requests, responses, cancellations, logs, sales, shipping, replyTo, replies] = await Promise.all([
    prisma.dropshipRequest.findMany({
      where: { transmission_id: id },
      orderBy: { request_id: "asc" },
      take,
      select: { request_id: true, po_number: true, order_increment_id: true, vendor_id: true, vendor_name: true, item_sku: true, status: true },
    }),
    // dropship_response has no index on transmission_id: its vendor narrows the search (vendor_id, status).
    vendorId
      ? prisma.dropshipResponse.findMany({
          where: { vendor_id: vendorId, transmission_id: id },
          orderBy: { id: "asc" },
          take,
          select: { id: true, request_id: true, po_number: true, order_increment_id: true, response_type: true, status: true, tracking_number: true },
        })
      : Promise.resolve([]),
    prisma.dropshipCancellation.findMany({
      where: vendorId ? { OR: [{ transmission_id: id }, { vendor_id: vendorId, answer_transmission_id: id }] } : { transmission_id: id },
      orderBy: { id: "asc" },
      take,
      select: { id: true, request_id: true, po_number: true, status: true, transmission_id: true },
    }),
    // dropship_log has no index on transmission_id; its file name (trigram-indexed, which answers equality) narrows it.
    prisma.dropshipLog.findMany({
      where: { file_name: file.file_name, transmission_id: id },
      orderBy: { id: "asc" },
      take,
      select: { id: true, action: true, status: true, po_number: true, order_increment_id: true, message: true, message_code: true, created_at: true },
    }),
    prisma.realtimeSalesLog.findMany({
      where: { as400_transmission_id: id },
      orderBy: { id: "asc" },
      take,
      select: { id: true, order_increment_id: true, event: true, status: true },
    }),
    prisma.realtimeShippingLog.findMany({
      where: { as400_transmission_id: id },
      orderBy: { id: "asc" },
      take,
      select: { id: true, order_increment_id: true, tracking_number: true, status: true },
    }),
    file.reply_to_id ? prisma.transmission.findUnique({ where: { id: file.reply_to_id }, select: { id: true, file_name: true } }) : Promise.resolve(null),
    prisma.transmission.findMany({
      where: { reply_to_id: id },
      orderBy: { id: "asc" },
      take,
      select: { id: true, file_name: true, transaction_set: true, partner: true },
    }),
  ]);
  return {
    requests,
    responses,
    cancellations,
    logs: logs.map(({ message_code, message: text, created_at, ...log }) => ({
      ...log,
      created_at: iso(created_at),
      message: storedForReader(message_code, text),
    })),
    realtime_sales: sales,
    realtime_shipping: shipping,
    reply_to: replyTo,
    replies,
  };
}

/** GET /api/file/{id} and /file/{id}: the file's header, the records naming it and one page of its content. */
export async function fileView(key: FileKey, page: number) {
  const file = await loadFile(key);
  const [links, content] = await Promise.all([recordsNaming(file), Promise.resolve(fileContentPage(file, page))]);
  const { content: _bytes, ...header } = file;
  void _bytes;
  const errorIndex = file.error_segment ? Number(/^\s*(\d+)/.exec(file.error_segment)?.[1] ?? NaN) : NaN;
  return {
    file: { ...header, error_segment_index: Number.isFinite(errorIndex) ? errorIndex : null, download: `/api/file/${file.key}/download` },
    links,
    content,
    links_cap: FILE_LINKS_CAP,
  };
}

export type FileView = Awaited<ReturnType<typeof fileView>>;

/** A name safe in a Content-Disposition header: the stored name's last part, only letters, digits, dot, dash and underscore. */
export function safeFileName(name: string, fallback: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const safe = base.replace(/[^\w.-]+/g, "_").replace(/^\.+/, "");
  return safe.slice(0, 200) || fallback;
}

/** GET /api/file/{id}/download: the bytes as stored. */
export async function fileDownload(key: FileKey): Promise<Response> {
  const file = await loadFile(key);
  const name = safeFileName(file.file_name, `file-${file.key}`);
  const bytes = Buffer.from(file.content);
  return new Response(bytes, {
    headers: {
      "content-type": "application/octet-stream",
      "content-disposition": `attachment; filename="${name}"`,
      "content-length": String(bytes.byteLength),
      "x-content-type-options": "nosniff",
      "cache-control": "no-store",
    },
  });
}
