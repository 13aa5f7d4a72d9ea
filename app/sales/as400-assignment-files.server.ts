// The two files of the sales area exchanged with the AS400 (docs/as400-files.md,
// docs/decisions.md D23):
// - Generate Auto-Assignments File: computes each open order's eligibility
//   (2 Yes, 1 No; 0 until computed) and writes the eligible orders' items left
//   to assign as a CSV into AUTO_ASSIGNMENT_FOLDER. The file is stored
//   (transmission, partner as400, direction out) before it is uploaded.
// - Retrieve New Assignments From AS400 (feed assignment_import): every CSV in
//   ASSIGNMENT_IMPORT_FOLDER is stored whole with its sha256 before anything
//   else, then archived remotely; then each stored file is applied in one
//   transaction: every valid line becomes an assignment, every bad line is
//   reported, and a failure of the database applies nothing of the file.
import { createHash } from "node:crypto";
import prisma from "~/db.server";
import { as400ConnectionSettings, withAs400Transport } from "~/as400/connection.server";
import type { FeedOutcome, FeedRunContext } from "~/feeds/runner.server";
import { errorRunMessage } from "~/runs/error-messages.server";
import { message } from "~/runs/messages";
import { englishText } from "~/i18n/english.server";
import { plainText, ReaderText, type CodedMessage, type RunMessage } from "~/i18n/messages";
import { applyReceivedInboundFiles, fetchAs400Files, rowsNotApplied, type InboundFileKind } from "~/as400/inbound-files.server";
import { readHeaderedCsv } from "~/as400/headered-csv";
import { insertAssignments, planAssignments, withRetry, type AssignmentLine } from "./assignments.server";
import { ACTIVE_ASSIGNMENT, ASSIGN_STATUS, FINISHED_ORDER_STATUSES } from "./assignment-status.server";
import { LOCK_KEYS } from "~/db/lock-keys";
import { moveAssignedItems } from "./shopify-location.server";
import { errorMessage } from "~/lib/error-message";

export const AUTO_ASSIGNMENT_FOLDER = "/as400/auto-assignment";
export const ASSIGNMENT_IMPORT_FOLDER = "/as400/assignments";
export const AUTO_ASSIGNMENT_FILE_TYPE = "auto_assignment";
export const ASSIGNMENT_FILE_TYPE = "assignment";
const PARTNER = "as400";
const MAX_ATTEMPTS = 3;
/** The AS400's assignment files, as the shared AS400 inbound pipeline (app/as400) fetches and stores them. */
const ASSIGNMENT_FILES: InboundFileKind = {
  folder: ASSIGNMENT_IMPORT_FOLDER,
  partner: PARTNER,
  transactionSet: ASSIGNMENT_FILE_TYPE,
  storeLockNamespace: LOCK_KEYS.assignmentFile,
};

export const AUTO_ASSIGNMENT_COLUMNS = [
  "order_id",
  "shopify_order_id",
  "item_id",
  "sku",
  "qty_unassigned",
  "marketplace_source",
  "marketplace_order_id",
  "ship_name",
  "ship_street",
  "ship_city",
  "ship_region",
  "ship_postcode",
  "ship_country_id",
  "shipping_description",
  "created_at",
] as const;
export const ASSIGNMENT_FILE_COLUMNS = ["order_id", "item_id", "sku", "source_code", "qty", "form_number"] as const;
const REQUIRED_COLUMNS = ["order_id", "item_id", "source_code", "qty"];

const sha256 = (content: Buffer) => createHash("sha256").update(content).digest("hex");

function csvValue(value: unknown): string {
  const text = value === null || value === undefined ? "" : value instanceof Date ? value.toISOString() : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
export const csvLine = (values: unknown[]) => values.map(csvValue).join(",");

// ---------------------------------------------------------------------------
// Eligibility and the auto-assignments file

/**
 * Sets auto_assignment_eligible of every order with something left to assign:
 * 2 (Yes) when the order system has released it (processing), it ships to a
 * complete US address, and every item left to assign is a product the AS400
 * knows (the product table); 1 (No) otherwise.
 */
export async function computeEligibility(): Promise<{ yes: number; no: number }> {
  const rows = await prisma.$queryRaw<Array<{ eligible: number; count: number }>>`
    WITH open_orders AS (
      SELECT o.id,
             (o.magento_status = 'processing'
              AND COALESCE(btrim(o.ship_street), '') <> '' AND COALESCE(btrim(o.ship_city), '') <> ''
              AND COALESCE(btrim(o.ship_region), '') <> '' AND COALESCE(btrim(o.ship_postcode), '') <> ''
              AND upper(COALESCE(o.ship_country_id, '')) = 'US'
              AND NOT EXISTS (SELECT 1 FROM order_item i WHERE i.order_id = o.id
                                 AND NOT EXISTS (SELECT 1 FROM product p WHERE p.sku = i.sku))) AS yes
        FROM order_grid o
       WHERE o.total_assigned < o.total_shippable_qty_ordered
         AND COALESCE(o.magento_status, '') <> ALL(${[...FINISHED_ORDER_STATUSES]}::text[])
    ), updated AS (
      UPDATE order_grid o SET auto_assignment_eligible = CASE WHEN open_orders.yes THEN 2 ELSE 1 END
        FROM open_orders WHERE o.id = open_orders.id
      RETURNING o.auto_assignment_eligible
    )
    SELECT auto_assignment_eligible AS eligible, COUNT(*)::int AS count FROM updated GROUP BY auto_assignment_eligible`;
  return { yes: rows.find((row) => row.eligible === 2)?.count ?? 0, no: rows.find((row) => row.eligible === 1)?.count ?? 0 };
}

/** The lines of the auto-assignments file: each item left to assign of each eligible order. */
export async function autoAssignmentLines() {
  return prisma.$queryRaw<Array<Record<(typeof AUTO_ASSIGNMENT_COLUMNS)[number], unknown>>>`
    SELECT * FROM (
      SELECT o.order_id, o.shopify_order_id, i.item_id, i.sku,
             (GREATEST(0, i.qty_ordered - i.qty_refunded - i.qty_canceled)
               - COALESCE((SELECT SUM(a.qty_assigned) FROM assignment a WHERE a.item_id = i.item_id
                            AND ${ACTIVE_ASSIGNMENT}), 0))::int AS qty_unassigned,
             o.marketplace_source, o.marketplace_order_id, o.concat_ship_to_name AS ship_name, o.ship_street, o.ship_city,
             o.ship_region, o.ship_postcode, o.ship_country_id, o.shipping_description, o.created_at
        FROM order_grid o JOIN order_item i ON i.order_id = o.id AND i.is_shippable
       WHERE o.auto_assignment_eligible = 2
         AND o.total_assigned < o.total_shippable_qty_ordered
         AND COALESCE(o.magento_status, '') <> ALL(${[...FINISHED_ORDER_STATUSES]}::text[])
    ) lines
     WHERE qty_unassigned > 0
     ORDER BY order_id, item_id`;
}

function fileStamp(now: Date) {
  return now.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

/**
 * AUTO_ASSIGN_<stamp>.csv, or AUTO_ASSIGN_<stamp>_2.csv… when a file of ours already has that name
 * (two runs in one second): an upload never replaces a file on the AS400 (D196).
 */
async function unusedAutoAssignmentName(stamp: string): Promise<string> {
  const taken = await prisma.transmission.findMany({
    where: { partner: PARTNER, direction: "out", transaction_set: AUTO_ASSIGNMENT_FILE_TYPE, file_name: { startsWith: `AUTO_ASSIGN_${stamp}` } },
    select: { file_name: true },
  });
  const names = new Set(taken.map((file) => file.file_name));
  for (let n = 1; ; n++) {
    const name = n === 1 ? `AUTO_ASSIGN_${stamp}.csv` : `AUTO_ASSIGN_${stamp}_${n}.csv`;
    if (!names.has(name)) return name;
  }
}

/** Generate Auto-Assignments File (POST /api/generate_auto_assignment_file): the file made and sent; its message as a code (D96), kept by a background run. */
export async function autoAssignmentFileOutcome(now = new Date()) {
  const eligibility = await computeEligibility();
  const lines = await autoAssignmentLines();
  if (lines.length === 0) {
    return { error: false, message: message("sales.unassigned.nothing_eligible", { no: eligibility.no }), file_name: null, orders: 0, lines: 0, eligibility };
  }
  const content = Buffer.from(
    [csvLine([...AUTO_ASSIGNMENT_COLUMNS]), ...lines.map((line) => csvLine(AUTO_ASSIGNMENT_COLUMNS.map((column) => line[column])))].join("\r\n") + "\r\n",
  );
  const fileName = await unusedAutoAssignmentName(fileStamp(now));
  const stored = await prisma.transmission.create({
    data: {
      partner: PARTNER,
      direction: "out",
      file_name: fileName,
      remote_path: `${AUTO_ASSIGNMENT_FOLDER}/${fileName}`,
      transaction_set: AUTO_ASSIGNMENT_FILE_TYPE,
      transaction_control_numbers: [],
      content_hash: sha256(content),
      content: new Uint8Array(content),
      size: content.length,
      status: "prepared",
    },
    select: { id: true },
  });
  const orders = new Set(lines.map((line) => line.order_id)).size;
  const settings = as400ConnectionSettings();
  try {
    if (!settings) throw new Error("the AS400 is not configured (AS400_HOST)");
    await withAs400Transport(settings, async (transport) => {
      await transport.makeFolder(AUTO_ASSIGNMENT_FOLDER);
      await transport.upload(AUTO_ASSIGNMENT_FOLDER, fileName, content);
    });
  } catch (error) {
    await prisma.transmission.update({ where: { id: stored.id }, data: { status: "failed", error: errorMessage(error), attempts: { increment: 1 } } });
    // The reason in the reader's language (D117): the AS400's own words stay as data inside it.
    const reason = settings ? errorRunMessage(error) : message("transport.as400_not_configured");
    return {
      error: true,
      message: message("sales.unassigned.upload_failed", { file: fileName, reason }),
      file_name: fileName,
      orders,
      lines: lines.length,
      eligibility,
    };
  }
  await prisma.transmission.update({ where: { id: stored.id }, data: { status: "sent", attempts: { increment: 1 }, processed_at: new Date() } });
  return { error: false, message: message("sales.unassigned.generated"), file_name: fileName, orders, lines: lines.length, eligibility };
}

// ---------------------------------------------------------------------------
// Reading the AS400's assignment file

export interface AssignmentFileLine {
  line: number;
  orderId: string;
  itemId: number;
  sku?: string;
  sourceCode: string;
  qty: number;
  formNumber: string | null;
}

export class AssignmentFileError extends Error {}

/** Parses the file; lines that cannot be read are reported in `errors`, the others returned. */
export function readAssignmentFile(content: Buffer | string): { lines: AssignmentFileLine[]; errors: string[] } {
  const csv = readHeaderedCsv(content, {
    columns: ASSIGNMENT_FILE_COLUMNS,
    required: REQUIRED_COLUMNS,
    notThisKind: "not an assignment file",
    expectedHeader: "order_id, item_id, sku, source_code, qty, form_number",
    maxRecordSize: 0,
    refuse: (message) => new AssignmentFileError(message),
  });
  const lines: AssignmentFileLine[] = [];
  const errors: string[] = [];
  for (const row of csv.rows) {
    // This file's lines are numbered where the row ends.
    const { lastLine: line, cell } = row;
    if (row.valueCount > csv.headerNames.length) {
      errors.push(`line ${line}: ${row.valueCount} values but the header has ${csv.headerNames.length} columns`);
      continue;
    }
    const problems: string[] = [];
    const orderId = cell("order_id");
    const itemText = cell("item_id");
    const qtyText = cell("qty");
    const sourceCode = cell("source_code");
    if (!orderId) problems.push("order_id is empty");
    if (!/^\d{1,9}$/.test(itemText) || Number(itemText) < 1) problems.push(`item_id "${itemText.slice(0, 20)}" is not an item id`);
    if (!sourceCode) problems.push("source_code is empty");
    if (!/^\d{1,6}$/.test(qtyText) || Number(qtyText) < 1) problems.push(`qty "${qtyText.slice(0, 20)}" is not a whole number of 1 or more`);
    if (problems.length) {
      errors.push(`line ${line}: ${problems.join("; ")}`);
      continue;
    }
    const sku = cell("sku");
    lines.push({ line, orderId, itemId: Number(itemText), sku: sku || undefined, sourceCode, qty: Number(qtyText), formNumber: cell("form_number") || null });
  }
  return { lines, errors };
}

/** The button's answer, its words for the reader: `apiRoute` renders them in the request's language (D137). */
export interface AssignmentImportResult {
  error: boolean;
  message: CodedMessage;
  error_messages: ReaderText[];
  files: number;
  created: number;
}

/** An import: the button's answer (`error_messages` for the reader) and its problems as codes, for the feed log (D116). */
export interface AssignmentImport {
  answer: AssignmentImportResult;
  problems: RunMessage[];
}

/** Applies one parsed file in one transaction: the valid lines become assignments. */
export async function applyAssignmentLines(lines: AssignmentFileLine[]) {
  return withRetry(() =>
    prisma.$transaction(
      async (tx) => {
        const input: AssignmentLine[] = lines.map((line) => ({
          key: `line ${line.line}`,
          orderId: line.orderId,
          itemId: line.itemId,
          storeId: line.sourceCode,
          qty: line.qty,
          sku: line.sku,
          formNumber: line.formNumber,
        }));
        const { planned, problems } = await planAssignments(tx, input);
        // The AS400 has already told a store; a dropshipper's still needs its 850 (the drop-ship flow sends Pending ones).
        const ids = await insertAssignments(tx, planned, (plan) => (plan.source.type === "dropshipper" ? ASSIGN_STATUS.pending : ASSIGN_STATUS.sent));
        return {
          ids,
          // The transmission's note is stored text, in English (D114); the log keeps the codes.
          problems: problems.map((problem) => `${problem.key}: ${englishText(problem.problem)}`),
          problemCodes: problems.map((problem) => ({ key: problem.key, code: problem.problem })),
        };
      },
      { maxWait: 10_000, timeout: 300_000 },
    ),
  );
}

/**
 * The assignment_import feed's work: fetch, store, archive, apply. The
 * problems come back as codes (D116), for the feed log, and as ReaderTexts in
 * `error_messages`, for the button's answer (rendered at the edge, D137).
 */
export async function importAssignmentFiles(context?: FeedRunContext, options: { moveWaitMs?: number } = {}): Promise<AssignmentImport> {
  const problems: RunMessage[] = [];
  const fetched = await fetchAs400Files(ASSIGNMENT_FILES, {
    signal: context?.signal,
    // This feed's messages are sentences.
    problem: (problem) => problems.push(message("logs.assignments.sentence", { text: problem })),
  });
  if (fetched === "not_configured") problems.push(message("logs.assignments.not_configured"));
  else if (fetched !== "fetched") problems.push(message("logs.assignments.folder_unreadable", { folder: ASSIGNMENT_IMPORT_FOLDER, error: fetched.error }));
  let created = 0;
  const createdIds: number[] = [];
  let fileFailed = false;
  // The lines apply in their own transactions, then the file is marked.
  const files = await applyReceivedInboundFiles(ASSIGNMENT_FILES, {
    read: readAssignmentFile,
    Refusal: AssignmentFileError,
    apply: async (_db, parsed) => {
      const applied = await applyAssignmentLines(parsed.lines);
      const bad = [...parsed.errors, ...applied.problems].sort((a, b) => lineNumber(a) - lineNumber(b));
      return { applied, note: rowsNotApplied(bad, "line") };
    },
    oneTransaction: false,
    maxAttempts: MAX_ATTEMPTS,
    signal: context?.signal,
    each: (outcome) => {
      if (outcome.status !== "applied") {
        fileFailed = true;
        problems.push(outcome.problem);
        return;
      }
      const { file: parsed, applied } = outcome;
      created += applied.ids.length;
      createdIds.push(...applied.ids);
      // The reader's row errors are data (D115); a rule's problem is a code, after its line.
      const coded = [
        ...parsed.errors.map((text) => ({ line: lineNumber(text), code: plainText(text) })),
        ...applied.problemCodes.map((problem) => ({
          line: lineNumber(problem.key),
          code: message("logs.assignments.line_problem", { line: lineNumber(problem.key), problem: problem.code }),
        })),
      ].sort((a, b) => a.line - b.line);
      problems.push(...coded.map(({ code }) => message("logs.assignments.file_line", { file: outcome.fileName, problem: code })));
    },
  });
  // Once every file is applied and marked: the new assignments' lines go to their sources' Shopify locations (D169).
  // A staff member's button waits a bounded time (options.moveWaitMs); the scheduled feed waits for them.
  await moveAssignedItems(createdIds, { waitMs: options.moveWaitMs });
  const error = fetched !== "fetched" || fileFailed;
  let summary: CodedMessage;
  if (error) summary = message("sales.in_progress.import_error");
  else if (files === 0) summary = message("sales.in_progress.no_new_files");
  else summary = message("sales.in_progress.imported");
  return { answer: { error, message: summary, error_messages: problems.map((problem) => new ReaderText(problem)), files, created }, problems };
}

const lineNumber = (message: string) => Number(/^line (\d+)/.exec(message)?.[1] ?? 0);

/** The feed's outcome of an import (feed logs keep the problems). */
export function importFeedOutcome({ answer: result, problems: all }: AssignmentImport): FeedOutcome {
  const problems = all.slice(0, 50);
  const count = result.error_messages.length;
  const params = {
    files: message("logs.n.assignment_file", { count: result.files }),
    created: message("logs.n.assignment", { count: result.created }),
    problems: message("logs.n.problem", { count }),
  };
  const coded = message(count ? "logs.assignments.summary_problems" : "logs.assignments.summary", params);
  return {
    message: englishText(coded),
    messageCode: coded,
    error: result.error || count > 0,
    meta: { files: result.files, created: result.created, problems: problems.map(englishText), ...(problems.length ? { problem_codes: problems } : {}) },
  };
}
