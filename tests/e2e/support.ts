import type { APIRequestContext, Locator, Page } from "@playwright/test";
import pg from "pg";

/** Opens a page and waits until React has hydrated it (root sets html[data-hydrated]). */
export async function open(page: Page, url: string) {
  const response = await page.goto(url);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  return response;
}

/** Clicks the action of that name, which Polaris renders as a link or as a button. */
export async function clickAction(page: Page, name: string) {
  await page.getByRole("link", { name }).or(page.getByRole("button", { name })).first().click();
}

/** From now on every request matching `pattern` is answered with a 500; `calls` counts them. */
export async function failRequests(page: Page, pattern: string) {
  const failed = { calls: 0 };
  await page.route(pattern, (route) => {
    failed.calls += 1;
    return route.fulfill({ status: 500, body: "{}" });
  });
  return failed;
}

/** Presses an action that sends what cannot be taken back, and confirms it in the dialog that asks first (issue 18 item 3). */
export async function pressAndConfirm(page: Page, label: string) {
  await page.getByRole("button", { name: label, exact: true }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: label, exact: true }).click();
  await dialog.waitFor({ state: "detached" });
}

/** The visible label of the status Badges in `within` (a toned Badge also carries its tone's name for screen readers). */
export const badgeLabels = (within: Locator) => within.locator(".Polaris-Badge > .Polaris-Text--root:not(.Polaris-Text--visuallyHidden)");

/** Sets what the demo shop's locations have available in the Shopify stand-in: stores' stock is Shopify's (D48). */
export async function setShopifyLevels(levels: Array<{ sku: string; location: string; quantity: number }>) {
  const response = await fetch(`${process.env.E2E_STAND_IN_URL}/__levels`, { method: "PUT", body: JSON.stringify(levels) });
  if (!response.ok) throw new Error(`the stand-in refused the levels: ${await response.text()}`);
}

/** Reads the local-mode run's database directly, to compare what the screens show with what is stored. */
export const dbQuery = <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => queryDatabase<T>(process.env.E2E_DATABASE_URL!, sql, params);

export async function queryDatabase<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** A staff action over the API: answered at once (202) with its run, read again until it has ended (D93). */
export async function runToEnd(request: APIRequestContext, path: string): Promise<Record<string, unknown>> {
  const started = await request.post(path);
  if (started.status() !== 202) throw new Error(`POST ${path} answered ${started.status()}: ${await started.text()}`);
  const { run_id } = (await started.json()) as { run_id: number };
  for (;;) {
    const run = (await (await request.get(`/api/run/${run_id}`)).json()) as Record<string, unknown>;
    if (run.status !== "running") return run;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
