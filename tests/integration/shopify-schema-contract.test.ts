// Shopify's published Admin schema (app/shopify/schema/) is the contract: every
// operation the app sends is valid for it, selects only what the app's scopes
// cover, and the stand-in answers only what the schema allows (D160-D162).
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { parse, validate, type GraphQLEnumType } from "graphql";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { APP_SCOPES, expandScopes } from "../../app/shopify/access-scopes";
import { deniedFields } from "../../app/shopify/admin-access.server";
import { adminSchema } from "../../app/shopify/admin-schema.server";
import * as operations from "../../app/shopify/operations";
import { shapeAnswer, StandInAnswerViolation } from "../../app/shopify/stand-in/answer.server";
import { startShopifyStandIn, type RecordedCall, type StandInCatalog } from "../../app/shopify/stand-in.server";
import { postToStandIn } from "../support/shopify-stand-in";
import { sessionToken } from "../support/embedded-app";

const admin = adminSchema();
/** Every operation of app/shopify/operations.ts, by name. */
const all = Object.values(operations).filter(
  (value): value is { name: string; document: string } => typeof value === "object" && value !== null && "document" in value && "name" in value,
);

let standIn: Awaited<ReturnType<typeof startShopifyStandIn>>;
beforeAll(async () => {
  standIn = await startShopifyStandIn();
  process.env.SHOPIFY_STAND_IN_URL = standIn.url;
});
afterAll(() => standIn.stop());
beforeEach(async () => {
  await fetch(`${standIn.url}/__state`, { method: "DELETE" });
});

const post = postToStandIn;
const SAMPLE_ORDER = "gid://shopify/Order/5812345670401";
const calls = async () => (await (await fetch(`${standIn.url}/__calls`)).json()) as RecordedCall[];
const grant = (scopes: string[]) => fetch(`${standIn.url}/__scopes`, { method: "PUT", body: JSON.stringify({ scopes }) });

describe("the app's operations against Shopify's 2026-10 schema", () => {
  it("are found in operations.ts", () => {
    expect(all.length).toBeGreaterThanOrEqual(15);
    expect(all.map((operation) => operation.name)).toContain("FulfillmentCreate");
  });

  it.each(all.map((operation) => [operation.name, operation.document]))("%s is valid", (_name, document) => {
    expect(validate(admin.schema, parse(document)).map((error) => error.message)).toEqual([]);
  });

  it.each(all.map((operation) => [operation.name, operation.document]))("%s selects only what APP_SCOPES cover", (_name, document) => {
    expect(deniedFields(admin, parse(document), APP_SCOPES)).toEqual([]);
  });

  it("shopify.app.toml asks for APP_SCOPES, no more and no less", () => {
    const toml = readFileSync("shopify.app.toml", "utf8");
    const table = /^\[access_scopes\]\s*$([\s\S]*?)(?=^\[)/m.exec(toml)?.[1] ?? "";
    const scopes = /^scopes\s*=\s*"([^"]*)"/m.exec(table)?.[1];
    expect(
      scopes
        ?.split(",")
        .map((scope) => scope.trim())
        .sort(),
    ).toEqual([...APP_SCOPES].sort());
  });

  it("APP_SCOPES holds nothing the app does not need: without any one of them an operation or a webhook topic of the toml is refused", () => {
    const toml = readFileSync("shopify.app.toml", "utf8");
    const topics = [...toml.matchAll(/topics\s*=\s*\[\s*"([^"]+)"/g)].map((match) => match[1]);
    const topicEnum = admin.schema.getType("WebhookSubscriptionTopic") as GraphQLEnumType;
    /** "Requires at least one of the following scopes: read_orders, read_marketplace_orders." or "Requires the `read_locations` scope." */
    const topicScopes = (topic: string) => {
      const description = (topicEnum.getValue(topic.replace("/", "_").toUpperCase())?.description ?? "").replace(/\s+/g, " ");
      expect(description, `webhook topic ${topic} in the schema`).not.toBe("");
      const sentence = /Requires (?:at least one of the following scopes: ([^.]+)\.|the `([a-z_]+)` scope)/.exec(description);
      return sentence ? (sentence[1] ?? sentence[2]).split(/,\s*/) : [];
    };
    // tagsAdd names no access in the schema; Shopify's page on it asks write access to the tagged resource (D170).
    const beyondTheSchema: Record<string, string> = { write_products: "tagsAdd on a product" };
    for (const scope of APP_SCOPES) {
      const without = APP_SCOPES.filter((each) => each !== scope);
      const covered = expandScopes(without);
      const refusedOperations = all
        .filter((operation) => deniedFields(admin, parse(operation.document), without).length > 0)
        .map((operation) => operation.name);
      const refusedTopics = topics.filter((topic) => {
        const scopes = topicScopes(topic);
        return scopes.length > 0 && !scopes.some((each) => covered.has(each));
      });
      expect([...refusedOperations, ...refusedTopics, ...(beyondTheSchema[scope] ? [beyondTheSchema[scope]] : [])], `what needs ${scope}`).not.toEqual([]);
    }
  });

  it("the access walk sees what a shorter grant leaves out", () => {
    const without = APP_SCOPES.filter((scope) => scope !== "write_merchant_managed_fulfillment_orders");
    expect(deniedFields(admin, parse(operations.FulfillmentCreate.document), without).map((denied) => denied.path.join("."))).toEqual(["fulfillmentCreate"]);
    expect(deniedFields(admin, parse(operations.OrderFulfillmentState.document), without).map((denied) => denied.field)).toEqual([
      "FulfillmentOrderConnection.nodes",
    ]);
    expect(deniedFields(admin, parse(operations.InventoryLevelsBySku.document), ["read_products"]).map((denied) => denied.path.join("."))).toEqual([
      "inventoryItems.nodes.inventoryLevels",
    ]);
  });
});

describe("the stand-in's answer to every operation", () => {
  const money = { shopMoney: { amount: "10.00", currencyCode: "USD" } };
  const address = { lastName: "Doe", address1: "1 Main St", city: "Albany", provinceCode: "NY", countryCode: "US", zip: "12207" };
  const variables: Record<string, () => Promise<Record<string, unknown>>> = {
    ShopInfo: async () => ({}),
    OrderRead: async () => ({ id: "gid://shopify/Order/5812345670401" }),
    OrderFulfillmentState: async () => ({ id: SAMPLE_ORDER }),
    OrdersFulfillmentState: async () => ({ ids: ["gid://shopify/Order/5812345670401", "gid://shopify/Product/1", "gid://shopify/Order/x"] }),
    FulfillmentCreate: async () => ({
      fulfillment: {
        lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: "gid://shopify/FulfillmentOrder/5812345670402" }],
        trackingInfo: { number: "1Z-SWEEP", company: "UPS" },
        notifyCustomer: false,
      },
    }),
    VariantsBySku: async () => ({ query: 'sku:"A-1" OR sku:"B-2"' }),
    Locations: async () => ({}),
    InventorySetQuantities: async () => {
      const [variant] = (await post(standIn.url, operations.VariantsBySku.document, { query: 'sku:"A-1"' })).body.data.productVariants.nodes;
      const [location] = (await post(standIn.url, operations.Locations.document)).body.data.locations.nodes;
      return {
        input: {
          name: "available",
          reason: "correction",
          quantities: [{ inventoryItemId: variant.inventoryItem.id, locationId: location.id, quantity: 3, changeFromQuantity: null }],
        },
        idempotencyKey: "sweep-1",
      };
    },
    ProductsBySku: async () => ({ query: 'sku:"A-1"' }),
    ProductTagsAdd: async () => {
      const [variant] = (await post(standIn.url, operations.ProductsBySku.document, { query: 'sku:"A-1"' })).body.data.productVariants.nodes;
      return { id: variant.product.id, tags: ["sweep"] };
    },
    SpecialOrderByTag: async () => ({ query: 'tag:"special-order-sweep"' }),
    SpecialOrderCreate: async () => ({
      order: {
        currency: "USD",
        email: "customer@example.com",
        lineItems: [
          { sku: "A-1", title: "A", quantity: 1, priceSet: money, requiresShipping: true, taxLines: [{ title: "Tax", rate: 0.08, priceSet: money }] },
        ],
        shippingAddress: address,
        billingAddress: address,
        shippingLines: [{ title: "Ground", priceSet: money }],
        financialStatus: "PAID",
        sourceName: "as400",
        sourceIdentifier: "sweep-1",
        tags: ["special-order-sweep"],
        note: "sweep",
      },
      options: { inventoryBehaviour: "BYPASS", sendReceipt: false },
    }),
    ShopLocations: async () => ({ after: null }),
    InventoryLevelsBySku: async () => ({ query: 'sku:"A-1"', after: null }),
    InventoryItemLevels: async () => {
      const [variant] = (await post(standIn.url, operations.VariantsBySku.document, { query: 'sku:"A-1"' })).body.data.productVariants.nodes;
      return { id: variant.inventoryItem.id, after: null };
    },
    AppAccessScopes: async () => ({}),
    OrderFulfillmentOrders: async () => {
      const { order } = (await post(standIn.url, operations.OrderFulfillmentState.document, { id: SAMPLE_ORDER })).body.data;
      return { id: SAMPLE_ORDER, after: order.fulfillmentOrders.pageInfo.endCursor };
    },
    FulfillmentOrderLines: async () => {
      const { order } = (await post(standIn.url, operations.OrderFulfillmentState.document, { id: SAMPLE_ORDER })).body.data;
      const [fulfillmentOrder] = order.fulfillmentOrders.nodes;
      return { id: fulfillmentOrder.id, after: fulfillmentOrder.lineItems.pageInfo.endCursor };
    },
    FulfillmentOrderMove: async () => {
      const { order } = (await post(standIn.url, operations.OrderFulfillmentState.document, { id: SAMPLE_ORDER })).body.data;
      const [fulfillmentOrder] = order.fulfillmentOrders.nodes;
      const locations = (await post(standIn.url, operations.Locations.document, { after: null })).body.data.locations.nodes;
      return {
        id: fulfillmentOrder.id,
        newLocationId: locations[locations.length - 1].id,
        fulfillmentOrderLineItems: [{ id: fulfillmentOrder.lineItems.nodes[0].id, quantity: 1 }],
      };
    },
  };

  it.each(all.map((operation) => [operation.name, operation.document]))("%s is answered within the schema, without errors", async (name, document) => {
    // A new operation needs its sample variables here, so that its answer is checked too.
    expect(variables[name], `sample variables for ${name} in this test`).toBeDefined();
    const answer = await post(standIn.url, document, await variables[name]());
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data).toBeTruthy();
    const recorded = (await calls()).at(-1)!;
    expect(recorded.operation).toBe(name);
    expect(recorded.violation ?? recorded.invalid ?? recorded.accessDenied).toBeUndefined();
  });
});

describe("a request Shopify would refuse before running it", () => {
  it("answers a syntax error, an unknown field, an unknown argument and bad variables with errors and no data, in Shopify's words", async () => {
    const syntax = await post(standIn.url, "query ShopInfo { shop { name }");
    expect(syntax.status).toBe(200);
    expect(syntax.body).toEqual({ errors: [{ message: "Unexpected end of document", locations: [{ line: 1, column: 31 }] }] });
    const paren = await post(standIn.url, "query ShopInfo { shop() { name } }");
    expect(paren.body.errors).toEqual([{ message: 'Parse error on ")" (RPAREN) at [1, 23]', locations: [{ line: 1, column: 23 }] }]);

    const unknownField = await post(standIn.url, "query ShopInfo { shop { name planName } }");
    expect(unknownField.body).toEqual({
      errors: [
        {
          message: "Field 'planName' doesn't exist on type 'Shop'",
          locations: [{ line: 1, column: 30 }],
          path: ["query ShopInfo", "shop", "planName"],
          extensions: { code: "undefinedField", typeName: "Shop", fieldName: "planName" },
        },
      ],
    });
    const unknownArgument = await post(standIn.url, 'query VariantsBySku { productVariants(first: 1, quer: "sku:A") { nodes { id } } }');
    expect(unknownArgument.body.errors[0]).toMatchObject({
      message: "Field 'productVariants' doesn't accept argument 'quer'",
      path: ["query VariantsBySku", "productVariants", "quer"],
      extensions: { code: "argumentNotAccepted", name: "productVariants", typeName: "Field", argumentName: "quer" },
    });
    const wrongLiteral = await post(standIn.url, 'query Locations { locations(first: "ten") { nodes { id } } }');
    expect(wrongLiteral.body.errors[0]).toMatchObject({
      message: `Argument 'first' on Field 'locations' has an invalid value ("ten"). Expected type 'Int'.`,
      extensions: { code: "argumentLiteralsIncompatible" },
    });

    const missing = await post(standIn.url, operations.OrderRead.document, {});
    expect(missing.body).toEqual({
      errors: [
        {
          message: "Variable $id of type ID! was provided invalid value",
          locations: [{ line: 2, column: 19 }],
          extensions: { code: "INVALID_VARIABLE", value: null, problems: [{ path: [], explanation: "Expected value to not be null" }] },
        },
      ],
    });
    const wrongType = await post(standIn.url, operations.ProductTagsAdd.document, { id: "gid://shopify/Product/1", tags: [{ name: "x" }] });
    expect(wrongType.body.errors[0].extensions).toMatchObject({ code: "INVALID_VARIABLE", problems: [{ path: [0] }] });
    const unknownInput = await post(standIn.url, operations.FulfillmentCreate.document, {
      fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: "gid://shopify/FulfillmentOrder/1" }], trackingNumber: "1Z" },
    });
    expect(unknownInput.body.errors[0]).toMatchObject({
      message: "Variable $fulfillment of type FulfillmentInput! was provided invalid value for trackingNumber (Field is not defined on FulfillmentInput)",
      extensions: { code: "INVALID_VARIABLE", problems: [{ path: ["trackingNumber"], explanation: "Field is not defined on FulfillmentInput" }] },
    });

    // Nothing ran or cost anything: the calls are recorded as refused.
    const recorded = await calls();
    expect(recorded.map((call) => call.invalid)).toEqual([
      ["parse"],
      ["parse"],
      ["undefinedField"],
      ["argumentNotAccepted"],
      ["argumentLiteralsIncompatible"],
      ["INVALID_VARIABLE"],
      ["INVALID_VARIABLE"],
      ["INVALID_VARIABLE"],
    ]);
    for (const answer of [syntax, unknownField, missing, unknownInput]) expect(answer.body.data).toBeUndefined();
  });

  it("reaches the app as a failed call", async () => {
    const { shopifyAdminFor, ShopifyApiError } = await import("../../app/shopify/admin-client.server");
    const local = shopifyAdminFor({ mode: "local", shop: "demo-shop.myshopify.com" });
    const error = await local.run({ name: "ShopInfo", document: "query ShopInfo { shop { nme } }" }, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopifyApiError);
    expect((error as Error).message).toContain("Field 'nme' doesn't exist on type 'Shop'");
  });
});

describe("the scopes the shop granted", () => {
  const orderId = "gid://shopify/Order/5812345670321";
  const fulfil = (line: string) => ({
    fulfillment: {
      lineItemsByFulfillmentOrder: [
        { fulfillmentOrderId: "gid://shopify/FulfillmentOrder/5812345670321", fulfillmentOrderLineItems: [{ id: line, quantity: 1 }] },
      ],
      trackingInfo: { number: "1Z-SCOPES-1" },
    },
  });

  it("are APP_SCOPES by default, listed by currentAppInstallation as Shopify lists them (granted, then the reads they imply)", async () => {
    expect(await (await fetch(`${standIn.url}/__scopes`)).json()).toEqual({ scopes: [...APP_SCOPES] });
    const answer = await post(standIn.url, "query AppGrant { currentAppInstallation { accessScopes { handle } } }");
    expect(answer.body.data.currentAppInstallation.accessScopes.map((scope: { handle: string }) => scope.handle)).toEqual([
      ...APP_SCOPES,
      "read_orders",
      "read_products",
      "read_inventory",
      "read_merchant_managed_fulfillment_orders",
    ]);
  });

  it("refuses a fulfilment without a fulfillment-order scope, and changes nothing", async () => {
    const before = await post(standIn.url, operations.OrderFulfillmentState.document, { id: orderId });
    const [line] = before.body.data.order.fulfillmentOrders.nodes[0].lineItems.nodes;

    expect((await grant(APP_SCOPES.filter((scope) => scope !== "write_merchant_managed_fulfillment_orders"))).status).toBe(200);
    const refused = await post(standIn.url, operations.FulfillmentCreate.document, fulfil(line.id));
    expect(refused.status).toBe(200);
    expect(refused.body.data).toEqual({ fulfillmentCreate: null });
    expect(refused.body.errors).toEqual([
      {
        message:
          "Access denied for fulfillmentCreate field. Required access: `write_assigned_fulfillment_orders` access scope, " +
          "`write_merchant_managed_fulfillment_orders` access scope or `write_third_party_fulfillment_orders` access scope. " +
          "Also: The user must have fulfill_and_ship_orders permission.",
        locations: [{ line: 3, column: 5 }],
        path: ["fulfillmentCreate"],
        extensions: expect.objectContaining({ code: "ACCESS_DENIED", documentation: "https://shopify.dev/api/usage/access-scopes" }),
      },
    ]);
    // The order's fulfillment orders cannot be read either: a non-null list refused, so the order is null.
    const state = await post(standIn.url, operations.OrderFulfillmentState.document, { id: orderId });
    expect(state.body.data).toEqual({ order: null });
    expect(state.body.errors.map((error: { path: string[]; extensions: { code: string } }) => [error.extensions.code, error.path.join(".")])).toEqual([
      ["ACCESS_DENIED", "order.fulfillmentOrders.nodes"],
    ]);
    expect((await calls()).map((call) => call.accessDenied)).toEqual([undefined, ["fulfillmentCreate"], ["order.fulfillmentOrders.nodes"]]);

    // The app sees a failed call, not a fulfilment.
    const { shopifyAdminFor, ShopifyApiError } = await import("../../app/shopify/admin-client.server");
    const local = shopifyAdminFor({ mode: "local", shop: "demo-shop.myshopify.com" });
    const error = await local.run(operations.FulfillmentCreate, fulfil(line.id)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopifyApiError);
    expect((error as Error).message).toContain("ACCESS_DENIED");

    // Given the scope back, the order is as it was: nothing was fulfilled.
    await grant([...APP_SCOPES]);
    const after = await post(standIn.url, operations.OrderFulfillmentState.document, { id: orderId });
    expect(after.body.data).toEqual(before.body.data);
    const created = await post(standIn.url, operations.FulfillmentCreate.document, fulfil(line.id));
    expect(created.body.data.fulfillmentCreate.userErrors).toEqual([]);
  });

  it("are changed by PUT /__scopes (checked) and restored by DELETE /__state", async () => {
    expect((await grant(["read_orders"])).status).toBe(200);
    const answer = await post(standIn.url, "query AppGrant { currentAppInstallation { accessScopes { handle } } }");
    expect(answer.body.data.currentAppInstallation.accessScopes).toEqual([{ handle: "read_orders" }]);
    expect((await fetch(`${standIn.url}/__scopes`, { method: "PUT", body: JSON.stringify({ scopes: "read_orders" }) })).status).toBe(422);
    expect((await fetch(`${standIn.url}/__scopes`, { method: "PUT", body: JSON.stringify({ scopes: ["orders"] }) })).status).toBe(422);
    await fetch(`${standIn.url}/__state`, { method: "DELETE" });
    expect(await (await fetch(`${standIn.url}/__scopes`)).json()).toEqual({ scopes: [...APP_SCOPES] });
  });

  it("are what token exchange grants, as Shopify's answer says", async () => {
    const app = { apiKey: "contract-key", apiSecret: "contract-secret", scopes: "write_orders,read_locations" };
    const own = await startShopifyStandIn({ shop: "contract-shop.myshopify.com", app });
    try {
      const exchange = () =>
        new Promise<{ status: number; body: { access_token?: string; scope?: string } }>((resolve, reject) => {
          const body = JSON.stringify({
            client_id: app.apiKey,
            client_secret: app.apiSecret,
            grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
            subject_token: sessionToken({ shop: "contract-shop.myshopify.com", apiKey: app.apiKey, secret: app.apiSecret }),
            subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
            requested_token_type: "urn:shopify:params:oauth:token-type:offline-access-token",
          });
          const call = request(
            {
              host: "127.0.0.1",
              port: own.port,
              path: "/admin/oauth/access_token",
              method: "POST",
              headers: { host: "contract-shop.myshopify.com", "content-type": "application/json" },
            },
            (response) => {
              let text = "";
              response.on("data", (chunk) => (text += chunk));
              response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
            },
          );
          call.on("error", reject);
          call.end(body);
        });
      const first = await exchange();
      expect(first.status).toBe(200);
      expect(first.body.scope).toBe("write_orders,read_locations");
      own.calls.length = 0;
      await fetch(`${own.url}/__scopes`, { method: "PUT", body: JSON.stringify({ scopes: ["write_orders"] }) });
      expect((await exchange()).body.scope).toBe("write_orders");
    } finally {
      await own.stop();
    }
  });
});

describe("an answer the schema does not allow", () => {
  it("fails loudly, naming the path and what is wrong, and is recorded on the call", async () => {
    // A catalog whose order has no name: `Order.name` is `String!`.
    const broken: StandInCatalog = {
      order: async () => ({ name: null as unknown as string, lineItems: [{ sku: "SKU-1", quantity: 1 }] }),
      variants: async (skus) => skus,
      locations: async () => ["Main"],
    };
    const own = await startShopifyStandIn({ catalog: broken });
    try {
      const answer = await post(own.url, operations.OrderRead.document, { id: "gid://shopify/Order/1" });
      expect(answer.status).toBe(500);
      expect(answer.body.data).toBeUndefined();
      expect(answer.body.errors[0].extensions).toEqual({
        code: "STAND_IN_ANSWER_VIOLATION",
        violations: ["order.name: Cannot return null for non-nullable field Order.name."],
      });
      const [call] = (await (await fetch(`${own.url}/__calls`)).json()) as RecordedCall[];
      expect(call.violation).toContain("order.name: Cannot return null for non-nullable field Order.name.");
    } finally {
      await own.stop();
    }
  });

  it("catches an enum value the schema does not list, a wrong shape, an unanswered field and a node of no known type", () => {
    const shape = (document: string, data: unknown, variables: Record<string, unknown> = {}) => {
      const parsed = parse(document);
      const operation = parsed.definitions[0] as Parameters<typeof shapeAnswer>[0]["operation"];
      try {
        shapeAnswer({ admin, document: parsed, operation, variables, data, covered: expandScopes(APP_SCOPES) });
        return [];
      } catch (error) {
        expect(error).toBeInstanceOf(StandInAnswerViolation);
        return (error as StandInAnswerViolation).violations;
      }
    };
    const order = { id: "gid://shopify/Order/1", name: "#1", displayFulfillmentStatus: "UNFULFILLED", lineItems: { nodes: [] } };
    const read = "query Q($id: ID!) { order(id: $id) { id name displayFulfillmentStatus lineItems(first: 1) { nodes { id } } } }";
    expect(shape(read, { order }, { id: "x" })).toEqual([]);
    expect(shape(read, { order: { ...order, displayFulfillmentStatus: "SHIPPED" } }, { id: "x" })).toEqual([
      'order.displayFulfillmentStatus: Enum "OrderDisplayFulfillmentStatus" cannot represent value: "SHIPPED"',
    ]);
    expect(shape(read, { order: { ...order, lineItems: { nodes: { id: "gid://shopify/LineItem/1" } } } }, { id: "x" })[0]).toMatch(
      /^order\.lineItems\.nodes: Expected Iterable/,
    );
    const { name: _left, ...nameless } = order;
    expect(shape(read, { order: nameless }, { id: "x" })).toEqual(["order.name: the stand-in does not answer Order.name"]);
    expect(shape("query N($ids: [ID!]!) { nodes(ids: $ids) { ... on Order { id } } }", { nodes: [{ name: "#1" }] }, { ids: ["x"] })[0]).toMatch(
      /^nodes\.0: Abstract type "Node" must resolve to an Object type at runtime/,
    );
    // userErrors codes too: INVALID_QUANTITY is not an InventorySetQuantitiesUserErrorCode.
    const set = "mutation S($input: InventorySetQuantitiesInput!) { inventorySetQuantities(input: $input) { userErrors { code field message } } }";
    const userErrors = [{ code: "INVALID_QUANTITY", field: ["input"], message: "no" }];
    expect(shape(set, { inventorySetQuantities: { userErrors } }, { input: { name: "available", reason: "correction", quantities: [] } })).toEqual([
      'inventorySetQuantities.userErrors.0.code: Enum "InventorySetQuantitiesUserErrorCode" cannot represent value: "INVALID_QUANTITY"',
    ]);
  });
});
