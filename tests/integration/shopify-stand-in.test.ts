// The Shopify module in local mode goes to the loopback stand-in, which
// answers the app's operations and records what was sent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startShopifyStandIn } from "../../app/shopify/stand-in.server";

let standIn: Awaited<ReturnType<typeof startShopifyStandIn>>;
beforeAll(async () => {
  standIn = await startShopifyStandIn({ shop: "demo-shop.myshopify.com" });
  process.env.SHOPIFY_STAND_IN_URL = standIn.url;
});
afterAll(() => standIn.stop());

describe("Shopify Admin GraphQL through the stand-in", () => {
  it("runs typed operations and records each call", async () => {
    const { shopifyAdminFor } = await import("../../app/shopify/admin-client.server");
    const { OrderRead, ShopInfo } = await import("../../app/shopify/operations");
    const admin = shopifyAdminFor({ mode: "local", shop: "demo-shop.myshopify.com" });

    const { shop } = await admin.run(ShopInfo, {});
    expect(shop.myshopifyDomain).toBe("demo-shop.myshopify.com");
    expect(shop.currencyCode).toBe("USD");

    const { order } = await admin.run(OrderRead, { id: "gid://shopify/Order/5812345670007" });
    expect(order?.name).toBe("#5812345670007");

    const recorded = (await (await fetch(`${standIn.url}/__calls`)).json()) as Array<{ operation: string; variables: unknown }>;
    expect(recorded.map((call) => call.operation)).toEqual(["ShopInfo", "OrderRead"]);
    expect(recorded[1].variables).toEqual({ id: "gid://shopify/Order/5812345670007" });
  });

  it("fails clearly on an operation it does not know", async () => {
    const { shopifyAdminFor, ShopifyApiError } = await import("../../app/shopify/admin-client.server");
    const admin = shopifyAdminFor({ mode: "local", shop: "demo-shop.myshopify.com" });
    const unknown = { name: "Nope", document: "query Nope { nope }" };
    const error = await admin.run(unknown, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopifyApiError);
    expect((error as Error).message).toContain("does not answer Nope");
  });
});
