// The EOD buttons' calls (spec 001 §7's /api/eod_report_run, /api/eod_report_retry,
// each also with a {token}; POST: D54) and the Export to AS400 call, answered
// { error, message, detail }: `message` is the spec's banner text (§8) in the
// request's language, `detail` says what happened. Also the scheduled eod_report feed.
import { timingSafeEqual, createHash } from "node:crypto";
import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "~/db.server";
import { as400ConnectionSettings } from "~/as400/connection.server";
import { env } from "~/env.server";
import type { FeedJob } from "~/feeds/runner.server";
import { translatorFor } from "~/i18n/i18n.server";
import { englishText } from "~/i18n/english.server";
import { dayIn, shiftDay } from "~/lib/app-time";
import { formatMoney } from "~/lib/format";
import { renderAnswer, unprocessable, ValidationError } from "~/lib/validation.server";
import { message, plainText, type RunMessage } from "~/runs/messages";
import type { RunOutcome } from "~/runs/runs.server";
import {
  As400NotConfiguredError,
  createBatch,
  exportEodReport,
  NothingToSendError,
  resendOpenBatches,
  retryEodBatch,
  sendBatch,
  type BatchSummary,
} from "./batches.server";
import { EodBusyError, withEodLock } from "./lock.server";
import { rebuildDays } from "./rebuild";
import { parseRunRequest, runEodReport, type RunResult } from "./report.server";
import { logger } from "~/observability/logger.server";

const log = logger("eod");

export type EodAction = "run" | "retry" | "export";

const usDate = (day: string) => new Intl.DateTimeFormat("en-US", { dateStyle: "short", timeZone: "UTC" }).format(new Date(`${day}T00:00:00Z`));

/** An action's result as codes (D96): rendered for a request by eodActionAnswer, kept by a background run. */
export interface EodOutcome extends RunOutcome {
  status: number;
}

function failure(action: EodAction, status: number, detail: RunMessage, data: Record<string, unknown> = {}): EodOutcome {
  return { status, error: true, message: message(`eod.banners.${action}_error`), detail, data };
}

function runDetail(result: RunResult): RunMessage {
  const run = message("eod.detail.run", {
    rows: result.rows,
    from: usDate(result.from),
    to: usDate(result.to),
    records: result.sales_records,
    created: result.created,
    changed: result.changed,
    unchanged: result.unchanged,
    net: formatMoney(result.net_sales),
  });
  if (!result.removed && !result.zeroed) return run;
  return message("eod.detail.run_with_vanished", { run, vanished: message("eod.detail.run_vanished", { removed: result.removed, zeroed: result.zeroed }) });
}

function sentOutcome(action: "retry" | "export", batch: BatchSummary): EodOutcome {
  const data = { batch };
  if (batch.status !== "exported") {
    return failure(action, 502, message("eod.detail.upload_failed", { file: batch.file_name, error: (batch.error ?? "").replace(/\.$/, "") }), data);
  }
  const detail =
    action === "export"
      ? message("eod.detail.exported", { file: batch.file_name, rows: batch.row_count, net: formatMoney(batch.net_sales), path: batch.remote_path })
      : message("eod.detail.retried", { file: batch.file_name, attempts: batch.attempts, path: batch.remote_path });
  return { status: 200, error: false, message: message(`eod.banners.${action}_success`), detail, data };
}

/** Known outcomes; anything else is left to the caller (a 500 with a reference, or a failed run). */
function knownFailure(action: EodAction, error: unknown): EodOutcome | null {
  if (error instanceof EodBusyError) return failure(action, 409, message("eod.detail.busy"));
  if (error instanceof As400NotConfiguredError) return failure(action, 503, message("eod.detail.not_configured"));
  if (error instanceof NothingToSendError)
    return failure(action, 409, message(error.what === "export" ? "eod.detail.nothing_to_export" : "eod.detail.nothing_to_retry"));
  return null;
}

/** Checks a run's query (sales_date, days) before anything starts: a 422 per field. */
export function parseEodRequest(action: EodAction, url: URL) {
  return action === "run" ? parseRunRequest(url.searchParams) : null;
}

/** Runs one EOD action; its result as codes. */
export async function eodOutcome(action: EodAction, url: URL): Promise<EodOutcome> {
  try {
    if (action === "run") {
      const result = await runEodReport(parseRunRequest(url.searchParams));
      return { status: 200, error: false, message: message("eod.banners.run_success"), detail: runDetail(result), data: { result } };
    }
    const batch = action === "export" ? await exportEodReport() : await retryEodBatch();
    return sentOutcome(action, batch);
  } catch (error) {
    const known = knownFailure(action, error);
    if (known) return known;
    throw error;
  }
}

/** An EOD action's answer to a request: its status, and its body with the words as codes for the edge to render (D137). */
export interface EodActionAnswer {
  status: number;
  body: { error: boolean; message: RunMessage; detail: RunMessage } & Record<string, unknown>;
}

/** Runs one EOD action for a request and answers it at its end (the {token} forms, D32). */
export async function eodActionAnswer(action: EodAction, url: URL): Promise<EodActionAnswer> {
  const outcome = await eodOutcome(action, url);
  return { status: outcome.status, body: { error: outcome.error, message: outcome.message, detail: outcome.detail ?? plainText(""), ...outcome.data } };
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Compares in constant time (over digests, so lengths do not leak either). */
export function tokenMatches(given: string | undefined, configured: string): boolean {
  return given !== undefined && timingSafeEqual(digest(given), digest(configured));
}

/**
 * The {token} forms (D32): for callers without a staff session (a scheduler
 * elsewhere, the AS400). Refused (403) unless EOD_API_TOKEN is set and matches;
 * the forms without a token are the staff's, behind the usual authentication.
 */
export function eodTokenRoute(action: "run" | "retry") {
  return async ({ request, params }: ActionFunctionArgs): Promise<Response> => {
    const t = await translatorFor(request);
    const configured = env().EOD_API_TOKEN;
    const refused = (detail: string) => Response.json({ error: true, message: t(`eod.banners.${action}_error`), detail }, { status: 403 });
    if (!configured) return refused(t("eod.detail.token_off"));
    if (!tokenMatches(params.token, configured)) return refused(t("eod.detail.token_refused"));
    try {
      const { status, body } = await eodActionAnswer(action, new URL(request.url));
      return Response.json(renderAnswer(t, body), { status });
    } catch (error) {
      if (error instanceof ValidationError) return unprocessable(error, t);
      const reference = crypto.randomUUID().slice(0, 8);
      log.error({ err: error, reference }, `POST eod ${action} (token) failed (reference ${reference})`);
      return Response.json({ error: true, message: t(`eod.banners.${action}_error`), detail: `Internal error (reference ${reference})` }, { status: 500 });
    }
  };
}

/**
 * The eod_report feed: runs today and yesterday again, sends every failed or
 * unsent batch again, then exports what waits, all under the EOD lock.
 */
export const eodReportJob: FeedJob = async (context) => {
  return withEodLock(async () => {
    const to = dayIn(env().APP_TIMEZONE);
    const from = shiftDay(to, -1);
    const run = await rebuildDays(prisma, from, to);
    await context.progress({ step: "run", ...run });
    const meta: Record<string, unknown> = { from, to, run };
    if (!as400ConnectionSettings()) {
      const coded = message("logs.eod.not_configured", { from, to, rows: run.rows });
      return { message: englishText(coded), messageCode: coded, error: true, meta };
    }
    const resent = await resendOpenBatches();
    await context.progress({ step: "retry", resent: resent.length });
    const created = await createBatch();
    const exported = created ? await sendBatch(created.id) : null;
    const batches = [...resent, ...(exported ? [exported] : [])];
    const failed = batches.filter((batch) => batch.status !== "exported");
    meta.batches = batches.map(({ id, file_name, status, error, row_count }) => ({ id, file_name, status, error, row_count }));
    const sentNames = batches.filter((batch) => batch.status === "exported").map((batch) => batch.file_name);
    // File names and a server's error are data (D115).
    const sent = sentNames.length ? message("logs.eod.sent_files", { files: sentNames.join(", ") }) : message("logs.eod.nothing_sent");
    const outcome = !batches.length
      ? message("logs.eod.nothing_waited")
      : failed.length
        ? message("logs.eod.sent_and_failed", { sent, failed: failed.map((b) => `${b.file_name} (${b.error})`).join(", ") })
        : message("logs.eod.sent", { sent });
    const coded = message("logs.eod.run", { from, to, rows: run.rows, created: run.created, changed: run.changed, outcome });
    return { message: englishText(coded), messageCode: coded, error: failed.length > 0, meta };
  });
};
