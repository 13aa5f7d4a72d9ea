// Feed Summary and Feed Logs (spec 001 §2, §7): the grids behind /feed and
// /feed/item and their API twins, and the one way a feed's cron is changed
// (refused when node-cron could not run it; the schedulers hear of a saved
// change through PostgreSQL NOTIFY, docs/decisions.md D28).
import { z } from "zod";
import prisma from "~/db.server";
import { defineGrid, optionsFrom, runGrid, type CodedGridAnswer, type GridSource } from "~/grid/grid.server";
import { isMessage, joined, message, plainText, ReaderJson, ReaderText, type RunMessage } from "~/i18n/messages";
import type { GridRow } from "~/grid/types";
import { coded, NotFoundError } from "~/lib/validation.server";
import { validateCron } from "./cron";
import { FEEDS_CHANGED_CHANNEL } from "./changes";

export const FEED_LOG_TYPES = ["starting", "finished", "failed", "skipped"] as const;
export type FeedLogType = (typeof FEED_LOG_TYPES)[number];

type Where = Record<string, unknown>;
type OrderBy = Record<string, "asc" | "desc">;

// Never-run feeds (no date yet) go to the end whichever way a date column is
// sorted. Rows carry `enabled` too: the page marks feeds that are not scheduled.
const feedSource: GridSource = {
  findMany: (args) =>
    prisma.feed.findMany({
      ...args,
      select: { ...args.select, enabled: true },
      orderBy: args.orderBy?.map((order) =>
        Object.fromEntries(Object.entries(order as OrderBy).map(([field, dir]) => [field, field.startsWith("last_") ? { sort: dir, nulls: "last" } : dir])),
      ),
    } as Parameters<typeof prisma.feed.findMany>[0]) as never,
  count: (args) => prisma.feed.count(args as Parameters<typeof prisma.feed.count>[0]),
};

/** Feed Summary (spec 001 §2): last_started_at descending; Name filter. */
export const feedGrid = defineGrid({
  id: "feed",
  rowLink: { path: "/feed/edit?id={id}" },
  rowKey: "id",
  defaultSort: { key: "last_started_at", dir: "desc" },
  source: () => feedSource,
  columns: [
    { key: "id", label: "feeds.columns.id", dataType: "text", valueType: "int", filter: "none", searchable: false },
    { key: "name", label: "feeds.columns.name", dataType: "text" },
    { key: "cron_expression", label: "feeds.columns.cron_expression", dataType: "text", filter: "none", searchable: false },
    { key: "last_started_at", label: "feeds.columns.last_started_at", dataType: "datetime" },
    { key: "last_finished_at", label: "feeds.columns.last_finished_at", dataType: "datetime" },
    { key: "last_failed_at", label: "feeds.columns.last_failed_at", dataType: "datetime" },
    { key: "last_skipped_at", label: "feeds.columns.last_skipped_at", dataType: "datetime" },
    {
      key: "actions",
      label: "feeds.columns.actions",
      dataType: "links",
      field: null,
      // Run Feed is a button (POST /api/feed_run answers JSON), drawn by the page.
      links: [{ path: "/feed/item", field: "name", field_request_name: "feed_name", label: "feeds.view_logs", target: "_self" }],
    },
  ],
});

// --- Feed Logs -------------------------------------------------------------------------------

/**
 * Every feed name that has logs, by a loose index scan of (feed_name, …): one
 * index probe per name, milliseconds at millions of logs.
 */
async function loggedFeedNames(): Promise<string[]> {
  const rows = await prisma.$queryRaw<Array<{ name: string }>>`
    WITH RECURSIVE names(name) AS (
      (SELECT feed_name FROM feed_log ORDER BY feed_name LIMIT 1)
      UNION ALL
      SELECT (SELECT feed_name FROM feed_log WHERE feed_name > names.name ORDER BY feed_name LIMIT 1)
        FROM names WHERE names.name IS NOT NULL
    )
    SELECT name FROM names WHERE name IS NOT NULL`;
  return rows.map((row) => row.name);
}

/**
 * The grid's "feed name contains x, any case" would read every log. The names
 * are few: pick those that contain x, then ask the logs for those names
 * exactly, which the (feed_name, …) indexes answer.
 */
async function resolveFeedNameFilters(where: Where): Promise<Where> {
  let names: string[] | undefined;
  const visit = async (node: unknown): Promise<unknown> => {
    if (Array.isArray(node)) return Promise.all(node.map(visit));
    // A date range's bounds are Dates: values, not conditions to look into.
    if (!node || typeof node !== "object" || node instanceof Date) return node;
    const out: Where = {};
    for (const [key, value] of Object.entries(node)) {
      const contains = key === "feed_name" && value && typeof value === "object" ? (value as { contains?: string }).contains : undefined;
      if (typeof contains === "string") {
        names ??= await loggedFeedNames();
        const needle = contains.toLowerCase();
        out[key] = { in: names.filter((name) => name.toLowerCase().includes(needle)) };
      } else {
        out[key] = await visit(value);
      }
    }
    return out;
  };
  return (await visit(where)) as Where;
}

/** Counts above this are kept (see countFeedLogs); smaller ones are cheap to count every time. */
export const COUNT_KEPT_ABOVE = 10_000;
/** A kept count is used for this long at most, so that deleted logs show within it. */
const COUNT_KEPT_MS = 5 * 60_000;
/** Ids this close to the newest are always counted again: a log written in a transaction that commits late may take one. */
const RECOUNT_MARGIN_IDS = 1000;

const keptCounts = new Map<string, { upToId: number; count: number; at: number }>();

const countLogs = (where: Where) => prisma.feedLog.count({ where } as Parameters<typeof prisma.feedLog.count>[0]);

/**
 * The footer's exact total. Logs are only ever added (their feed name and type
 * never change), so a large count is kept as "n logs up to id X" and later
 * totals count only the logs after X: a few milliseconds instead of a scan of
 * millions of index entries on every page. Deleted logs (a clean-up) show
 * within COUNT_KEPT_MS. Kept per process, for at most 200 filters.
 */
async function countFeedLogs(where: Where): Promise<number> {
  const key = JSON.stringify(where);
  const kept = keptCounts.get(key);
  if (kept && Date.now() - kept.at < COUNT_KEPT_MS) {
    return kept.count + (await countLogs({ AND: [where, { id: { gt: kept.upToId } }] }));
  }
  // Not aggregate({ _max }): Prisma wraps it in a subquery that reads every row.
  const newest = await prisma.feedLog.findFirst({ orderBy: { id: "desc" }, select: { id: true } });
  const upToId = Math.max(0, (newest?.id ?? 0) - RECOUNT_MARGIN_IDS);
  const at = Date.now();
  const [below, after] = await Promise.all([countLogs({ AND: [where, { id: { lte: upToId } }] }), countLogs({ AND: [where, { id: { gt: upToId } }] })]);
  if (below > COUNT_KEPT_ABOVE) {
    keptCounts.delete(key);
    keptCounts.set(key, { upToId, count: below, at });
    if (keptCounts.size > 200) keptCounts.delete(keptCounts.keys().next().value as string);
  }
  return below + after;
}

const feedLogSource: GridSource = {
  findMany: async (args) =>
    prisma.feedLog.findMany({ ...args, where: await resolveFeedNameFilters(args.where) } as Parameters<typeof prisma.feedLog.findMany>[0]) as never,
  count: async (args) => countFeedLogs(await resolveFeedNameFilters(args.where)),
};

/** Feed Logs (spec 001 §2): created_at descending; filters feed name (text) and type. */
export const feedLogGrid = defineGrid({
  id: "feed_item",
  rowKey: "id",
  defaultSort: { key: "created_at", dir: "desc" },
  source: () => feedLogSource,
  columns: [
    { key: "id", label: "feeds.log_columns.id", dataType: "text", valueType: "int", filter: "none", searchable: false },
    { key: "feed_name", label: "feeds.log_columns.feed_name", dataType: "text" },
    { key: "type", label: "feeds.log_columns.type", dataType: "select", options: optionsFrom(FEED_LOG_TYPES, "feeds.types") },
    { key: "meta", label: "feeds.log_columns.meta", dataType: "textOnly", filter: "none", sortable: false, searchable: false },
    { key: "created_at", label: "feeds.log_columns.created_at", dataType: "datetime", filter: "date_range" },
    { key: "updated_at", label: "feeds.log_columns.updated_at", dataType: "datetime" },
  ],
});

/** The spec's flat answer (data, last_page, total at the top level) plus the columns. */
function flat(answer: CodedGridAnswer) {
  return { ...answer.data, columns: answer.columns };
}

/** The /feed loader's grid answer. */
export function feedGridAnswer(params: URLSearchParams) {
  return runGrid(feedGrid, params);
}

/** GET /api/feed: data, last_page, total at the top level (spec 001 §7). */
export async function listFeeds(params: URLSearchParams) {
  return flat(await feedGridAnswer(params));
}

/** The run's words in a feed log's meta: its message, error, reason and problems, one after another; null when it has none. */
function metaWords(readable: Record<string, unknown>): ReaderText | null {
  // Coded words in the reader's language; older logs' plain text as it was written.
  const word = (value: unknown): RunMessage | null =>
    value instanceof ReaderText ? value.message : typeof value === "string" && value.trim() ? plainText(value) : null;
  const words = ["message", "error", "reason"].map((key) => word(readable[key]));
  if (Array.isArray(readable.problems)) words.push(...readable.problems.map(word));
  const found = words.filter((value): value is RunMessage => value !== null);
  return found.length ? new ReaderText(joined(found, " — ")) : null;
}

/**
 * Feed log rows as the grid answers them: `meta` the JSON text of spec 001 (its messages the reader's,
 * D136), and `meta_text` the run's words in the reader's language, which the Meta cell shows first (D267).
 */
export function feedLogRows(rows: GridRow[]): GridRow[] {
  return rows.map((row) => {
    const readable = readableMeta(row.meta);
    return { ...row, meta: new ReaderJson(readable), meta_text: metaWords(readable) };
  });
}

/** Feed log rows in a CSV: Meta is the run's words, or the JSON text when it has none. */
export function feedLogCsvRows(rows: GridRow[]): GridRow[] {
  return rows.map((row) => {
    const readable = readableMeta(row.meta);
    return { ...row, meta: metaWords(readable) ?? new ReaderJson(readable) };
  });
}

/** The /feed/item loader's grid answer: meta as the run's words (feedLogRows). */
export async function feedLogGridAnswer(params: URLSearchParams): Promise<CodedGridAnswer> {
  const answer = await runGrid(feedLogGrid, params);
  answer.data.data = feedLogRows(answer.data.data);
  return answer;
}

/**
 * A feed log's meta as staff read it (D114): `message`, `problems`, `error` and
 * `reason` from their codes (`message_code`, `problem_codes`, `error_code`,
 * `reason_code`) when the run stored them, as ReaderTexts the edge renders in
 * the reader's language (D136), and the codes left out; older logs show as
 * they were written.
 */
export function readableMeta(meta: unknown): Record<string, unknown> {
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) return {};
  const { message_code: messageCode, problem_codes: problemCodes, error_code: errorCode, reason_code: reasonCode, ...rest } = meta as Record<string, unknown>;
  if (isMessage(messageCode)) rest.message = new ReaderText(messageCode);
  if (isMessage(errorCode)) rest.error = new ReaderText(errorCode);
  if (isMessage(reasonCode)) rest.reason = new ReaderText(reasonCode);
  if (Array.isArray(problemCodes) && problemCodes.every(isMessage)) rest.problems = problemCodes.map((code) => new ReaderText(code));
  return rest;
}

/** GET /api/feed_item: data, last_page, total at the top level (spec 001 §7). */
export async function listFeedLogs(params: URLSearchParams) {
  return flat(await feedLogGridAnswer(params));
}

// --- the cron of a feed ------------------------------------------------------------------------

export interface FeedForm {
  id: number;
  name: string;
  cron_expression: string;
  enabled: number;
}

export async function findFeed(id: number) {
  const feed = Number.isSafeInteger(id) && id > 0 ? await prisma.feed.findUnique({ where: { id } }) : null;
  if (!feed) throw new NotFoundError(`Feed ${id} does not exist`);
  return feed;
}

export async function getFeedForm(id: number): Promise<FeedForm> {
  const feed = await findFeed(id);
  return { id: feed.id, name: feed.name, cron_expression: feed.cron_expression, enabled: feed.enabled };
}

/** The feed form: a cron expression node-cron would run (said why not, field by field), and whether it is scheduled. */
export const feedForm = z.object({
  cron_expression: z
    .string({ message: "feeds.edit.cron_required" })
    .transform((value) => value.trim().replace(/\s+/g, " "))
    .superRefine((value, context) => {
      const problem = validateCron(value);
      if (problem) context.addIssue({ code: "custom", message: coded("feeds.edit.cron_invalid", { detail: problem }) });
    }),
  enabled: z
    .union([z.literal("1"), z.literal("0"), z.literal(1), z.literal(0), z.boolean()], { message: "errors.input.yes_no" })
    .transform((value) => (value === true || value === 1 || value === "1" ? 1 : 0))
    .optional(),
});
export type FeedInput = z.infer<typeof feedForm>;

/**
 * Saves a feed's cron (and, when sent, whether it is scheduled). An expression
 * node-cron would not run is refused field by field. The change and its NOTIFY
 * are one transaction: every scheduler listening reloads once it is committed.
 */
export async function updateFeed(feed: { id: number; name: string }, input: FeedInput) {
  const data = { cron_expression: input.cron_expression, ...(input.enabled === undefined ? {} : { enabled: input.enabled }) };
  const [saved] = await prisma.$transaction([
    prisma.feed.update({ where: { id: feed.id }, data }),
    prisma.$executeRaw`SELECT pg_notify(${FEEDS_CHANGED_CHANNEL}, ${feed.name})`,
  ]);
  return {
    error: false,
    message: message("feeds.edit.saved"),
    feed: { id: saved.id, name: saved.name, cron_expression: saved.cron_expression, enabled: saved.enabled },
  };
}
