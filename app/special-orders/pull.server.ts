// The special-order pull (feed special_order_pull; Pull New Special Orders).
// The AS400 drops CSV files of store tickets into SPECIAL_ORDER_FOLDER on its
// exchange (AS400_* in env; docs/as400-files.md). Each run:
// 1. downloads every *.csv there and stores it whole, in one transaction: the
//    transmission (partner as400, content and sha256) and its special-order
//    log row (downloadable). Content stored before, under any name, is not
//    stored or imported again. Only then is the remote file archived.
// 2. imports each stored file not yet imported, in one transaction per file:
//    every ticket becomes a special order, pending when it passes the shared
//    rules (special-order-rules.ts), in error with an error row otherwise. A
//    ticket already known (same store and ticket number) is not imported again.
// 3. sends every pending order to Shopify (processing.server.ts): created, or
//    an error row when Shopify refuses; left pending when Shopify cannot be
//    reached. Each step picks up where a crashed run stopped.
import prisma from "~/db.server";
import type { Prisma } from "~/db/generated/client";
import { englishText } from "~/i18n/english.server";
import { message, plainText, withProblems, type RunMessage } from "~/i18n/messages";
import type { FeedOutcome, FeedRunContext } from "~/feeds/runner.server";
import { runFeed } from "~/feeds/runner.server";
import type { ShopifyAdmin } from "~/shopify/admin-client.server";
import { jobsShopifyAdmin } from "~/shopify/jobs-admin.server";
import { feedFetchHooks, fetchAs400Files, receivedInboundFileIds, type FetchInboundFilesHooks, type InboundFileKind } from "~/as400/inbound-files.server";
import { baseTotal, DEFAULT_SHIPPING_DESCRIPTION, processSpecialOrder, recordSpecialOrderError } from "./processing.server";
import { firstProblem, specialOrderProblems } from "./special-order-rules";
import { readSpecialOrderFile, SpecialOrderFileError, type SpecialOrderFile } from "./special-order-file.server";
import { LOCK_KEYS } from "~/db/lock-keys";
import { errorMessage } from "~/lib/error-message";

/** Where the AS400 puts its special-order files, next to /as400/order-status, /as400/invoices and /as400/inventory. */
export const SPECIAL_ORDER_FOLDER = "/as400/special-orders";
export const SPECIAL_ORDER_FILE_TYPE = "special_order";
export const SPECIAL_ORDER_PARTNER = "as400";
export const SPECIAL_ORDER_FEED = "special_order_pull";
export const SPECIAL_ORDER_FEED_CRON = "*/30 * * * *";

/** The special-order files, as the shared AS400 inbound pipeline (app/as400) fetches and stores them. */
const SPECIAL_ORDER_FILES: InboundFileKind = {
  folder: SPECIAL_ORDER_FOLDER,
  partner: SPECIAL_ORDER_PARTNER,
  transactionSet: SPECIAL_ORDER_FILE_TYPE,
  storeLockNamespace: LOCK_KEYS.specialOrderFile,
};
/** A stored file the database would not take is tried this many times, then set aside as failed. */
const MAX_IMPORT_ATTEMPTS = 3;

class Report {
  readonly counts: Record<string, number> = {};
  /** In English (the shared AS400 fetch pushes its own here as text). */
  readonly problems: string[] = [];
  /** The problems written as codes, by their index in `problems` (D114). */
  private readonly codes = new Map<number, RunMessage>();
  count(key: string, by = 1) {
    this.counts[key] = (this.counts[key] ?? 0) + by;
  }
  problem(coded: RunMessage) {
    this.codes.set(this.problems.push(englishText(coded)) - 1, coded);
  }
  problemCodes(): RunMessage[] {
    return this.problems.map((text, i) => this.codes.get(i) ?? plainText(text));
  }
}

/** A special-order log's summary: English text and its code (D114). */
const summaryOf = (coded: RunMessage) => ({ summary: englishText(coded).slice(0, 2000), summary_code: coded as Prisma.InputJsonValue });

export interface PullOptions {
  /** The Shopify client; by default the jobs' one (stand-in in local mode, the offline session embedded). */
  admin?: ShopifyAdmin;
}

/** The special_order_pull feed's job. */
export async function pullSpecialOrders(context?: FeedRunContext, options: PullOptions = {}): Promise<FeedOutcome> {
  const report = new Report();
  const fetched = await fetchAs400Files(SPECIAL_ORDER_FILES, fetchHooks(report, context));
  if (fetched === "not_configured") report.problem(message("logs.special_orders.not_configured"));
  else if (fetched !== "fetched") report.problem(message("logs.special_orders.folder_unreadable", { folder: SPECIAL_ORDER_FOLDER, error: fetched.error }));
  await importStoredFiles(report, context);
  await sendPendingOrders(report, options.admin, context);
  return outcome(report);
}

/** Pull New Special Orders: the feed, now (skipped when it is already running), answered as spec 001 §7 says: error, msg. */
export async function pullSpecialOrdersNow(): Promise<{ error: boolean; msg: string }> {
  const result = await runFeed(SPECIAL_ORDER_FEED, (context) => pullSpecialOrders(context), { trigger: "manual", defaultCron: SPECIAL_ORDER_FEED_CRON });
  return { error: result.error, msg: result.message };
}

// --- 1. fetch and store ------------------------------------------------------------------

function fetchHooks(report: Report, context?: FeedRunContext): FetchInboundFilesHooks {
  return {
    ...feedFetchHooks(report, context),
    // The log row (downloadable) is stored with the file, in the same transaction.
    storeAlongside: async (tx, file) => {
      await tx.specialOrderLog.create({
        data: {
          file_path: file.remotePath,
          content: new Uint8Array(file.content),
          transmission_id: file.transmissionId,
          ...summaryOf(message("logs.special_orders.received")),
        },
      });
    },
  };
}

// --- 2. import -----------------------------------------------------------------------------

async function importStoredFiles(report: Report, context?: FeedRunContext) {
  for (const id of await receivedInboundFileIds(SPECIAL_ORDER_FILES)) {
    if (context?.signal.aborted) return;
    try {
      await importStoredFile(id, report);
    } catch (error) {
      // The database, not the file: tried again at the next run, set aside after MAX_IMPORT_ATTEMPTS.
      const stored = await prisma.transmission.findUnique({ where: { id }, select: { attempts: true } }).catch(() => null);
      const attempts = (stored?.attempts ?? 0) + 1;
      const giveUp = attempts >= MAX_IMPORT_ATTEMPTS;
      const attempt = { attempt: attempts, max: MAX_IMPORT_ATTEMPTS, error: errorMessage(error) };
      await prisma
        .$transaction([
          prisma.transmission.update({
            where: { id },
            data: {
              attempts,
              error: `attempt ${attempts} of ${MAX_IMPORT_ATTEMPTS}: ${attempt.error}`,
              ...(giveUp ? { status: "failed", processed_at: new Date() } : {}),
            },
          }),
          prisma.specialOrderLog.updateMany({
            where: { transmission_id: id },
            data: summaryOf(message(giveUp ? "logs.special_orders.not_imported" : "logs.special_orders.import_failed", attempt)),
          }),
        ])
        .catch(() => undefined);
      if (giveUp) report.count("files_failed");
      report.problem(message("logs.special_orders.file_not_imported", { id, ...attempt }));
    }
    await context?.progress({ ...report.counts });
  }
}

async function importStoredFile(transmissionId: number, report: Report) {
  const stored = await prisma.transmission.findUniqueOrThrow({ where: { id: transmissionId }, select: { id: true, file_name: true, content: true } });
  let file: SpecialOrderFile;
  try {
    file = readSpecialOrderFile(Buffer.from(stored.content));
  } catch (error) {
    if (!(error instanceof SpecialOrderFileError)) throw error;
    await prisma.$transaction([
      prisma.transmission.update({
        where: { id: stored.id },
        data: { status: "failed", error: error.message, attempts: { increment: 1 }, processed_at: new Date() },
      }),
      prisma.specialOrderLog.updateMany({
        where: { transmission_id: stored.id },
        data: summaryOf(message("logs.special_orders.refused", { error: error.message })),
      }),
    ]);
    report.count("files_failed");
    report.problem(message("logs.special_orders.file_refused", { file: stored.file_name, error: error.message }));
    return;
  }

  const counts = await prisma.$transaction(
    async (tx) => {
      const log = await tx.specialOrderLog.findUnique({ where: { transmission_id: stored.id }, select: { id: true } });
      const tally = { pending: 0, error: 0, known: 0 };
      for (const ticket of file.tickets) {
        const { store_id, store_ticket } = ticket.fields;
        const known = await tx.specialOrder.findUnique({ where: { store_id_store_ticket: { store_id, store_ticket } }, select: { id: true } });
        if (known) {
          tally.known++;
          continue;
        }
        // As codes, so the error screen reads in the reader's language (D114).
        const problem = firstProblem(specialOrderProblems({ ...ticket.fields, items: ticket.items }, message));
        const shippingCost = Number(ticket.fields.shipping_cost);
        const name = ticket.fields.customer_name;
        const order = await tx.specialOrder.create({
          data: {
            store_id,
            store_ticket,
            employee_number: ticket.fields.employee_number || null,
            customer_name: name,
            customer_email: ticket.fields.customer_email || null,
            customer_phone: ticket.fields.customer_phone || null,
            customer_address_1: ticket.fields.customer_address_1 || null,
            customer_address_2: ticket.fields.customer_address_2 || null,
            customer_address_city: ticket.fields.customer_address_city || null,
            customer_address_state_code: ticket.fields.customer_address_state_code.toUpperCase() || null,
            customer_address_zip: ticket.fields.customer_address_zip || null,
            items: ticket.items as unknown as object,
            shipping_cost: Number.isFinite(shippingCost) && shippingCost >= 0 ? shippingCost : 0,
            bill_to_name: name || null,
            ship_to_name: name || null,
            grand_total_base: baseTotal(ticket.items, ticket.fields.shipping_cost),
            shipping_description: DEFAULT_SHIPPING_DESCRIPTION,
            status: "pending",
            log_id: log?.id ?? null,
          },
        });
        if (problem) {
          await recordSpecialOrderError(tx, order, problem);
          tally.error++;
        } else {
          tally.pending++;
        }
      }
      // The file's own row errors are data (the reader's words about the file's lines).
      const parts = [
        message("logs.special_orders.tickets", {
          tickets: message("logs.n.ticket", { count: file.tickets.length }),
          pending: tally.pending,
          errors: message("logs.n.error", { count: tally.error }),
        }),
        ...(tally.known ? [message("logs.special_orders.known_before", { tickets: message("logs.n.ticket", { count: tally.known }) })] : []),
        ...(file.errors.length
          ? [
              message("logs.special_orders.rows_without_ticket", {
                rows: message("logs.n.row", { count: file.errors.length }),
                errors: `${file.errors.slice(0, 5).join("; ")}${file.errors.length > 5 ? " …" : ""}`,
              }),
            ]
          : []),
      ];
      const logSummary = summaryOf(message("logs.special_orders.parts", { parts }));
      const summary = logSummary.summary;
      await tx.specialOrderLog.updateMany({ where: { transmission_id: stored.id }, data: logSummary });
      await tx.transmission.update({
        where: { id: stored.id },
        data: { status: "processed", error: file.errors.length ? summary.slice(0, 2000) : null, attempts: { increment: 1 }, processed_at: new Date() },
      });
      return tally;
    },
    { maxWait: 10_000, timeout: 120_000 },
  );
  report.count("files_imported");
  report.count("tickets_imported", counts.pending + counts.error);
  report.count("tickets_in_error", counts.error);
  report.count("tickets_known_before", counts.known);
  report.count("rows_without_ticket", file.errors.length);
  if (file.errors.length)
    report.problem(
      message("logs.special_orders.file_errors", {
        file: stored.file_name,
        errors: file.errors.slice(0, 3).join("; "),
        more: file.errors.length > 3 ? message("logs.and_more", { count: file.errors.length - 3 }) : "",
      }),
    );
}

// --- 3. Shopify ----------------------------------------------------------------------------

async function sendPendingOrders(report: Report, admin: ShopifyAdmin | undefined, context?: FeedRunContext) {
  const pending = await prisma.specialOrder.findMany({
    where: { status: "pending" },
    orderBy: { id: "asc" },
    select: { id: true, store_id: true, store_ticket: true },
  });
  if (pending.length === 0) return;
  let client = admin;
  if (!client) {
    try {
      client = await jobsShopifyAdmin();
    } catch (error) {
      report.problem(
        message("logs.special_orders.left_pending_all", { orders: message("logs.n.special_order", { count: pending.length }), error: errorMessage(error) }),
      );
      return;
    }
  }
  for (const order of pending) {
    if (context?.signal.aborted) return;
    try {
      const outcome = await processSpecialOrder(client, order.id);
      if (outcome.status === "created") report.count("orders_created");
      if (outcome.status === "error") report.count("orders_refused");
    } catch (error) {
      report.count("orders_left_pending");
      report.problem(message("logs.special_orders.left_pending", { ticket: order.store_ticket, store: order.store_id, error: errorMessage(error) }));
    }
    await context?.progress({ ...report.counts });
  }
}

function outcome(report: Report): FeedOutcome {
  const c = (key: string) => report.counts[key] ?? 0;
  const parts = [
    c("folder_created")
      ? message("logs.special_orders.folder_created", { folder: SPECIAL_ORDER_FOLDER })
      : c("files_seen_before")
        ? message("logs.special_orders.new_files_seen", {
            files: message("logs.n.new_file", { count: c("files_stored") }),
            folder: SPECIAL_ORDER_FOLDER,
            seen: message("logs.n.file", { count: c("files_seen_before") }),
          })
        : message("logs.special_orders.new_files", { files: message("logs.n.new_file", { count: c("files_stored") }), folder: SPECIAL_ORDER_FOLDER }),
    message("logs.special_orders.imported", { tickets: message("logs.n.ticket", { count: c("tickets_imported") }) }),
    message("logs.special_orders.created", { orders: message("logs.n.order", { count: c("orders_created") }) }),
  ];
  const errors = c("tickets_in_error") + c("orders_refused");
  if (errors) parts.push(message("logs.special_orders.in_error", { orders: message("logs.n.special_order", { count: errors }) }));
  if (c("tickets_known_before"))
    parts.push(message("logs.special_orders.known_before", { tickets: message("logs.n.ticket", { count: c("tickets_known_before") }) }));
  if (c("files_failed")) parts.push(message("logs.special_orders.files_refused", { files: message("logs.n.file", { count: c("files_failed") }) }));
  const problemCodes = report.problemCodes();
  const coded = withProblems(message("logs.list", { items: parts }), problemCodes);
  return {
    message: englishText(coded),
    messageCode: coded,
    // Tickets in error are the normal business of the error screen; a problem is something the run could not do.
    error: report.problems.length > 0,
    meta: { ...report.counts, problems: report.problems.slice(0, 50), ...(problemCodes.length ? { problem_codes: problemCodes.slice(0, 50) } : {}) },
  };
}
