// The interactions of issue 31 item 3, as staff do them: what is clicked or
// typed, on which page, and what on screen says it has answered. Selectors
// follow the e2e specs (dropship-logs, realtime-logs, vendors, sales-assignment)
// and app/grid (Polaris IndexTable and Filters).
import type { Locator, Page } from "@playwright/test";

export interface Interaction {
  name: string;
  path: string;
  /** What `ms to result` measures to, as the table names it. */
  result: string;
  /** Whether the result counts against the click-to-rows goal (≤ 300 ms at 1×). */
  rowsGoal: boolean;
  /** Whether its INP counts against the INP goal (≤ 100 ms at 4×). */
  inpGoal: boolean;
  watch: { selector: string; until: "changes" | "visible" };
  /** Done before arming: not part of the interaction measured. */
  prepare?: (page: Page) => Promise<void>;
  act: (page: Page) => Promise<void>;
}

/**
 * A click as staff make one: the pointer rests on the target first (its hover styles are drawn then), and
 * the press is the interaction measured. Raw mouse events, not locator.click(): Playwright's actions check
 * their hit target from listeners of their own inside the page's pointerdown, which would count their work
 * as the page's (measured: 140–160 ms of the 4× pointerdown on a link or button).
 */
const clickOn = (target: (page: Page) => Locator) => ({
  prepare: async (page: Page) => {
    const element = target(page);
    await element.scrollIntoViewIfNeeded();
    const box = await element.boundingBox();
    if (!box) throw new Error("the target is not on screen");
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  },
  act: async (page: Page) => {
    await page.mouse.down();
    await page.mouse.up();
  },
});

/** The grid's first body row: its text changes when new rows are on screen. */
const FIRST_ROW = ".Polaris-IndexTable__Table tbody tr";
const SEARCH = 'input[placeholder="Search"]';
const LARGE_GRIDS = ["/dropship/logs/", "/sales/realtime-sales-log"];

export const INTERACTIONS: Interaction[] = [
  ...LARGE_GRIDS.flatMap((path): Interaction[] => [
    {
      name: `sort ${path}`,
      path,
      result: "rows",
      rowsGoal: true,
      inpGoal: true,
      watch: { selector: FIRST_ROW, until: "changes" },
      // The column sorted now: a click reverses it, so the first row always changes.
      ...clickOn((page) => page.locator(".Polaris-IndexTable__Table thead button:has(.Polaris-IndexTable__TableHeadingSortIcon--visible)").first()),
    },
    {
      name: `next page ${path}`,
      path,
      result: "rows",
      rowsGoal: true,
      inpGoal: true,
      watch: { selector: FIRST_ROW, until: "changes" },
      ...clickOn((page) => page.getByRole("button", { name: "Next" })),
    },
    {
      name: `filter keystroke ${path}`,
      path,
      result: "rows (incl. 500 ms debounce)",
      rowsGoal: false,
      inpGoal: true,
      watch: { selector: FIRST_ROW, until: "changes" },
      // Focusing the field is a click of its own: done first, so only the keystroke is measured.
      prepare: (page) => page.locator(SEARCH).first().click(),
      // No row of the demo data has a "~": the first row surely changes (to the empty state).
      act: (page) => page.keyboard.type("~"),
    },
  ]),
  {
    name: "open a vendor form",
    path: "/dropship/vendor/",
    result: "first field",
    rowsGoal: false,
    inpGoal: true,
    // Every field of the vendor form has the id vendor-<field>; the list has none.
    watch: { selector: 'input[id^="vendor-"], select[id^="vendor-"], textarea[id^="vendor-"]', until: "visible" },
    ...clickOn((page) => page.locator('tbody tr a[href*="/dropship/vendor/edit"]').first()),
  },
  {
    name: "Manual Assignment",
    path: "/sales/unassigned-orders",
    result: "assignment table",
    rowsGoal: false,
    // Opening Manual Assignment is opening a form (issue 31 item 3: "forms and Manual Assignment open without long tasks").
    inpGoal: true,
    watch: { selector: ".Polaris-DataTable table", until: "visible" },
    ...clickOn((page) => page.locator('tbody tr a[href*="manual-assignment"]').first()),
  },
  {
    name: "422 banner",
    path: "/dropship/vendor/edit/",
    result: "critical banner",
    rowsGoal: false,
    inpGoal: true,
    watch: { selector: '.Polaris-Banner[role="alert"], [role="alert"] .Polaris-Banner', until: "visible" },
    // The new vendor's required fields are empty: the server answers 422 and the form shows why.
    ...clickOn((page) => page.getByRole("button", { name: "Save Vendor" })),
  },
];
