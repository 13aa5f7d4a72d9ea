// Reading a Shopify connection to its end (D165): page after page by
// `pageInfo { hasNextPage endCursor }` and `after:`, never cut at the first.
import type { PageInfo } from "./operations";

/** At most this many pages of one list: a cursor that never ends is Shopify's fault, said so rather than looped on. */
export const MAX_PAGES = 1000;

/** Every node of a connection: `page(after)` reads one page (`after` null for the first). */
export async function readAllPages<T>(page: (after: string | null) => Promise<{ pageInfo: PageInfo; nodes: T[] }>, what: string): Promise<T[]> {
  const nodes: T[] = [];
  let after: string | null = null;
  for (let count = 1; ; count++) {
    const answer: { pageInfo: PageInfo; nodes: T[] } = await page(after);
    nodes.push(...answer.nodes);
    if (!answer.pageInfo.hasNextPage || !answer.pageInfo.endCursor) return nodes;
    if (count >= MAX_PAGES) throw new Error(`${what}: Shopify still had more after ${MAX_PAGES} pages (${nodes.length} read); stopped`);
    after = answer.pageInfo.endCursor;
  }
}
