// What the stand-in's answers share: stable gids, userErrors, the search and page arguments of a document.
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { StandInCatalog } from "../stand-in.server";
import { page } from "../stand-in-fulfillment-orders.server";

export interface UserError {
  field: string[] | null;
  message: string;
  code?: string | null;
}

// Stable ids: a test (or a second run) sees the same gids for the same data (orders' in ./stand-in-fulfillment-orders.server.ts).
/** Real gids are numeric; a hash of the name keeps that shape and is stable. */
export function hashedNumber(value: string): string {
  return BigInt(`0x${createHash("sha256").update(value).digest("hex").slice(0, 13)}`).toString();
}
export const variantGid = (sku: string) => `gid://shopify/ProductVariant/${hashedNumber(`variant:${sku}`)}`;
export const inventoryItemGid = (sku: string) => `gid://shopify/InventoryItem/${hashedNumber(`item:${sku}`)}`;
export const locationGid = (name: string) => `gid://shopify/Location/${hashedNumber(`location:${name}`)}`;

export const numericIdOf = (gid: string) => gid.split("/").pop() ?? "";

/** The SKUs of a `sku:"A" OR sku:B` search, unquoted. */
export function skusInQuery(query: string): string[] {
  const skus: string[] = [];
  for (const match of query.matchAll(/\bsku:(?:"((?:[^"\\]|\\.)*)"|([^\s()]+))/g)) {
    skus.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : match[2]);
  }
  return skus;
}

/** The `first:` a field of the document asks for (the first such field), or undefined. */
export function firstOf(document: string, field: string): number | undefined {
  const match = new RegExp(`\\b${field}\\s*\\(\\s*first:\\s*(\\d+)`).exec(document);
  return match ? Number(match[1]) : undefined;
}

/** The variants a `sku:` search finds: not exact, as Shopify's search (D165); sorted, so pages are stable. */
export async function searchVariants(catalog: StandInCatalog, query: string): Promise<string[]> {
  const asked = [...new Set(skusInQuery(query))];
  if (asked.length === 0) return [];
  // What the search finds, of what the catalog holds as variants (a test may take some away).
  const matched = catalog.search ? await catalog.variants([...new Set(await catalog.search(asked))]) : await catalog.variants(asked);
  return [...new Set(matched)].sort();
}

/** The page of a `productVariants(first:, after:, query:)` search that a document asks for: VariantsBySku and ProductsBySku. */
export async function variantSearchPage(catalog: StandInCatalog, variables: Record<string, unknown>, document: string) {
  const matched = await searchVariants(catalog, String(variables.query ?? ""));
  return page(matched, variables.after, firstOf(document, "productVariants") ?? 50, "variants");
}

/** A request Shopify refuses as a whole (GraphQL validation): answered as top-level errors, no data. */
export class GraphqlRequestError extends Error {
  constructor(readonly errors: unknown[]) {
    super(errors.map((error) => (error as { message?: string }).message).join("; "));
  }
}

/** A control request's body. */
export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
