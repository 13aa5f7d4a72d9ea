import { readFileSync } from "node:fs";
import { ApiVersion } from "@shopify/shopify-api";
import { describe, expect, it } from "vitest";
import { ADMIN_API_VERSION } from "../../scripts/shopify-admin-schema.mjs";
import {
  FulfillmentOrderLines,
  ORDER_FULFILLMENT_PAGES,
  OrderFulfillmentOrders,
  OrderFulfillmentState,
  ORDERS_FULFILLMENT_PAGES,
  OrdersFulfillmentState,
} from "./operations";

/** The `first:` of a field in a document (the first such field). */
const firstIn = (document: string, field: string) => Number(new RegExp(`\\b${field}\\(first: (\\d+)`).exec(document)?.[1]);

describe("the Admin operations", () => {
  it("read OrdersFulfillmentState's pages at the sizes the fulfilment code expects", () => {
    const first = (connection: string) => Number(new RegExp(`\\b${connection}\\(first: (\\d+)\\)`).exec(OrdersFulfillmentState.document)?.[1]);
    expect({
      fulfillments: first("fulfillments"),
      trackingInfo: first("trackingInfo"),
      fulfillmentOrders: first("fulfillmentOrders"),
      lineItems: first("lineItems"),
    }).toEqual(ORDERS_FULFILLMENT_PAGES);
  });

  it("read one order's fulfillment orders and their lines at the sizes D165 costs", () => {
    expect({
      fulfillments: firstIn(OrderFulfillmentState.document, "fulfillments"),
      trackingInfo: firstIn(OrderFulfillmentState.document, "trackingInfo"),
      fulfillmentOrders: firstIn(OrderFulfillmentState.document, "fulfillmentOrders"),
      lineItems: firstIn(OrderFulfillmentState.document, "lineItems"),
      moreFulfillmentOrders: firstIn(OrderFulfillmentOrders.document, "fulfillmentOrders"),
      moreLineItems: firstIn(FulfillmentOrderLines.document, "lineItems"),
    }).toEqual(ORDER_FULFILLMENT_PAGES);
    expect(firstIn(OrderFulfillmentOrders.document, "lineItems")).toBe(ORDER_FULFILLMENT_PAGES.lineItems);
  });

  it("are typed against the version the app and its webhooks pin", () => {
    const pinned = /ApiVersion\.(\w+)/.exec(readFileSync("app/shopify.server.ts", "utf8"))?.[1] as keyof typeof ApiVersion;
    expect(ApiVersion[pinned]).toBe(ADMIN_API_VERSION);
    expect(/api_version = "([\d-]+)"/.exec(readFileSync("shopify.app.toml", "utf8"))?.[1]).toBe(ADMIN_API_VERSION);
  });
});
