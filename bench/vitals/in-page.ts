// What runs inside the measured page. `installObservers` is handed to
// page.addInitScript, so it runs before any of the app's scripts and must not
// close over anything of this module (Playwright sends its source text).

/** A layout shift as the page saw it (kept raw: the session windows are computed in Node). */
export interface ShiftEntry {
  startTime: number;
  value: number;
  hadRecentInput: boolean;
}

/** An Event Timing entry of an interaction (entries without interactionId are not interactions). */
export interface EventEntry {
  name: string;
  startTime: number;
  duration: number;
  interactionId: number;
}

export interface PageRecord {
  fcp: number | null;
  lcp: number | null;
  shifts: ShiftEntry[];
  longTasks: Array<{ startTime: number; duration: number }>;
  events: EventEntry[];
}

export interface Armed {
  /** event.timeStamp of the first pointerdown or keydown after arming: the input's own clock. */
  inputAt: number | null;
  /** performance.now() when the watched condition first held. */
  doneAt: number | null;
}

declare global {
  interface Window {
    __vitals: PageRecord;
    __armed?: Armed;
  }
}

export function installObservers() {
  const record: PageRecord = { fcp: null, lcp: null, shifts: [], longTasks: [], events: [] };
  window.__vitals = record;
  // Each type on its own observer: `observe({ type })` throws for one the browser lacks, and
  // buffered: true hands over what happened before this script's observer existed.
  const observe = (type: string, options: Record<string, unknown>, onEntry: (entry: PerformanceEntry) => void) => {
    try {
      new PerformanceObserver((list) => list.getEntries().forEach(onEntry)).observe({ type, buffered: true, ...options } as PerformanceObserverInit);
    } catch {
      // not supported: the metric stays empty
    }
  };
  observe("paint", {}, (entry) => {
    if (entry.name === "first-contentful-paint") record.fcp = entry.startTime;
  });
  // The last candidate is the LCP (Chromium stops reporting candidates at the first input).
  observe("largest-contentful-paint", {}, (entry) => (record.lcp = entry.startTime));
  observe("layout-shift", {}, (entry) => {
    const shift = entry as PerformanceEntry & { value: number; hadRecentInput: boolean };
    record.shifts.push({ startTime: shift.startTime, value: shift.value, hadRecentInput: shift.hadRecentInput });
  });
  observe("longtask", {}, (entry) => record.longTasks.push({ startTime: entry.startTime, duration: entry.duration }));
  observe("event", { durationThreshold: 16 }, (entry) => {
    const event = entry as PerformanceEntry & { interactionId?: number };
    if (event.interactionId) record.events.push({ name: event.name, startTime: event.startTime, duration: event.duration, interactionId: event.interactionId });
  });
}

/**
 * Arms the page for one interaction: the next pointerdown/keydown's timestamp, and the
 * moment `selector`'s condition first holds, watched by a MutationObserver on the whole
 * document (the element may be replaced, or the route change). Conditions:
 * - "changes": the text of the first element matching `selector` (or its absence) differs
 *   from what it is now (the grid's first body row);
 * - "visible": an element matching `selector` is rendered with a box.
 * Runs through page.evaluate, so it too must be self-contained.
 */
export function arm({ selector, until }: { selector: string; until: "changes" | "visible" }) {
  const armed: Armed = { inputAt: null, doneAt: null };
  window.__armed = armed;
  const textNow = () => document.querySelector(selector)?.textContent ?? "\u0000none";
  const before = textNow();
  const holds = () => {
    if (until === "changes") return textNow() !== before;
    return [...document.querySelectorAll(selector)].some((element) => (element as HTMLElement).getClientRects().length > 0);
  };
  const onInput = (event: Event) => {
    if (armed.inputAt === null) armed.inputAt = event.timeStamp;
  };
  // Capture phase on window: seen before any of the app's handlers run.
  window.addEventListener("pointerdown", onInput, { capture: true, once: true });
  window.addEventListener("keydown", onInput, { capture: true, once: true });
  const observer = new MutationObserver(() => {
    if (armed.doneAt === null && holds()) {
      armed.doneAt = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document.documentElement, { subtree: true, childList: true, characterData: true, attributes: true });
}
