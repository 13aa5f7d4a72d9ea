// The metrics from what the page recorded (bench/vitals/in-page.ts), by the
// definitions web-vitals and Lighthouse use, and the summary of repeated runs.
import type { EventEntry, ShiftEntry } from "./in-page";

/**
 * CLS: shifts not caused by recent input, grouped into session windows (a window ends after
 * a 1 s gap or when it spans 5 s); the largest window's sum.
 */
export function cumulativeLayoutShift(shifts: ShiftEntry[]): number {
  let worst = 0;
  let windowSum = 0;
  let windowStart = -Infinity;
  let previous = -Infinity;
  for (const shift of shifts.filter((each) => !each.hadRecentInput).sort((a, b) => a.startTime - b.startTime)) {
    if (shift.startTime - previous < 1000 && shift.startTime - windowStart < 5000) windowSum += shift.value;
    else {
      windowSum = shift.value;
      windowStart = shift.startTime;
    }
    previous = shift.startTime;
    worst = Math.max(worst, windowSum);
  }
  return worst;
}

/** TBT: each long task's time past 50 ms, for the part of it between FCP and `until`. */
export function totalBlockingTime(longTasks: Array<{ startTime: number; duration: number }>, fcp: number | null, until: number): number {
  if (fcp === null) return 0;
  let total = 0;
  for (const task of longTasks) {
    const start = Math.max(task.startTime, fcp);
    const end = Math.min(task.startTime + task.duration, until);
    if (end - start > 50) total += end - start - 50;
  }
  return total;
}

/**
 * The worst interaction among `events` (entries at or after `since`): an interaction's latency
 * is the longest duration of its entries (pointerdown, pointerup, click or keydown, keyup…).
 * Null when none reached the 16 ms threshold, that is, every interaction took under 16 ms.
 */
export function worstInteraction(events: EventEntry[], since: number): number | null {
  const byInteraction = new Map<number, number>();
  for (const event of events) {
    if (event.startTime < since) continue;
    byInteraction.set(event.interactionId, Math.max(byInteraction.get(event.interactionId) ?? 0, event.duration));
  }
  return byInteraction.size ? Math.max(...byInteraction.values()) : null;
}

export interface Summary {
  median: number | null;
  p75: number | null;
}

/** Median and p75 (nearest rank, as CrUX reports: with 3 runs the p75 is the worst). Nulls are left out. */
export function summarize(values: Array<number | null>): Summary {
  const sorted = values.filter((value): value is number => value !== null).sort((a, b) => a - b);
  if (!sorted.length) return { median: null, p75: null };
  const middle = sorted.length / 2;
  const median = sorted.length % 2 ? sorted[Math.floor(middle)] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { median, p75: sorted[Math.ceil(0.75 * sorted.length) - 1] };
}
