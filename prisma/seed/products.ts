// Demo data of the Products area, on top of the products and mappings demo.ts
// creates (other areas' orders and stock use those): some products already
// carry their mapping's tags in Shopify, as after an earlier product sync, and
// the API records look like the Shopify module's own (app/shopify/call-records.server.ts):
// the app's real operations, request and answer summaries, and an error row
// for every failed operation. Deterministic: no randomness, only the index.
import type { PrismaClient } from "../../app/db/client.server";
import type { Prisma } from "../../app/db/generated/client";

const HOUR = 3_600_000;

const gid = (type: string, n: number) => `gid://shopify/${type}/${n}`;
const tagsOf = (text: string) =>
  text
    .split(",")
    .map((tag) => tag.trim())
    .filter(Boolean);

interface DemoCall {
  operation: string;
  sku: string | null;
  ok: boolean;
  message?: string;
  variables: Record<string, unknown>;
  answer: unknown;
}

/** One demo call per index, cycling through what the app really sends. */
function demoCall(i: number, product: { sku: string; tags: string[]; shopifyId: number }, order: number): DemoCall {
  switch (i % 6) {
    case 0:
      return {
        operation: "ProductsBySku",
        sku: null,
        ok: true,
        variables: { query: `sku:"${product.sku}" OR sku:"SKU-${Number(product.sku.slice(4)) + 1}"` },
        answer: {
          productVariants: {
            nodes: [
              { id: gid("ProductVariant", product.shopifyId + 37_000_000_000), sku: product.sku, product: { id: gid("Product", product.shopifyId), tags: [] } },
            ],
          },
        },
      };
    case 1:
      return i % 12 === 7
        ? {
            operation: "ProductTagsAdd",
            sku: product.sku,
            ok: false,
            message: "Product does not exist",
            variables: { id: gid("Product", product.shopifyId), tags: product.tags },
            answer: { tagsAdd: { node: null, userErrors: [{ field: ["id"], message: "Product does not exist" }] } },
          }
        : {
            operation: "ProductTagsAdd",
            sku: product.sku,
            ok: true,
            variables: { id: gid("Product", product.shopifyId), tags: product.tags },
            answer: { tagsAdd: { node: { id: gid("Product", product.shopifyId), tags: [...product.tags].sort() }, userErrors: [] } },
          };
    case 2:
      return {
        operation: "OrderFulfillmentState",
        sku: product.sku,
        ok: true,
        variables: { id: gid("Order", order) },
        answer: {
          order: {
            id: gid("Order", order),
            name: `#${order}`,
            fulfillments: [],
            fulfillmentOrders: { nodes: [{ id: gid("FulfillmentOrder", order), status: "OPEN" }] },
          },
        },
      };
    case 3:
      return i % 12 === 3
        ? {
            operation: "FulfillmentCreate",
            sku: product.sku,
            ok: false,
            message: "Invalid fulfillment order line item quantity requested.",
            variables: {
              fulfillment: {
                lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: gid("FulfillmentOrder", order) }],
                trackingInfo: { number: `1Z999AA1${String(order).slice(-8)}`, company: "UPS" },
              },
            },
            answer: {
              fulfillmentCreate: {
                fulfillment: null,
                userErrors: [{ field: ["fulfillment"], message: "Invalid fulfillment order line item quantity requested." }],
              },
            },
          }
        : {
            operation: "FulfillmentCreate",
            sku: product.sku,
            ok: true,
            variables: {
              fulfillment: {
                lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: gid("FulfillmentOrder", order) }],
                trackingInfo: { number: `1Z999AA1${String(order).slice(-8)}`, company: "UPS" },
              },
            },
            answer: { fulfillmentCreate: { fulfillment: { id: gid("Fulfillment", order * 10 + 1), status: "SUCCESS" }, userErrors: [] } },
          };
    case 4:
      return {
        operation: "InventorySetQuantities",
        sku: null,
        ok: true,
        variables: {
          input: {
            name: "available",
            reason: "correction",
            ignoreCompareQuantity: true,
            quantities: [{ inventoryItemId: gid("InventoryItem", product.shopifyId + 5), quantity: 12 }],
          },
        },
        answer: { inventorySetQuantities: { inventoryAdjustmentGroup: { reason: "correction", changes: [{ name: "available", delta: 4 }] }, userErrors: [] } },
      };
    default:
      return i % 30 === 5
        ? {
            operation: "OrderRead",
            sku: null,
            ok: false,
            message: 'Shopify OrderRead failed: [{"message":"Throttled"}]',
            variables: { id: gid("Order", order) },
            answer: [{ message: "Throttled", extensions: { code: "THROTTLED" } }],
          }
        : {
            operation: "OrderRead",
            sku: null,
            ok: true,
            variables: { id: gid("Order", order) },
            answer: { order: { id: gid("Order", order), name: `#${order}`, displayFulfillmentStatus: "UNFULFILLED", displayFinancialStatus: "PAID" } },
          };
  }
}

export async function seedProductData(db: PrismaClient, now: Date): Promise<void> {
  const mappings = await db.categoryTagsMapping.findMany({ select: { as400_category_id: true, shopify_tags: true } });
  const tagsByCategory = new Map(mappings.map((mapping) => [mapping.as400_category_id, tagsOf(mapping.shopify_tags)]));
  const products = await db.product.findMany({ select: { id: true, sku: true, as400_category_id: true, shopify_product_id: true }, orderBy: { sku: "asc" } });

  // Every third product linked to Shopify already has its tags there; the product sync tags the rest.
  const tagged = products.filter((product, i) => i % 3 === 0 && product.shopify_product_id && tagsByCategory.has(product.as400_category_id ?? ""));
  for (const product of tagged) {
    await db.product.update({ where: { id: product.id }, data: { shopify_tags: tagsByCategory.get(product.as400_category_id!)!.join(", ") } });
  }

  const operations: Prisma.ProductApiOperationCreateManyInput[] = [];
  const errors: Prisma.ProductApiErrorCreateManyInput[] = [];
  for (let i = 0; i < 90; i++) {
    const product = products[(i * 7) % products.length];
    const call = demoCall(
      i,
      { sku: product.sku, tags: tagsByCategory.get(product.as400_category_id ?? "") ?? ["demo"], shopifyId: 8_100_000_000 + product.id },
      5_812_345_670_000 + i,
    );
    const at = new Date(now.getTime() - i * 0.8 * HOUR);
    const request = { variables: call.variables } as Prisma.InputJsonValue;
    const response = { duration_ms: 120 + ((i * 37) % 400), answer: call.answer } as Prisma.InputJsonValue;
    operations.push({ operation: call.operation, sku: call.sku, status: call.ok ? "success" : "error", request, response, created_at: at });
    if (!call.ok)
      errors.push({
        operation: call.operation,
        sku: call.sku,
        message: call.message ?? "Shopify call failed",
        payload: { request, response } as Prisma.InputJsonValue,
        created_at: at,
      });
  }
  await db.productApiOperation.createMany({ data: operations });
  await db.productApiError.createMany({ data: errors });
}
