// The app's calendar days, in one place (D98). A business day is the date in
// APP_TIMEZONE (order sync, Daily Sales, the EOD report, the demo seed); days
// travel as "YYYY-MM-DD" and a date column stores one as its midnight in UTC.
// No env import: the caller names the zone (env().APP_TIMEZONE, or the seed's
// process.env), so the seed and the browser-free tests can use it too.

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day (YYYY-MM-DD) of `instant` in `timeZone`; today by default. */
export function dayIn(timeZone: string, instant: Date = new Date()): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/** `day` (YYYY-MM-DD) as a date column stores it: its midnight in UTC. */
export const dateOnly = (day: string): Date => new Date(`${day}T00:00:00.000Z`);

/** `day` (YYYY-MM-DD) moved by `by` calendar days (negative: earlier). */
export const shiftDay = (day: string, by: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + by * 86_400_000).toISOString().slice(0, 10);
