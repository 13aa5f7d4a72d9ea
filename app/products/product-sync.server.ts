// The product sync feed (feed product_sync): first the AS400's product
// catalogue files (./catalog-file.server.ts), then the category-tag mappings
// become Shopify product tags. A product whose category has a mapping should carry
// the mapping's tags; `product.shopify_tags` keeps Shopify's tags as last seen.
// Each run:
// 1. picks the products whose last-seen tags lack a tag of their mapping (a
//    product already carrying its tags costs nothing: no read, no update);
// 2. reads them from Shopify, 50 SKUs a call (ProductsBySku), and adds only the
//    tags a product lacks (ProductTagsAdd; tags are only ever added, D39);
// 3. stores what Shopify now holds (product id, tags), so the next run skips it.
// Every call is recorded by the Shopify module (Product API Operations/Errors).
import prisma from "~/db.server";
import type { FeedOutcome, FeedRunContext } from "~/feeds/runner.server";
import { ShopifyApiError, type ShopifyAdmin } from "~/shopify/admin-client.server";
import { flushShopifyCallRecords } from "~/shopify/call-records.server";
import { skuSearchTerm } from "~/shopify/inventory.server";
import { jobsShopifyAdmin } from "~/shopify/jobs-admin.server";
import { ProductsBySku, ProductTagsAdd } from "~/shopify/operations";
import { readAllPages } from "~/shopify/pages.server";
import { importProductCatalogFiles, type CatalogReport } from "./catalog-file.server";
import { tagsOf } from "./products.server";
import { englishText } from "~/i18n/english.server";
import { message, plainText, withProblems, type RunMessage } from "~/i18n/messages";

export const PRODUCT_SYNC_FEED = "product_sync";
const SKUS_PER_READ = 50;
const PRODUCTS_PER_PAGE = 1000;

interface DueProduct {
  id: number;
  sku: string;
  wanted: string[];
}

export interface ProductSyncResult {
  /** Products whose tags were checked in Shopify. */
  checked: number;
  /** Shopify products that were given tags (one ProductTagsAdd each). */
  tagged: number;
  /** Products that already had their tags in Shopify (only our record was behind). */
  alreadyTagged: number;
  /** SKUs Shopify does not know. */
  notInShopify: string[];
  /** As codes (D116). */
  problems: RunMessage[];
}

const lower = (tags: string[]) => new Set(tags.map((tag) => tag.toLowerCase()));
const missingFrom = (have: string[], wanted: string[]) => {
  const present = lower(have);
  return wanted.filter((tag) => !present.has(tag.toLowerCase()));
};
const numericId = (gid: string) => gid.split("/").pop() ?? gid;

/** Products of mapped categories whose last-seen Shopify tags lack one of the mapping's tags, a page at a time. */
async function* dueProducts(): AsyncGenerator<DueProduct[]> {
  const mappings = await prisma.categoryTagsMapping.findMany({ select: { as400_category_id: true, shopify_tags: true } });
  const wantedByCategory = new Map(mappings.map((mapping) => [mapping.as400_category_id, tagsOf(mapping.shopify_tags)]));
  if (wantedByCategory.size === 0) return;
  let afterId = 0;
  for (;;) {
    const page = await prisma.product.findMany({
      where: { id: { gt: afterId }, as400_category_id: { in: [...wantedByCategory.keys()] } },
      select: { id: true, sku: true, as400_category_id: true, shopify_tags: true },
      orderBy: { id: "asc" },
      take: PRODUCTS_PER_PAGE,
    });
    if (page.length === 0) return;
    afterId = page[page.length - 1].id;
    const due = page
      .map((product) => ({
        id: product.id,
        sku: product.sku,
        wanted: wantedByCategory.get(product.as400_category_id!) ?? [],
        have: tagsOf(product.shopify_tags),
      }))
      .filter((product) => missingFrom(product.have, product.wanted).length > 0)
      .map(({ id, sku, wanted }) => ({ id, sku, wanted }));
    if (due.length) yield due;
  }
}

/** Records what Shopify holds for these products (one statement). */
async function storeShopifyState(rows: Array<{ id: number; productId: string; tags: string[] }>) {
  if (rows.length === 0) return;
  await prisma.$executeRaw`
    UPDATE product p SET shopify_product_id = s.product_id, shopify_tags = s.tags, updated_at = now()
      FROM unnest(${rows.map((row) => row.id)}::int[], ${rows.map((row) => numericId(row.productId))}::text[],
        ${rows.map((row) => row.tags.join(", "))}::text[])
        AS s(id, product_id, tags)
     WHERE p.id = s.id`;
}

async function syncBatch(admin: ShopifyAdmin, batch: DueProduct[], result: ProductSyncResult) {
  const query = batch.map((product) => skuSearchTerm(product.sku)).join(" OR ");
  // Shopify's search is not exact: one search can match more variants than a page holds (D165).
  const variants = await readAllPages(async (after) => (await admin.run(ProductsBySku, { query, after })).productVariants, "ProductsBySku");
  const bySku = new Map(batch.map((product) => [product.sku, product]));
  // Several of our SKUs can be variants of one Shopify product: its tags are the union of theirs.
  const byProduct = new Map<string, { tags: string[]; wanted: string[]; members: DueProduct[] }>();
  for (const variant of variants) {
    const product = variant.sku ? bySku.get(variant.sku) : undefined; // Shopify's search is not exact
    if (!product) continue;
    const entry = byProduct.get(variant.product.id) ?? { tags: variant.product.tags, wanted: [], members: [] };
    if (!entry.members.includes(product)) entry.members.push(product);
    entry.wanted.push(...missingFrom(entry.wanted, product.wanted));
    byProduct.set(variant.product.id, entry);
  }
  const found = new Set([...byProduct.values()].flatMap((entry) => entry.members.map((member) => member.sku)));
  result.notInShopify.push(...batch.filter((product) => !found.has(product.sku)).map((product) => product.sku));
  result.checked += found.size;

  const stored: Array<{ id: number; productId: string; tags: string[] }> = [];
  for (const [productId, entry] of byProduct) {
    const missing = missingFrom(entry.tags, entry.wanted);
    let tags = entry.tags;
    if (missing.length === 0) {
      result.alreadyTagged += entry.members.length;
    } else {
      const skus = entry.members.map((member) => member.sku).join(", ");
      const { tagsAdd } = await admin.run(ProductTagsAdd, { id: productId, tags: missing }, { sku: entry.members[0].sku });
      const refusals = tagsAdd?.userErrors ?? [];
      const node = tagsAdd?.node;
      if (refusals.length || !node) {
        result.problems.push(
          message("logs.product_sync.tags_refused", {
            skus,
            tags: missing.join(", "),
            errors: refusals.map((error) => error.message).join("; ") || message("logs.product_sync.no_product"),
          }),
        );
        continue;
      }
      tags = ("tags" in node ? node.tags : undefined) ?? [...entry.tags, ...missing];
      result.tagged += 1;
    }
    for (const member of entry.members) stored.push({ id: member.id, productId, tags });
  }
  await storeShopifyState(stored);
}

/** Applies the mappings' tags to Shopify products; safe to run again at any point. */
export async function syncProductTags(context?: Pick<FeedRunContext, "progress" | "signal">): Promise<ProductSyncResult> {
  const result: ProductSyncResult = { checked: 0, tagged: 0, alreadyTagged: 0, notInShopify: [], problems: [] };
  let admin: ShopifyAdmin | null = null;
  try {
    for await (const page of dueProducts()) {
      admin ??= await jobsShopifyAdmin();
      for (let i = 0; i < page.length; i += SKUS_PER_READ) {
        if (context?.signal.aborted) {
          result.problems.push(message("logs.product_sync.stopped_early"));
          return result;
        }
        await syncBatch(admin, page.slice(i, i + SKUS_PER_READ), result);
        await context?.progress({ checked: result.checked, tagged: result.tagged });
      }
    }
  } catch (error) {
    // Shopify unreachable or refusing: stop here; what was done is stored, the rest goes next run.
    if (!(error instanceof ShopifyApiError)) throw error;
    result.problems.push(plainText(`Shopify: ${error.message}`)); // Shopify's words: data (D115)
  } finally {
    await flushShopifyCallRecords();
  }
  return result;
}

/** The feed: registered in jobs/registry.ts. */
export async function productSyncJob(context: FeedRunContext): Promise<FeedOutcome> {
  const catalog: CatalogReport = { counts: {}, problems: [] };
  await importProductCatalogFiles(catalog, context);
  const result = await syncProductTags(context);
  const c = (key: string) => catalog.counts[key] ?? 0;
  const unknown = result.notInShopify.length;
  const problems = [...catalog.problems, ...result.problems];
  const summary = message(unknown ? "logs.product_sync.summary_unknown" : "logs.product_sync.summary", {
    files: message("logs.n.catalogue_file", { count: c("catalog_files_applied") }),
    inserted: c("products_inserted"),
    updated: c("products_updated"),
    tagged: message("logs.n.shopify_product", { count: result.tagged }),
    checked: result.checked,
    already: result.alreadyTagged,
    skus: message("logs.n.sku", { count: unknown }),
  });
  const coded = withProblems(message("logs.list", { items: [summary] }), problems);
  return {
    message: englishText(coded),
    messageCode: coded,
    error: problems.length > 0,
    meta: {
      ...catalog.counts,
      checked: result.checked,
      tagged: result.tagged,
      already_tagged: result.alreadyTagged,
      not_in_shopify: result.notInShopify.slice(0, 50),
      problems: problems.slice(0, 50).map(englishText),
      ...(problems.length ? { problem_codes: problems.slice(0, 50) } : {}),
    },
  };
}
