// The embedded-mode tests open the app inside the admin stand-in
// (./admin-stand-in.ts, started by ../global-setup.ts). App Bridge's script is
// served at its real URL by a route. Every console error and uncaught
// exception of the page or the app's frame fails the test, unless the test
// says it expects it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { test as base, expect, type FrameLocator, type Locator, type Page } from "@playwright/test";
import type pg from "pg";
import { queryDatabase } from "../support";
import { APP_PATH_PREFIX } from "./admin-stand-in";

const APP_BRIDGE_URL = "https://cdn.shopify.com/shopifycloud/app-bridge.js";
/** The admin's real origin: the app's Content-Security-Policy lets only Shopify's admin frame it. */
export const ADMIN_ORIGIN = "https://admin.shopify.com";

export interface Admin {
  page: Page;
  /** The app's frame inside the admin. */
  app: FrameLocator;
  /** The admin's title bar: the screen's title (its heading) and actions (its buttons), from App Bridge's ui-title-bar. */
  titleBar: Locator;
  /** Opens an app path in the admin, as staff do from the admin's menu or a link, and waits for hydration. */
  open(appPath: string): Promise<FrameLocator>;
  /** Console errors so far, but those a test expects (`expectErrors`). */
  errors: string[];
  /** This test expects console errors matching the pattern (Chromium logs every 4xx answer): at least one, by its end. */
  expectErrors(pattern: RegExp): void;
}

export const test = base.extend<{ admin: Admin }>({
  admin: async ({ page }, use) => {
    // The admin stand-in listens on loopback; the browser sees it at the admin's own address.
    const adminServer = process.env.E2E_ADMIN_URL!;
    await page.route(`${ADMIN_ORIGIN}/**`, async (route) => {
      const { pathname, search } = new URL(route.request().url());
      route.fulfill({ response: await route.fetch({ url: `${adminServer}${pathname}${search}` }) });
    });
    const appBridge = readFileSync(path.resolve("tests/e2e/embedded/app-bridge-stand-in.js"), "utf8").replace("__ADMIN_ORIGIN__", ADMIN_ORIGIN);
    await page.route(APP_BRIDGE_URL, (route) => route.fulfill({ status: 200, contentType: "text/javascript", body: appBridge }));
    const errors: string[] = [];
    const expected = new Map<RegExp, number>();
    const record = (error: string) => {
      const pattern = [...expected.keys()].find((each) => each.test(error));
      if (pattern) expected.set(pattern, expected.get(pattern)! + 1);
      else errors.push(error);
    };
    page.on("console", (message) => {
      if (message.type() === "error") record(`${message.text()} (${message.location().url})`);
    });
    page.on("pageerror", (error) => record(`uncaught: ${error.message}`));
    const app = page.frameLocator("#app-iframe");
    const admin: Admin = {
      page,
      app,
      titleBar: page.locator("#title-bar"),
      errors,
      async open(appPath) {
        await page.goto(`${ADMIN_ORIGIN}${APP_PATH_PREFIX}${appPath}`);
        await app.locator("html[data-hydrated]").waitFor({ state: "attached" });
        return app;
      },
      expectErrors(pattern) {
        const earlier = errors.filter((error) => pattern.test(error));
        errors.splice(0, errors.length, ...errors.filter((error) => !pattern.test(error)));
        expected.set(pattern, earlier.length);
      },
    };
    await use(admin);
    expect(errors, "console errors in the admin or the app's frame").toEqual([]);
    for (const [pattern, count] of expected) expect(count, `expected console errors matching ${pattern}`).toBeGreaterThan(0);
  },
});

export { expect };

/** Reads the embedded app's database directly, to compare what the screens show with what is stored. */
export const dbQuery = <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) =>
  queryDatabase<T>(process.env.E2E_EMBEDDED_DATABASE_URL!, sql, params);
