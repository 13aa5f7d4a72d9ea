// The end-of-day report (spec 001 §2 "EOD Report"; D31): one row per sales
// date and store, summed from that day's sales records (invoices, credit memos,
// shipping invoices, as Daily Sales counts them: D19). A run is one SQL
// statement over the days it covers: it upserts on (sales_date, store_id), so
// running a day twice never doubles it, and a crash leaves the previous state.
import { z } from "zod";
import prisma from "~/db.server";
import { env } from "~/env.server";
import { dayIn, shiftDay } from "~/lib/app-time";
import { coded, parseInput } from "~/lib/validation.server";
import { withEodLock } from "./lock.server";
import { rebuildDays, WEB_STORE, type RebuildResult } from "./rebuild";

export { rebuildDays, WEB_STORE };

/** A run covers the day asked for and the day before, so late records of yesterday are taken in. */
export const DEFAULT_RUN_DAYS = 2;
export const MAX_RUN_DAYS = 62;

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const isCalendarDay = (day: string) => DAY_PATTERN.test(day) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day);

const RUN_DAYS_PROBLEM = coded("errors.input.whole_number", { min: 1, max: MAX_RUN_DAYS });

export const RunRequestSchema = z.object({
  sales_date: z.string().trim().refine(isCalendarDay, "errors.input.date").optional(),
  days: z.coerce.number({ message: RUN_DAYS_PROBLEM }).int(RUN_DAYS_PROBLEM).min(1, RUN_DAYS_PROBLEM).max(MAX_RUN_DAYS, RUN_DAYS_PROBLEM).optional(),
});
export type RunRequest = z.infer<typeof RunRequestSchema>;

/** Reads sales_date and days from a query string (blank values are ignored); bad values are a 422. */
export function parseRunRequest(params: URLSearchParams): RunRequest {
  const raw = Object.fromEntries(["sales_date", "days"].map((key) => [key, params.get(key)?.trim() || undefined]));
  return parseInput(RunRequestSchema, raw);
}

export interface RunResult extends RebuildResult {
  /** First and last sales date covered, YYYY-MM-DD. */
  from: string;
  to: string;
}
/** Builds (again) the report rows of `days` days ending with `sales_date` (today in APP_TIMEZONE). */
export async function runEodReport(request: RunRequest = {}, options: { now?: Date } = {}): Promise<RunResult> {
  const to = request.sales_date ?? dayIn(env().APP_TIMEZONE, options.now);
  const from = shiftDay(to, -((request.days ?? DEFAULT_RUN_DAYS) - 1));
  return withEodLock(async () => ({ from, to, ...(await rebuildDays(prisma, from, to)) }));
}
