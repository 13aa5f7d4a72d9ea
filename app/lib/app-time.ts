// The app's calendar days and wall clocks, in one place (D98, D150). A business day is the date in
// APP_TIMEZONE (order sync, Daily Sales, the EOD report, the demo seed); days
// travel as "YYYY-MM-DD" and a date column stores one as its midnight in UTC.
// No env import: the caller names the zone (env().APP_TIMEZONE, or the seed's
// process.env), so the seed and the browser-free tests can use it too.

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** What a wall clock in `timeZone` shows at `instant`: each part as two digits (the year four), the hour 00 to 23. */
export function wallClock(timeZone: string, instant: Date) {
  let format = clockFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    clockFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)!.value;
  return { year: part("year"), month: part("month"), day: part("day"), hour: part("hour"), minute: part("minute"), second: part("second") };
}

/** "2026-11-21 14:05:00": `instant` in `timeZone`, sortable, and read as a date and time by spreadsheets. */
export function localDateTime(instant: Date, timeZone: string): string {
  const clock = wallClock(timeZone, instant);
  return `${clock.year}-${clock.month}-${clock.day} ${clock.hour}:${clock.minute}:${clock.second}`;
}

/** How far `timeZone` is ahead of UTC at `instant` (milliseconds since 1970), in milliseconds. */
export function zoneOffset(instant: number, timeZone: string): number {
  const clock = wallClock(timeZone, new Date(instant));
  const asUtc = Date.UTC(Number(clock.year), Number(clock.month) - 1, Number(clock.day), Number(clock.hour), Number(clock.minute), Number(clock.second));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The calendar day (YYYY-MM-DD) of `instant` in `timeZone`; today by default. */
export function dayIn(timeZone: string, instant: Date = new Date()): string {
  const clock = wallClock(timeZone, instant);
  return `${clock.year}-${clock.month}-${clock.day}`;
}

/** `day` (YYYY-MM-DD) as a date column stores it: its midnight in UTC. */
export const dateOnly = (day: string): Date => new Date(`${day}T00:00:00.000Z`);

/** `day` (YYYY-MM-DD) moved by `by` calendar days (negative: earlier). */
export const shiftDay = (day: string, by: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + by * 86_400_000).toISOString().slice(0, 10);

/** The instant `day` (YYYY-MM-DD) begins in `timeZone`: its midnight there (the day's first instant after a jump forward). */
export function dayStartIn(day: string, timeZone: string): Date {
  const wall = Date.parse(`${day}T00:00:00Z`);
  const guess = wall - zoneOffset(wall, timeZone);
  return new Date(wall - zoneOffset(guess, timeZone));
}
