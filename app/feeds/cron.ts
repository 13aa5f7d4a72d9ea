// Checks a feed's cron expression the way the scheduler will read it (node-cron
// 4), so a feed form can refuse what would never run. node-cron imports Node
// modules: call it on the server (in the action), not in the browser.
import cron from "node-cron";

const FIELD_RULES: Record<string, string> = {
  second: "second must be 0-59",
  minute: "minute must be 0-59",
  hour: "hour must be 0-23",
  dayOfMonth: "day of month must be 1-31",
  month: "month must be 1-12 or JAN-DEC",
  dayOfWeek: "day of week must be 0-7 or SUN-SAT",
};

const FIELDS_HELP = "expected 5 fields (minute hour day-of-month month day-of-week), or 6 with seconds first";

/** null when node-cron accepts the expression, else a message saying what is wrong. */
export function validateCron(expression: string): string | null {
  const trimmed = (expression ?? "").trim();
  if (!trimmed) return "A cron expression is required, e.g. 0 0 * * * (every day at midnight).";
  if (cron.validate(trimmed)) return null;
  const prefix = `"${trimmed}" is not a valid cron expression`;
  const fieldCount = trimmed.split(/\s+/).length;
  if (!trimmed.startsWith("@") && (fieldCount < 5 || fieldCount > 6)) {
    return `${prefix}: ${FIELDS_HELP}, got ${fieldCount}.`;
  }
  const problems = cron
    .validateDetailed(trimmed)
    .errors.map((error) => (FIELD_RULES[error.field] ? `${FIELD_RULES[error.field]} (got "${error.value ?? ""}")` : error.message));
  return `${prefix}: ${problems.length ? problems.join("; ") : FIELDS_HELP}.`;
}
