// Every call the Shopify module makes is kept as a product API operation, and
// every failure also as a product API error (spec 001 §2, Products area), with
// short summaries of what was sent and answered. Recording must never slow or
// break a call: rows are queued in memory and written in batches (one INSERT
// per table for up to RECORD_BATCH calls, at most RECORD_FLUSH_MS after the
// call), and a write that fails is logged and dropped. The drop-ship flow makes
// two Shopify calls per fulfilment, ten thousand fulfilments a run at volume
// (bench/dropship): one round trip per call would add 20,000 inserts; batched
// it is about 100. Rows older than the retention are deleted as the log grows
// (decision D38).
import prisma from "~/db.server";
import { Prisma } from "~/db/generated/client";
import { logger } from "~/observability/logger.server";

const log = logger("shopify");

/** Characters of JSON kept of a request or an answer; longer ones are cut (see summarise). */
export const SUMMARY_CHARS = 2000;
const MESSAGE_CHARS = 1000;
export const RECORD_BATCH = 200;
export const RECORD_FLUSH_MS = 250;
/** Beyond this many waiting rows (the database is away), the oldest are dropped rather than filling memory. */
const MAX_WAITING = 20_000;

/** How long records are kept (D38). */
export const OPERATION_RETENTION_DAYS = 30;
export const ERROR_RETENTION_DAYS = 90;
const PRUNE_EVERY_MS = 60 * 60_000;
const PRUNE_BATCH = 10_000;

export interface ShopifyCallRecord {
  operation: string;
  sku?: string | null;
  /** False for a transport or GraphQL failure, or an answer carrying userErrors. */
  ok: boolean;
  /** Why it failed. */
  message?: string | null;
  variables: unknown;
  /** What came back: data, errors or userErrors. */
  answer: unknown;
  at: Date;
  durationMs: number;
  /** Times it was sent: more than one when Shopify throttled it (D46). */
  attempts?: number;
}

/**
 * JSON text that PostgreSQL's jsonb takes, at most about SUMMARY_CHARS long:
 * the value's own JSON when short, else `{ truncated: true, chars, text }` with
 * the start of it. jsonb refuses the NUL character, so it is replaced.
 */
export function summaryJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return '{"unserialisable":true}';
  }
  if (text === undefined) return "null";
  text = text.replace(/\\u0000/g, "\\ufffd");
  if (text.length <= SUMMARY_CHARS) return text;
  // Never cut between the two halves of a character (an emoji): jsonb refuses half of one.
  const end = isHighSurrogate(text.charCodeAt(SUMMARY_CHARS - 1)) ? SUMMARY_CHARS - 1 : SUMMARY_CHARS;
  return JSON.stringify({ truncated: true, chars: text.length, text: text.slice(0, end) });
}

/** The messages of userErrors in any mutation's answer (`{ tagsAdd: { userErrors: [...] } }`), or null. */
export function userErrorsIn(data: unknown): string | null {
  try {
    return userErrorMessages(data);
  } catch {
    return null; // never let the records break a call
  }
}

function userErrorMessages(data: unknown): string | null {
  if (!data || typeof data !== "object") return null;
  const messages: string[] = [];
  for (const value of Object.values(data as Record<string, unknown>)) {
    const errors = (value as { userErrors?: unknown } | null)?.userErrors;
    if (!Array.isArray(errors)) continue;
    for (const error of errors) messages.push(String((error as { message?: unknown })?.message ?? JSON.stringify(error)));
  }
  return messages.length ? messages.join("; ") : null;
}

/** A row as the JSON text of one object: rows are inserted by PostgreSQL from a JSON array (writeRecords). */
type RowJson = string;

interface RecordQueue {
  operations: RowJson[];
  errors: RowJson[];
  timer: ReturnType<typeof setTimeout> | null;
  writing: Promise<void>;
  lastPrune: number;
  dropped: number;
}

declare global {
  // One queue per process: the Remix build and server/main.ts (scheduler, shutdown) load this module separately.
  var __shopifyCallRecords: RecordQueue | undefined;
}
const queue: RecordQueue = (globalThis.__shopifyCallRecords ??= {
  operations: [],
  errors: [],
  timer: null,
  writing: Promise.resolve(),
  lastPrune: 0,
  dropped: 0,
});

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, isHighSurrogate(text.charCodeAt(max - 2)) ? max - 2 : max - 1)}…` : text);

/** Queues one call's rows; never throws. */
export function recordShopifyCall(call: ShopifyCallRecord): void {
  try {
    // The summaries go into the row as JSON text: serialised once, never parsed again here.
    const request = summaryJson({ variables: call.variables });
    const response = summaryJson({
      duration_ms: Math.round(call.durationMs),
      ...(call.attempts && call.attempts > 1 ? { attempts: call.attempts } : {}),
      answer: call.answer,
    });
    const common = (
      `"operation":${JSON.stringify(call.operation)},"sku":${JSON.stringify(call.sku ? cut(call.sku, 255) : null)},` +
      `"created_at":${JSON.stringify(call.at.toISOString())}`
    ).replace(/\\u0000/g, "\\ufffd");
    queue.operations.push(`{${common},"status":"${call.ok ? "success" : "error"}","request":${request},"response":${response}}`);
    if (!call.ok) {
      const message = JSON.stringify(cut(call.message?.trim() || "Shopify call failed", MESSAGE_CHARS)).replace(/\\u0000/g, "\\ufffd");
      queue.errors.push(`{${common},"message":${message},"payload":{"request":${request},"response":${response}}}`);
    }
    if (queue.operations.length > MAX_WAITING) {
      queue.dropped += queue.operations.length - MAX_WAITING;
      queue.operations = queue.operations.slice(-MAX_WAITING);
      queue.errors = queue.errors.slice(-MAX_WAITING);
    }
    if (queue.operations.length >= RECORD_BATCH) void flushShopifyCallRecords();
    else if (!queue.timer) {
      queue.timer = setTimeout(() => void flushShopifyCallRecords(), RECORD_FLUSH_MS);
      queue.timer.unref?.();
    }
  } catch (error) {
    log.warn(`could not record ${call.operation}: ${(error as Error).message}`);
  }
}

/** Writes what is queued (jobs call it at their end, the server before it stops); never throws. */
export function flushShopifyCallRecords(): Promise<void> {
  if (queue.timer) clearTimeout(queue.timer);
  queue.timer = null;
  const { operations, errors } = queue;
  queue.operations = [];
  queue.errors = [];
  // One write at a time, in order: an error row never lands before the rows queued ahead of it.
  queue.writing = queue.writing.then(() => (operations.length ? writeRecords(operations, errors) : undefined));
  return queue.writing;
}

async function writeRecords(operations: RowJson[], errors: RowJson[]): Promise<void> {
  if (queue.dropped) {
    log.warn(`${queue.dropped} Shopify call records dropped: the database did not take them in time`);
    queue.dropped = 0;
  }
  const written = (await insertTable("operation", operations)) + (await insertTable("error", errors));
  if (written === 0) return;
  if (Date.now() - queue.lastPrune > PRUNE_EVERY_MS) {
    queue.lastPrune = Date.now();
    await pruneShopifyCallRecords().catch((error) => log.warn(`pruning call records failed: ${(error as Error).message}`));
  }
}

/**
 * Inserts rows with one statement and one parameter, a fraction of the CPU of
 * Prisma's createMany (D38). When PostgreSQL refuses the batch but answers, one
 * bad row must not lose the others: they are tried one by one. When it does
 * not answer, the batch is dropped. Returns the rows written.
 */
async function insertTable(table: "operation" | "error", rows: RowJson[]): Promise<number> {
  if (rows.length === 0) return 0;
  const insert = (batch: RowJson[]) => {
    const json = `[${batch.join(",")}]`;
    return table === "operation"
      ? prisma.$executeRaw`
          INSERT INTO product_api_operation (operation, sku, status, request, response, created_at)
          SELECT operation, sku, status, request, response, created_at
            FROM jsonb_to_recordset(${json}::jsonb)
              AS r(operation text, sku text, status text, request jsonb, response jsonb, created_at timestamptz)`
      : prisma.$executeRaw`
          INSERT INTO product_api_error (operation, sku, message, payload, created_at)
          SELECT operation, sku, message, payload, created_at
            FROM jsonb_to_recordset(${json}::jsonb)
              AS r(operation text, sku text, message text, payload jsonb, created_at timestamptz)`;
  };
  try {
    return await insert(rows);
  } catch (error) {
    const reason = (error as Error).message;
    const answering =
      rows.length > 1 &&
      (await prisma.$queryRaw`SELECT 1`.then(
        () => true,
        () => false,
      ));
    let written = 0;
    if (answering) for (const row of rows) written += await insert([row]).catch(() => 0);
    log.warn(`${rows.length - written} Shopify call ${table} records not written: ${reason}`);
    return written;
  }
}

/** Deletes operations and errors past their retention, a batch at a time (the created_at index finds them). */
export async function pruneShopifyCallRecords(now = new Date()): Promise<{ operations: number; errors: number }> {
  const day = 24 * 60 * 60_000;
  const operationsBefore = new Date(now.getTime() - OPERATION_RETENTION_DAYS * day);
  const errorsBefore = new Date(now.getTime() - ERROR_RETENTION_DAYS * day);
  return { operations: await pruneBefore("product_api_operation", operationsBefore), errors: await pruneBefore("product_api_error", errorsBefore) };
}

/** Deletes the table's rows created before `before`, PRUNE_BATCH at a time; how many it deleted. */
async function pruneBefore(table: "product_api_operation" | "product_api_error", before: Date): Promise<number> {
  const name = Prisma.raw(table);
  let total = 0;
  for (;;) {
    const deleted = await prisma.$executeRaw`
      DELETE FROM ${name} WHERE id IN (SELECT id FROM ${name} WHERE created_at < ${before} ORDER BY created_at LIMIT ${PRUNE_BATCH})`;
    total += deleted;
    if (deleted < PRUNE_BATCH) return total;
  }
}
