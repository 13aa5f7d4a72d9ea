import type { Page } from "@playwright/test";
import pg from "pg";

/** Opens a page and waits until React has hydrated it (root sets html[data-hydrated]). */
export async function open(page: Page, url: string) {
  const response = await page.goto(url);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  return response;
}

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
