// The EOD buttons' calls (spec 001 §7's /api/eod_report_run, /api/eod_report_retry,
// each also with a {token}; POST: D54) and the Export to AS400 call, answered
// { error, message, detail }: `message` is the spec's banner text (§8) in the
// request's language, `detail` says what happened. Also the scheduled eod_report feed.
import { timingSafeEqual, createHash } from "node:crypto";
import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "~/db.server";
import { as400ConnectionSettings } from "~/dropship/vendor-connection.server";
import { env } from "~/env.server";
import type { FeedJob } from "~/feeds/runner.server";
import { translatorFor, type Translate } from "~/i18n/i18n.server";
import { formatMoney } from "~/lib/format";
import { unprocessable, ValidationError } from "~/lib/validation.server";
import { todayIn } from "~/orders/daily-sales.server";
import { As400NotConfiguredError, createBatch, exportEodReport, NothingToSendError, resendOpenBatches, retryEodBatch, sendBatch, type BatchSummary } from "./batches.server";
import { EodBusyError, withEodLock } from "./lock.server";
import { rebuildDays } from "./rebuild";
import { parseRunRequest, runEodReport, type RunResult } from "./report.server";
import { logger } from "~/observability/logger.server";

const log = logger("eod");

type EodAction = "run" | "retry" | "export";

const usDate = (day: string) => new Intl.DateTimeFormat("en-US", { dateStyle: "short", timeZone: "UTC" }).format(new Date(`${day}T00:00:00Z`));

const answer = (status: number, body: Record<string, unknown>) => Response.json(body, { status });

function failure(action: EodAction, t: Translate, status: number, detail: string, extra: Record<string, unknown> = {}) {
  return answer(status, { error: true, message: t(`eod.banners.${action}_error`), detail, ...extra });
}

function runDetail(result: RunResult, t: Translate) {
  const parts = [
    t("eod.detail.run", {
      rows: result.rows,
      from: usDate(result.from),
      to: usDate(result.to),
      records: result.sales_records,
      created: result.created,
      changed: result.changed,
      unchanged: result.unchanged,
      net: formatMoney(result.net_sales),
    }),
  ];
  if (result.removed || result.zeroed) parts.push(t("eod.detail.run_vanished", { removed: result.removed, zeroed: result.zeroed }));
  return parts.join(" ");
}

function sentAnswer(action: "retry" | "export", batch: BatchSummary, t: Translate) {
  const body = { batch };
  if (batch.status !== "exported") {
    return failure(action, t, 502, t("eod.detail.upload_failed", { file: batch.file_name, error: (batch.error ?? "").replace(/\.$/, "") }), body);
  }
  const detail =
    action === "export"
      ? t("eod.detail.exported", { file: batch.file_name, rows: batch.row_count, net: formatMoney(batch.net_sales), path: batch.remote_path })
      : t("eod.detail.retried", { file: batch.file_name, attempts: batch.attempts, path: batch.remote_path });
  return answer(200, { error: false, message: t(`eod.banners.${action}_success`), detail, ...body });
}

/** Known outcomes become answers; anything else is left to the route (a 500 with a reference). */
function knownFailure(action: EodAction, error: unknown, t: Translate): Response | null {
  if (error instanceof EodBusyError) return failure(action, t, 409, t("eod.detail.busy"));
  if (error instanceof As400NotConfiguredError) return failure(action, t, 503, t("eod.detail.not_configured"));
  if (error instanceof NothingToSendError) return failure(action, t, 409, t(error.what === "export" ? "eod.detail.nothing_to_export" : "eod.detail.nothing_to_retry"));
  return null;
}

/** Runs one EOD action for a request and answers it. */
export async function eodActionAnswer(action: EodAction, url: URL, t: Translate): Promise<Response> {
  try {
    if (action === "run") {
      const result = await runEodReport(parseRunRequest(url.searchParams));
      return answer(200, { error: false, message: t("eod.banners.run_success"), detail: runDetail(result, t), result });
    }
    const batch = action === "export" ? await exportEodReport() : await retryEodBatch();
    return sentAnswer(action, batch, t);
  } catch (error) {
    const known = knownFailure(action, error, t);
    if (known) return known;
    throw error;
  }
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
    if (!configured) return failure(action, t, 403, t("eod.detail.token_off"));
    if (!tokenMatches(params.token, configured)) return failure(action, t, 403, t("eod.detail.token_refused"));
    try {
      return await eodActionAnswer(action, new URL(request.url), t);
    } catch (error) {
      if (error instanceof ValidationError) return unprocessable(error);
      const reference = crypto.randomUUID().slice(0, 8);
      log.error({ err: error, reference }, `POST eod ${action} (token) failed (reference ${reference})`);
      return answer(500, { error: true, message: t(`eod.banners.${action}_error`), detail: `Internal error (reference ${reference})` });
    }
  };
}

const shiftDay = (day: string, by: number) => new Date(Date.parse(`${day}T00:00:00Z`) + by * 86_400_000).toISOString().slice(0, 10);

/**
 * The eod_report feed: runs today and yesterday again, sends every failed or
 * unsent batch again, then exports what waits, all under the EOD lock.
 */
export const eodReportJob: FeedJob = async (context) => {
  return withEodLock(async () => {
    const to = todayIn(env().APP_TIMEZONE);
    const from = shiftDay(to, -1);
    const run = await rebuildDays(prisma, from, to);
    await context.progress({ step: "run", ...run });
    const meta: Record<string, unknown> = { from, to, run };
    if (!as400ConnectionSettings()) {
      return { message: `EOD report run for ${from} to ${to} (${run.rows} rows); nothing exported: the AS400 is not configured (AS400_HOST).`, error: true, meta };
    }
    const resent = await resendOpenBatches();
    await context.progress({ step: "retry", resent: resent.length });
    const created = await createBatch();
    const exported = created ? await sendBatch(created.id) : null;
    const batches = [...resent, ...(exported ? [exported] : [])];
    const failed = batches.filter((batch) => batch.status !== "exported");
    meta.batches = batches.map(({ id, file_name, status, error, row_count }) => ({ id, file_name, status, error, row_count }));
    const sentNames = batches.filter((batch) => batch.status === "exported").map((batch) => batch.file_name);
    const message =
      `EOD report run for ${from} to ${to} (${run.rows} rows, ${run.created} new, ${run.changed} changed); ` +
      (batches.length ? `${sentNames.length ? `sent ${sentNames.join(", ")}` : "nothing sent"}${failed.length ? `; not sent: ${failed.map((b) => `${b.file_name} (${b.error})`).join(", ")}` : ""}.` : "nothing waited to be exported.");
    return { message, error: failed.length > 0, meta };
  });
};
