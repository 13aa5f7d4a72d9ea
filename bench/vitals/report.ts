// The result as one JSON object (the VITALS line) and as the Markdown section
// of docs/performance.md between <!-- vitals:start --> and <!-- vitals:end -->,
// which keeps one block per --label: a run replaces only its own label's block.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { Summary } from "./metrics";

export interface PageResult {
  path: string;
  throttle: number;
  lcp: Summary;
  cls: Summary;
  tbt: Summary;
  bytes: Summary;
}

export interface InteractionResult {
  name: string;
  throttle: number;
  /** What clickToRows is measured to (rows, first field, banner…). */
  result: string;
  inp: Summary;
  clickToRows: Summary;
}

export interface VitalsResult {
  label: string;
  date: string;
  commit: string;
  url: string;
  machine: { cpu: string; cpus: number; memoryGiB: number };
  load: { start: number[]; end: number[] };
  runs: number;
  pages: PageResult[];
  interactions: InteractionResult[];
  goals: typeof GOALS;
  withinGoals: boolean;
  misses: string[];
  /** Measurements that failed (a selector not found, a timeout): left out of the figures. */
  errors: string[];
}

/** Issue 31 item 3 (p75 everywhere, as Shopify's own limits). */
export const GOALS = {
  inpP75At4xMs: 100,
  clickToRowsP75At1xMs: 300,
  lcpP75At4xMs: 1250,
  clsP75: 0.05,
};

export function missesOf(pages: PageResult[], interactions: Array<InteractionResult & { rowsGoal: boolean; inpGoal: boolean }>): string[] {
  const misses: string[] = [];
  const over = (value: number | null, goal: number) => value === null || value > goal;
  for (const page of pages) {
    if (page.throttle === 4 && over(page.lcp.p75, GOALS.lcpP75At4xMs))
      misses.push(`${page.path}: LCP p75 at 4× ${ms(page.lcp.p75)} ms > ${GOALS.lcpP75At4xMs} ms`);
    if (over(page.cls.p75, GOALS.clsP75)) misses.push(`${page.path}: CLS p75 at ${page.throttle}× ${fixed(page.cls.p75, 3)} > ${GOALS.clsP75}`);
  }
  for (const each of interactions) {
    if (each.inpGoal && each.throttle === 4 && over(each.inp.p75, GOALS.inpP75At4xMs))
      misses.push(`${each.name}: INP p75 at 4× ${ms(each.inp.p75)} ms > ${GOALS.inpP75At4xMs} ms`);
    if (each.rowsGoal && each.throttle === 1 && over(each.clickToRows.p75, GOALS.clickToRowsP75At1xMs))
      misses.push(`${each.name}: click to rows p75 at 1× ${ms(each.clickToRows.p75)} ms > ${GOALS.clickToRowsP75At1xMs} ms`);
  }
  return misses;
}

const ms = (value: number | null) => (value === null ? "–" : String(Math.round(value)));
const fixed = (value: number | null, digits: number) => (value === null ? "–" : value.toFixed(digits));
const kb = (value: number | null) => (value === null ? "–" : Math.round(value / 1024).toLocaleString("en-US"));
const pair = (summary: Summary, format: (value: number | null) => string) => `${format(summary.median)} / ${format(summary.p75)}`;
const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(", ");

/** One label's block: what was measured, where, and the two tables. */
export function markdownBlock(result: VitalsResult): string {
  const lines: string[] = [];
  lines.push(`<!-- vitals:label=${result.label} -->`);
  lines.push(`### ${result.label}: ${result.date}, commit ${result.commit}`);
  lines.push("");
  const { cpus, cpu, memoryGiB } = result.machine;
  lines.push(
    `${result.runs} runs; ${cpus} × ${cpu}, ${memoryGiB} GiB; load average (1, 5, 15 min) ${load(result.load.start)} at the start, ` +
      `${load(result.load.end)} at the end. Each figure is median / p75 over the runs.`,
  );
  lines.push("");
  lines.push("| page | LCP 1× (ms) | LCP 4× (ms) | CLS 1× | CLS 4× | TBT 1× (ms) | TBT 4× (ms) | KB transferred |");
  lines.push("|---|---:|---:|---:|---:|---:|---:|---:|");
  const paths = [...new Set(result.pages.map((page) => page.path))];
  for (const path of paths) {
    const at = (throttle: number) => result.pages.find((page) => page.path === path && page.throttle === throttle);
    const one = at(1);
    const four = at(4);
    const both = (pick: (page: PageResult) => string) => [one, four].map((page) => (page ? pick(page) : "–"));
    const cells = [
      `\`${path}\``,
      ...both((page) => pair(page.lcp, ms)),
      ...both((page) => pair(page.cls, (value) => fixed(value, 3))),
      ...both((page) => pair(page.tbt, ms)),
      kb((one ?? four)?.bytes.median ?? null),
    ];
    lines.push(`| ${cells.join(" | ")} |`);
  }
  lines.push("");
  lines.push("| interaction | INP 1× (ms) | INP 4× (ms) | click to result 1× (ms) | click to result 4× (ms) | result |");
  lines.push("|---|---:|---:|---:|---:|---|");
  const names = [...new Set(result.interactions.map((each) => each.name))];
  for (const name of names) {
    const at = (throttle: number) => result.interactions.find((each) => each.name === name && each.throttle === throttle);
    const one = at(1);
    const four = at(4);
    const both = (pick: (each: InteractionResult) => Summary) => [one, four].map((each) => (each ? pair(pick(each), ms) : "–"));
    lines.push(`| ${[name, ...both((each) => each.inp), ...both((each) => each.clickToRows), (one ?? four)?.result ?? ""].join(" | ")} |`);
  }
  lines.push("");
  const goals = [
    `INP p75 at 4× ≤ ${GOALS.inpP75At4xMs} ms (sort, next page, filter keystroke, opening a form, 422 banner)`,
    `click to rows p75 at 1× ≤ ${GOALS.clickToRowsP75At1xMs} ms (sort, next page)`,
    `LCP p75 at 4× ≤ ${GOALS.lcpP75At4xMs} ms, every page`,
    `CLS p75 ≤ ${GOALS.clsP75}, every page`,
  ];
  const missedGoal = (index: number) => result.misses.some((miss) => [/INP/, /click to rows/, /LCP/, /CLS/][index].test(miss));
  lines.push(`Goals of issue 31: ${goals.map((goal, index) => `${goal}: **${missedGoal(index) ? "missed" : "met"}**`).join("; ")}.`);
  if (result.misses.length) {
    lines.push("");
    lines.push(`Missed (${result.misses.length}):`);
    lines.push("");
    for (const miss of result.misses) lines.push(`- ${miss}`);
  }
  if (result.errors.length) {
    lines.push("");
    lines.push(`Measurements that failed and are left out (${result.errors.length}):`);
    lines.push("");
    for (const error of result.errors) lines.push(`- ${error}`);
  }
  lines.push("<!-- vitals:label-end -->");
  return lines.join("\n");
}

const START = "<!-- vitals:start -->";
const END = "<!-- vitals:end -->";
const INTRO = [
  "Measured by `npm run bench:vitals` (bench/vitals/run.ts), which rewrites this section: Debian's Chromium at 1440×900,",
  "the built app in local mode with the demo data,",
  "a new browser context (cold cache) per page load, at 1× and 4× CPU throttling. LCP, CLS (largest 5 s session window) and total blocking time",
  "(long tasks past 50 ms from first contentful paint until the page is quiet: network idle, hydrated, then 1 s); KB transferred as encoded on the wire.",
  "INP is the worst interaction of the step by Event Timing (16 ms threshold: 16 means it took no longer); click to result runs from the input event to",
  "the result named in the last column appearing in the DOM (a filter keystroke's includes the grid's 500 ms debounce).",
].join(" ");

/** Writes `block` into the section of `file` under its label, keeping the other labels' blocks. */
export function rewriteSection(file: string, label: string, block: string) {
  let text = existsSync(file) ? readFileSync(file, "utf8") : "";
  if (!text.includes(START) || !text.includes(END))
    text = `${text.replace(/\n*$/, "\n\n")}## Staff speed in the browser (\`npm run bench:vitals\`)\n\n${START}\n${END}\n`;
  const start = text.indexOf(START) + START.length;
  const end = text.indexOf(END);
  const blocks = [...text.slice(start, end).matchAll(/<!-- vitals:label=(.*?) -->[\s\S]*?<!-- vitals:label-end -->/g)].map((match) => ({
    label: match[1],
    text: match[0],
  }));
  const index = blocks.findIndex((each) => each.label === label);
  if (index >= 0) blocks[index].text = block;
  else blocks.push({ label, text: block });
  const section = `\n${INTRO}\n\n${blocks.map((each) => each.text).join("\n\n")}\n`;
  writeFileSync(file, text.slice(0, start) + section + text.slice(end));
}
