// The Products area over real HTTP, on a database of its own with no demo data:
// category-tag mapping CRUD (spec 001 §5, §7; 422 per field with the exact
// texts), the products grid, and a Shopify call made by the app showing up in
// Product API Operations.
import { describe, expect, it } from "vitest";
import { useAppWithDatabase } from "../support/app-with-database";

const suite = useAppWithDatabase("products_http", { SEED_DEMO_DATA: "0" }, 2);

const get = async (path: string) => {
  const response = await fetch(`${suite.app.url}${path}`);
  return { status: response.status, body: await response.json() };
};
const postJson = async (body: Record<string, unknown>) => {
  const response = await fetch(`${suite.app.url}/api/category_tags_mapping`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
};
const postForm = async (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  const response = await fetch(`${suite.app.url}/api/category_tags_mapping`, { method: "POST", body: form });
  return { status: response.status, body: await response.json() };
};
const categories = (body: { data: { data: Array<{ as400_category_id: string }> } }) => body.data.data.map((row) => row.as400_category_id);

describe("category-tag mappings", () => {
  it("creates, lists (as400_category_id ascending), loads, updates and deletes a mapping", async () => {
    const created = await postJson({ as400_category_id: " CAT-20 ", shopify_tags: "hiking,  Outdoor , hiking,," });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ error: false, message: null, data: { as400_category_id: "CAT-20", shopify_tags: "hiking, Outdoor" } });
    await postJson({ as400_category_id: "CAT-03", shopify_tags: "camping" });
    await postJson({ as400_category_id: "BOOTS", shopify_tags: "footwear" });

    const list = await get("/api/category_tags_mapping");
    expect(list.status).toBe(200);
    expect(categories(list.body)).toEqual(["BOOTS", "CAT-03", "CAT-20"]);
    expect(list.body.data).toMatchObject({ total: 3, last_page: 1, current_page: 1 });
    const actions = list.body.columns.find((column: { key: string }) => column.key === "actions");
    expect(actions.settings.links[0]).toMatchObject({ path: "/product/category_tags_mapping/edit", field: "id", field_request_name: "id", label: "Edit" });
    expect(categories((await get("/api/category_tags_mapping?sort_dir=desc")).body)).toEqual(["CAT-20", "CAT-03", "BOOTS"]);
    expect(categories((await get("/api/category_tags_mapping?shopify_tags=foot")).body)).toEqual(["BOOTS"]);

    const id = created.body.data.id as number;
    const loaded = await get(`/api/category_tags_mapping?id=${id}`);
    expect(loaded).toMatchObject({ status: 200, body: { id, as400_category_id: "CAT-20", shopify_tags: "hiking, Outdoor" } });

    // The form sends JSON; a form post with _method=PUT and the id works the same.
    const updated = await postForm({ id: String(id), _method: "PUT", as400_category_id: "CAT-20", shopify_tags: "hiking, trail" });
    expect(updated).toMatchObject({ status: 200, body: { error: false, data: { id, shopify_tags: "hiking, trail" } } });
    expect(await suite.db.categoryTagsMapping.findUniqueOrThrow({ where: { id } })).toMatchObject({
      as400_category_id: "CAT-20",
      shopify_tags: "hiking, trail",
    });

    const deleted = await postForm({ id: String(id), _method: "DELETE" });
    expect(deleted).toEqual({ status: 200, body: { error: false, message: null } });
    expect(await suite.db.categoryTagsMapping.findUnique({ where: { id } })).toBeNull();
    expect((await get(`/api/category_tags_mapping?id=${id}`)).status).toBe(404);
  });

  it("answers 422 per field when a field is empty, with the exact texts, and saves nothing", async () => {
    const before = await suite.db.categoryTagsMapping.count();
    const both = await postJson({ as400_category_id: "  ", shopify_tags: "" });
    expect(both.status).toBe(422);
    expect(both.body.errors).toEqual({
      as400_category_id: ["AS400 Category ID is a required field."],
      shopify_tags: ["Shopify Tags is a required field."],
    });
    const onlyCommas = await postForm({ as400_category_id: "CAT-99", shopify_tags: " , ," });
    expect(onlyCommas).toMatchObject({ status: 422, body: { errors: { shopify_tags: ["Shopify Tags is a required field."] } } });
    expect(Object.keys(onlyCommas.body.errors)).toEqual(["shopify_tags"]);
    const missingCategory = await postJson({ shopify_tags: "sale" });
    expect(missingCategory).toMatchObject({ status: 422, body: { errors: { as400_category_id: ["AS400 Category ID is a required field."] } } });
    expect(Object.keys(missingCategory.body.errors)).toEqual(["as400_category_id"]);
    expect(await suite.db.categoryTagsMapping.count()).toBe(before);
  });

  it("refuses a second mapping of the same category, in the request's language, and an unknown id", async () => {
    await postJson({ as400_category_id: "DUP-1", shopify_tags: "one" });
    const again = await postJson({ as400_category_id: "DUP-1", shopify_tags: "two" });
    expect(again).toMatchObject({ status: 422, body: { errors: { as400_category_id: ["A mapping for AS400 category DUP-1 already exists."] } } });
    const german = await fetch(`${suite.app.url}/api/category_tags_mapping?locale=de`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect((await german.json()).errors.shopify_tags).toEqual(["Shopify-Tags ist ein Pflichtfeld."]);
    expect((await postJson({ id: 99999999, as400_category_id: "X", shopify_tags: "y" })).status).toBe(404);
    expect((await postJson({ id: "abc", as400_category_id: "X", shopify_tags: "y" })).status).toBe(404);
  });
});

describe("products and the API records", () => {
  it("lists products by sku ascending with prices as text", async () => {
    await suite.db.product.createMany({
      data: [
        { sku: "SKU-300", name: "Camp Mug", price: "12.5", as400_category_id: "CAT-03", status: "active" },
        { sku: "SKU-100", name: "Trail Runner", price: "129.95", as400_category_id: "CAT-20", status: "draft" },
        { sku: "SKU-200", name: "Rain Parka", price: "89", status: "archived" },
      ],
    });
    const { status, body } = await get("/api/product");
    expect(status).toBe(200);
    expect(body.data.data.map((row: { sku: string }) => row.sku)).toEqual(["SKU-100", "SKU-200", "SKU-300"]);
    expect(body.data.data[0]).toMatchObject({ name: "Trail Runner", price: "129.95", status: "draft" });
    expect(body.columns.find((column: { key: string }) => column.key === "status").options).toEqual({ active: "Active", draft: "Draft", archived: "Archived" });
    expect((await get("/api/product?status=archived")).body.data.data.map((row: { sku: string }) => row.sku)).toEqual(["SKU-200"]);
    expect((await get("/api/product?sort=price&sort_dir=desc")).body.data.data.map((row: { price: string }) => row.price)).toEqual([
      "129.95",
      "89.00",
      "12.50",
    ]);
    expect((await get("/api/product?sort=nope")).status).toBe(422);
  });

  it("records a Shopify call the app makes as an operation, newest first, with its request and answer", async () => {
    const order = await suite.db.order.create({
      data: { order_id: "100077001", shopify_order_id: "5812345679001", items: { create: [{ sku: "SKU-100", name: "Trail Runner", qty_ordered: 1 }] } },
    });
    const sync = await get(`/api/advancedordergrid_forcesync?id=${order.id}`);
    expect(sync.status).toBe(200);

    // Records are written in batches a moment after the call.
    await expect.poll(async () => (await get("/api/product_api_operation?operation=OrderRead")).body.data.total, { timeout: 10_000 }).toBe(1);
    const operations = await get("/api/product_api_operation");
    expect(operations.body.data.data[0]).toMatchObject({
      operation: "OrderRead",
      status: "success",
      request: { variables: { id: "gid://shopify/Order/5812345679001" } },
      response: { answer: { order: { id: "gid://shopify/Order/5812345679001", name: "#100077001" } } },
    });
    const times = operations.body.data.data.map((row: { created_at: string }) => row.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect((await get("/api/product_api_error")).body.data.total).toBe(0);
  });
});
