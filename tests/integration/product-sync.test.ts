// The Shopify module's records (every call an operation, every failure an
// error too) and the product sync feed, against the stand-in over our own
// database: what would have been sent to Shopify is read back from the
// stand-in's recorded calls.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../app/db/client.server";
import { databaseCatalog } from "../../app/shopify/stand-in-catalog.server";
import { startShopifyStandIn } from "../../app/shopify/stand-in.server";
import { startLoopbackAs400 } from "../support/loopback-as400";
import { useShopifyStandIn, type ShopifyModules, type ShopifyStandIn } from "../support/shopify-stand-in";

// Rows of this file carry this tag, so cleaning up never touches another file's.
const tag = `PS${randomBytes(3).toString("hex").toUpperCase()}`;
const category = (name: string) => `${tag}-${name}`;
const sku = (n: number) => `${tag}-${String(n).padStart(3, "0")}`;

const suite = useShopifyStandIn({
  catalog: true,
  cleanUp: async (prisma) => {
    await prisma.product.deleteMany({ where: { sku: { startsWith: tag } } });
    await prisma.categoryTagsMapping.deleteMany({ where: { as400_category_id: { startsWith: tag } } });
    await prisma.productApiOperation.deleteMany({ where: { sku: { startsWith: tag } } });
    await prisma.productApiError.deleteMany({ where: { sku: { startsWith: tag } } });
    await prisma.transmission.deleteMany({ where: { partner: "as400", transaction_set: "product_catalog", file_name: { startsWith: tag } } });
  },
});
let prisma: PrismaClient;
let standIn: ShopifyStandIn;
let modules: ShopifyModules & { sync: typeof import("../../app/products/product-sync.server") };

const recorded = suite.recorded;
const localAdmin = () => modules.client.shopifyAdminFor({ mode: "local", shop: "demo-shop.myshopify.com" });
const operationsFor = (skuValue: string) => prisma.productApiOperation.findMany({ where: { sku: skuValue }, orderBy: { id: "asc" } });

beforeAll(async () => {
  ({ prisma, standIn } = suite);
  modules = { ...suite.modules, sync: await import("../../app/products/product-sync.server") };
});

describe("every Shopify call is recorded", () => {
  it("records a call that succeeds as an operation with its request and answer, and no error", async () => {
    await prisma.product.create({ data: { sku: sku(1), name: "Camp Mug" } });
    const { productVariants } = await localAdmin().run(modules.operations.ProductsBySku, { query: `sku:"${sku(1)}"` }, { sku: sku(1) });
    expect(productVariants.nodes).toHaveLength(1);
    await modules.records.flushShopifyCallRecords();

    const [operation] = await operationsFor(sku(1));
    expect(operation).toMatchObject({ operation: "ProductsBySku", status: "success", request: { variables: { query: `sku:"${sku(1)}"` } } });
    expect(operation.response).toMatchObject({ answer: { productVariants: { nodes: [{ sku: sku(1), product: { tags: [] } }] } } });
    expect(typeof (operation.response as { duration_ms: unknown }).duration_ms).toBe("number");
    expect(await prisma.productApiError.count({ where: { sku: sku(1) } })).toBe(0);
  });

  it("records a refused mutation (userErrors) and a failed call as an operation and an error each", async () => {
    const admin = localAdmin();
    const refused = await admin.run(modules.operations.ProductTagsAdd, { id: "gid://shopify/Product/1", tags: ["x"] }, { sku: sku(2) });
    expect(refused.tagsAdd!.userErrors[0].message).toBe("Product does not exist");
    const failure = await admin
      .run({ name: "NoSuchOperation", document: "query NoSuchOperation { shop { name } }" }, {}, { sku: sku(2) })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(modules.client.ShopifyApiError);
    await modules.records.flushShopifyCallRecords();

    expect((await operationsFor(sku(2))).map((row) => [row.operation, row.status])).toEqual([
      ["ProductTagsAdd", "error"],
      ["NoSuchOperation", "error"],
    ]);
    const errors = await prisma.productApiError.findMany({ where: { sku: sku(2) }, orderBy: { id: "asc" } });
    expect(errors.map((row) => row.operation)).toEqual(["ProductTagsAdd", "NoSuchOperation"]);
    expect(errors[0].message).toBe("Product does not exist");
    expect(errors[0].payload).toMatchObject({ request: { variables: { id: "gid://shopify/Product/1", tags: ["x"] } } });
    expect(errors[1].message).toContain("does not answer NoSuchOperation");
  });

  it("keeps a short summary of a large request, and records what jsonb cannot hold (NUL) instead of dropping it", async () => {
    const answer = await localAdmin().run(modules.operations.ProductsBySku, { query: `sku:"${"A".repeat(10_000)}"` }, { sku: sku(3) });
    expect(answer.productVariants.nodes).toEqual([]);
    // (A product the stand-in does not know: answered without touching the database, which refuses NUL too.)
    const withNul = await localAdmin().run(modules.operations.ProductTagsAdd, { id: "gid://shopify/Product/2", tags: ["a\u0000b"] }, { sku: sku(4) });
    expect(withNul.tagsAdd!.userErrors).toHaveLength(1);
    await modules.records.flushShopifyCallRecords();

    const [large] = await operationsFor(sku(3));
    expect(large.request).toMatchObject({ truncated: true, chars: expect.any(Number) });
    expect((large.request as { text: string }).text).toHaveLength(modules.records.SUMMARY_CHARS);
    const [nul] = await operationsFor(sku(4));
    expect(nul.request).toEqual({ variables: { id: "gid://shopify/Product/2", tags: ["a\ufffdb"] } });
  });

  it("writes the other rows of a batch when PostgreSQL refuses one", async () => {
    const call = (skuValue: string) => ({ operation: "OrderRead", sku: skuValue, ok: true, variables: {}, answer: null, at: new Date(), durationMs: 1 });
    // Half an emoji (a lone surrogate) is valid in JavaScript but jsonb refuses it.
    for (const value of [sku(6), `${sku(6)}\ud83d`, sku(6)]) modules.records.recordShopifyCall(call(value));
    await modules.records.flushShopifyCallRecords();
    expect((await operationsFor(sku(6))).length).toBe(2);
  });

  it("deletes operations and errors past their retention only", async () => {
    const now = new Date();
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
    await prisma.productApiOperation.createMany({
      data: [31, 29].map((days) => ({ operation: "OrderRead", sku: sku(5), status: "success", created_at: daysAgo(days) })),
    });
    await prisma.productApiError.createMany({
      data: [91, 60].map((days) => ({ operation: "OrderRead", sku: sku(5), message: "Throttled", created_at: daysAgo(days) })),
    });
    await modules.records.pruneShopifyCallRecords(now);
    expect((await operationsFor(sku(5))).map((row) => Math.round((now.getTime() - row.created_at.getTime()) / 86_400_000))).toEqual([29]);
    expect(
      (await prisma.productApiError.findMany({ where: { sku: sku(5) } })).map((row) => Math.round((now.getTime() - row.created_at.getTime()) / 86_400_000)),
    ).toEqual([60]);
  });
});

describe("the product sync feed", () => {
  it("applies each mapping's tags once: a second run makes no update", async () => {
    await prisma.categoryTagsMapping.createMany({
      data: [
        { as400_category_id: category("BOOTS"), shopify_tags: "footwear, hiking" },
        { as400_category_id: category("MUGS"), shopify_tags: "camping" },
      ],
    });
    await prisma.product.createMany({
      data: [
        { sku: sku(10), name: "Trail Boot", as400_category_id: category("BOOTS") },
        { sku: sku(11), name: "Summit Boot", as400_category_id: category("BOOTS") },
        { sku: sku(12), name: "Camp Mug", as400_category_id: category("MUGS") },
        { sku: sku(13), name: "No Category" },
      ],
    });

    const first = await modules.sync.syncProductTags();
    expect(first).toMatchObject({ tagged: 3, checked: 3, problems: [], notInShopify: [] });
    const calls = await recorded();
    const tagCalls = calls.filter((call) => call.operation === "ProductTagsAdd");
    expect(tagCalls.map((call) => (call.variables.tags as string[]).join(", ")).sort()).toEqual(["camping", "footwear, hiking", "footwear, hiking"]);
    const products = await prisma.product.findMany({ where: { sku: { in: [sku(10), sku(11), sku(12), sku(13)] } }, orderBy: { sku: "asc" } });
    expect(products.map((product) => product.shopify_tags)).toEqual(["footwear, hiking", "footwear, hiking", "camping", null]);
    expect(products[0].shopify_product_id).toMatch(/^\d+$/);
    // Each call was recorded, the updates under the product's SKU.
    expect((await operationsFor(sku(10))).map((row) => [row.operation, row.status])).toEqual([["ProductTagsAdd", "success"]]);

    await fetch(`${standIn.url}/__calls`, { method: "DELETE" });
    const second = await modules.sync.syncProductTags();
    expect(second).toMatchObject({ tagged: 0, checked: 0 });
    expect(await recorded()).toEqual([]);
    expect((await operationsFor(sku(10))).length).toBe(1);
  });

  it("adds only the tags a product lacks, keeps the ones it has, and reports SKUs Shopify does not know", async () => {
    await prisma.categoryTagsMapping.create({ data: { as400_category_id: category("TENTS"), shopify_tags: "camping, outdoor" } });
    await prisma.product.create({ data: { sku: sku(20), name: "Alpine Tent", as400_category_id: category("TENTS") } });
    // Shopify already has one of the two tags, and one of its own.
    const admin = localAdmin();
    const { productVariants } = await admin.run(modules.operations.ProductsBySku, { query: `sku:"${sku(20)}"` });
    await admin.run(modules.operations.ProductTagsAdd, { id: productVariants.nodes[0].product.id, tags: ["Camping", "clearance"] });
    await fetch(`${standIn.url}/__calls`, { method: "DELETE" });

    const result = await modules.sync.syncProductTags();
    expect(result).toMatchObject({ tagged: 1, problems: [] });
    const tagCalls = (await recorded()).filter((call) => call.operation === "ProductTagsAdd");
    expect(tagCalls.map((call) => call.variables.tags)).toEqual([["outdoor"]]);
    expect((await prisma.product.findUniqueOrThrow({ where: { sku: sku(20) } })).shopify_tags).toBe("Camping, clearance, outdoor");

    // A mapping changed: only the new tag goes out, at the next run.
    await prisma.categoryTagsMapping.update({ where: { as400_category_id: category("TENTS") }, data: { shopify_tags: "camping, outdoor, tents" } });
    await fetch(`${standIn.url}/__calls`, { method: "DELETE" });
    await modules.sync.syncProductTags();
    expect((await recorded()).filter((call) => call.operation === "ProductTagsAdd").map((call) => call.variables.tags)).toEqual([["tents"]]);

    // A SKU the catalog (Shopify) does not know: reported, nothing updated.
    const ghost = await prisma.product.create({ data: { sku: sku(21), name: "Ghost", as400_category_id: category("TENTS") } });
    const stand = await startShopifyStandIn({ catalog: { ...databaseCatalog(prisma), variants: async (skus) => skus.filter((value) => value !== ghost.sku) } });
    process.env.SHOPIFY_STAND_IN_URL = stand.url;
    const { reloadEnv } = await import("../../app/env.server");
    reloadEnv();
    try {
      const withGhost = await modules.sync.syncProductTags();
      expect(withGhost.notInShopify).toEqual([ghost.sku]);
      expect(stand.calls.filter((call) => call.operation === "ProductTagsAdd")).toEqual([]);
    } finally {
      await stand.stop();
      process.env.SHOPIFY_STAND_IN_URL = standIn.url;
      reloadEnv();
    }
  });

  it("tags a product whose variant comes on the second page of a search (120 variants match one search of 50 SKUs)", async () => {
    await prisma.categoryTagsMapping.create({ data: { as400_category_id: category("PAGES"), shopify_tags: "paged" } });
    const wanted = Array.from({ length: 50 }, (_, i) => `${tag}-PG${String(i + 1).padStart(2, "0")}`);
    // 70 more products whose SKUs the search for PG01 also matches (Shopify's search is not exact): PG31–PG50 come after the first 100.
    const others = Array.from({ length: 70 }, (_, i) => `${tag}-PG01-X${String(i + 1).padStart(3, "0")}`);
    await prisma.product.createMany({
      data: [
        ...wanted.map((value) => ({ sku: value, name: "Paged", as400_category_id: category("PAGES") })),
        ...others.map((value) => ({ sku: value, name: "Other" })),
      ],
    });
    const result = await modules.sync.syncProductTags();
    expect(result.notInShopify).toEqual([]);
    const searches = (await recorded()).filter((call) => call.operation === "ProductsBySku");
    expect(searches.some((call) => typeof call.variables.after === "string")).toBe(true);
    const last = await prisma.product.findUniqueOrThrow({ where: { sku: `${tag}-PG50` } });
    expect(last.shopify_tags).toBe("paged");
    expect(await prisma.product.count({ where: { sku: { in: wanted }, shopify_tags: "paged" } })).toBe(50);
  });

  it("runs as the product_sync feed, registered once", async () => {
    const { FEED_JOBS } = await import("../../jobs/registry");
    expect(FEED_JOBS.product_sync.run).toBe(modules.sync.productSyncJob);
  });
});

describe("the AS400 product catalogue, read by the product sync feed", () => {
  let root: string;
  let folder: string;
  let sftp: Awaited<ReturnType<typeof startLoopbackAs400>>;
  const context = () => ({ progress: async () => {}, signal: new AbortController().signal, trigger: "manual" as const });
  const catalogFiles = () =>
    prisma.transmission.findMany({ where: { partner: "as400", transaction_set: "product_catalog", file_name: { startsWith: tag } }, orderBy: { id: "asc" } });

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "product-catalog-"));
    sftp = await startLoopbackAs400(root);
    folder = path.join(root, "as400", "products");
    mkdirSync(folder, { recursive: true });
  });

  afterAll(async () => {
    for (const key of ["AS400_TRANSFER_MECHANISM", "AS400_HOST", "AS400_PORT", "AS400_USER", "AS400_PASSWORD", "AS400_HOST_KEY"]) delete process.env[key];
    (await import("../../app/env.server")).reloadEnv();
    await sftp?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it("adds and updates products from a file, reports bad rows, archives the file, and tags the new products in the same run", async () => {
    await prisma.categoryTagsMapping.create({ data: { as400_category_id: category("LAMPS"), shopify_tags: "lighting" } });
    await prisma.product.create({ data: { sku: sku(30), name: "Old Name", price: "10", status: "draft", shopify_tags: "lighting" } });
    writeFileSync(
      path.join(folder, `${tag}_catalog_1.csv`),
      [
        "SKU,Name,Category,Price,Cost,Status,Comment",
        `${sku(30)},Harbor Lantern,${category("LAMPS")},24.95,12.10,Active,renamed`,
        `${sku(31)},"Canyon Lamp, large",${category("LAMPS")},59,,active,new`,
        `${sku(32)},,${category("LAMPS")},5,,active,no name`,
        `${sku(33)},Metro Light,${category("LAMPS")},cheap,,active,bad price`,
      ].join("\r\n"),
    );
    writeFileSync(path.join(folder, `${tag}_notes.txt`), "not a csv: left alone");

    const run = await modules.sync.productSyncJob(context());
    expect(run.meta).toMatchObject({ catalog_files_stored: 1, catalog_files_applied: 1, products_inserted: 1, products_updated: 1, catalog_rows_invalid: 2 });
    expect(run.error).toBe(true);
    expect(run.message).toContain("line 4, name: empty");

    expect(await prisma.product.findUniqueOrThrow({ where: { sku: sku(30) } })).toMatchObject({
      name: "Harbor Lantern",
      as400_category_id: category("LAMPS"),
      status: "active",
    });
    const added = await prisma.product.findUniqueOrThrow({ where: { sku: sku(31) } });
    expect(added).toMatchObject({ name: "Canyon Lamp, large", cost: null, status: "active", shopify_tags: "lighting" });
    expect(added.price.toFixed(2)).toBe("59.00");
    expect(await prisma.product.count({ where: { sku: { in: [sku(32), sku(33)] } } })).toBe(0);
    // The product already tagged (sku 30) was not sent again; the new one was.
    expect((await operationsFor(sku(31))).map((row) => [row.operation, row.status])).toEqual([["ProductTagsAdd", "success"]]);
    expect(await operationsFor(sku(30))).toEqual([]);

    const [stored] = await catalogFiles();
    expect(stored).toMatchObject({ status: "processed", direction: "in", remote_path: `/as400/products/${tag}_catalog_1.csv` });
    expect(stored.error).toContain("line 5, price");
    expect(readdirSync(folder).sort()).toEqual([`${tag}_notes.txt`, "archive"].sort());
    expect(readdirSync(path.join(folder, "archive"))).toEqual([`${tag}_catalog_1.csv`]);
  });

  it("applies the same content under another name as a new file (D59), and a file that is not a catalogue never blocks the next", async () => {
    await prisma.product.update({ where: { sku: sku(31) }, data: { name: "Changed by hand" } });
    const [first] = await catalogFiles();
    writeFileSync(path.join(folder, `${tag}_catalog_1_again.csv`), Buffer.from(first.content));
    writeFileSync(path.join(folder, `${tag}_catalog_2.csv`), "order_id,magento_status\n1,complete\n");
    writeFileSync(path.join(folder, `${tag}_catalog_3.csv`), `sku,name,price\n${sku(31)},Canyon Lamp XL,64.50\n`);

    const run = await modules.sync.productSyncJob(context());
    // The resend is a delivery of its own: applied (it puts sku 31's name back), then catalog_3 changes it again.
    expect(run.meta).toMatchObject({ catalog_files_stored: 3, catalog_files_failed: 1, catalog_files_applied: 2, products_updated: 3 });
    expect(run.meta).not.toHaveProperty("catalog_files_seen_before");
    expect(run.message).toContain("not a product catalogue file: missing required columns sku, name");
    const product = await prisma.product.findUniqueOrThrow({ where: { sku: sku(31) } });
    // Only the columns the file has change: the category and status stay.
    expect(product).toMatchObject({ name: "Canyon Lamp XL", as400_category_id: category("LAMPS"), status: "active" });
    expect(product.price.toFixed(2)).toBe("64.50");
    expect((await catalogFiles()).map((file) => file.status)).toEqual(["processed", "processed", "failed", "processed"]);
    expect(readdirSync(folder).sort()).toEqual([`${tag}_notes.txt`, "archive"].sort());
  });
});
