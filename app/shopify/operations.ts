// The Admin GraphQL operations the app sends (API 2026-10; D45 and D156 say
// what changed for them). Their variables and result types are generated from
// the documents against Shopify's published schema (`npm run graphql-codegen`,
// app/types/, D157): a document and its use that disagree fail `npm run
// typecheck`. The stand-in answers every one of them.
import type { AdminMutations, AdminQueries } from "@shopify/admin-api-client";

export interface AdminOperation<TVariables, TResult> {
  name: string;
  document: string;
  /** Types only; never set. */
  readonly types?: { variables: TVariables; result: TResult };
}

/** Every document codegen has typed (app/types/admin.generated.d.ts), by its text. */
type TypedDocuments = AdminQueries & AdminMutations;

/** Types from the document's own text: a document codegen has not seen does not compile. */
function operation<const TDocument extends keyof TypedDocuments & string>(
  name: string,
  document: TDocument,
): AdminOperation<TypedDocuments[TDocument]["variables"], TypedDocuments[TDocument]["return"]> {
  return { name, document };
}

export type VariablesOf<T> = T extends { readonly types?: { variables: infer V } } ? V : never;
export type ResultOf<T> = T extends { readonly types?: { result: infer R } } ? R : never;

export const ShopInfo = operation(
  "ShopInfo",
  `#graphql
  query ShopInfo { shop { name myshopifyDomain currencyCode ianaTimezone } }`,
);

/** The order's own fields for Force Sync; its line items are not read (nothing used them, and 100 a page cut larger orders: D165). */
export const OrderRead = operation(
  "OrderRead",
  `#graphql
  query OrderRead($id: ID!) {
    order(id: $id) {
      id name email createdAt updatedAt displayFinancialStatus displayFulfillmentStatus
      totalPriceSet { shopMoney { amount currencyCode } }
    }
  }`,
);

// ---------------------------------------------------------------------------
// Drop-ship fulfilment: read what is already fulfilled, then fulfil.

/**
 * Page sizes of the fulfilment reads, within Shopify's 1,000 points for one
 * query (an object 1, a connection 2 + first × its node, D165):
 * OrderFulfillmentState 1 + 80 × (1 + 5) + 2 + 10 × (3 + 2 + 20 × 2) = 933;
 * OrderFulfillmentOrders 1 + 2 + 20 × 45 = 903; FulfillmentOrderLines 1 + 2 + 250 × 2 = 503.
 * `Order.fulfillments` and `Fulfillment.trackingInfo` are plain lists (no
 * cursor): an order with more than 80 fulfilments is bounded and says so.
 * The documents spell the sizes out (codegen reads no `${}`); operations.test.ts
 * checks they are these.
 */
export const ORDER_FULFILLMENT_PAGES = {
  fulfillments: 80,
  trackingInfo: 5,
  fulfillmentOrders: 10,
  lineItems: 20,
  moreFulfillmentOrders: 20,
  moreLineItems: 250,
} as const;

export const OrderFulfillmentState = operation(
  "OrderFulfillmentState",
  `#graphql
  query OrderFulfillmentState($id: ID!) {
    order(id: $id) {
      id name
      fulfillments(first: 80) { id status trackingInfo(first: 5) { number company } }
      fulfillmentOrders(first: 10) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id status
          assignedLocation { location { id name } }
          lineItems(first: 20) {
            pageInfo { hasNextPage endCursor }
            nodes { id remainingQuantity lineItem { sku quantity } }
          }
        }
      }
    }
  }`,
);

/** The order's fulfillment orders after `after` (OrderFulfillmentState read the first page). */
export const OrderFulfillmentOrders = operation(
  "OrderFulfillmentOrders",
  `#graphql
  query OrderFulfillmentOrders($id: ID!, $after: String!) {
    order(id: $id) {
      id
      fulfillmentOrders(first: 20, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id status
          assignedLocation { location { id name } }
          lineItems(first: 20) {
            pageInfo { hasNextPage endCursor }
            nodes { id remainingQuantity lineItem { sku quantity } }
          }
        }
      }
    }
  }`,
);

/** One fulfillment order's lines after `after`. */
export const FulfillmentOrderLines = operation(
  "FulfillmentOrderLines",
  `#graphql
  query FulfillmentOrderLines($id: ID!, $after: String!) {
    fulfillmentOrder(id: $id) {
      id
      lineItems(first: 250, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes { id remainingQuantity lineItem { sku quantity } }
      }
    }
  }`,
);

/**
 * Moves a fulfillment order's lines to another location of the shop (D169):
 * with `fulfillmentOrderLineItems`, only those quantities (Shopify splits the
 * fulfillment order); without, every line. Refused for a closed fulfillment
 * order, one with progress reported, or a location that does not stock the item.
 */
export const FulfillmentOrderMove = operation(
  "FulfillmentOrderMove",
  `#graphql
  mutation FulfillmentOrderMove($id: ID!, $newLocationId: ID!, $fulfillmentOrderLineItems: [FulfillmentOrderLineItemInput!]) {
    fulfillmentOrderMove(id: $id, newLocationId: $newLocationId, fulfillmentOrderLineItems: $fulfillmentOrderLineItems) {
      movedFulfillmentOrder { id status assignedLocation { location { id name } } }
      originalFulfillmentOrder { id status }
      userErrors { code field message }
    }
  }`,
);

/**
 * The same for a batch of orders in one `nodes(ids:)` query (D130): what one
 * order would cost times the ids, so the pages are small. An order that fills
 * a page may have more than it shows: it is read again alone, to its end
 * (OrderFulfillmentState and the two reads on, app/shopify/fulfillment.server.ts).
 */
export const ORDERS_FULFILLMENT_PAGES = { fulfillments: 5, trackingInfo: 3, fulfillmentOrders: 3, lineItems: 10 } as const;
export const OrdersFulfillmentState = operation(
  "OrdersFulfillmentState",
  `#graphql
  query OrdersFulfillmentState($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on Order {
        id name
        fulfillments(first: 5) {
          id status trackingInfo(first: 3) { number company }
        }
        fulfillmentOrders(first: 3) {
          pageInfo { hasNextPage endCursor }
          nodes {
            id status
            assignedLocation { location { id name } }
            lineItems(first: 10) {
              pageInfo { hasNextPage endCursor }
              nodes { id remainingQuantity lineItem { sku quantity } }
            }
          }
        }
      }
    }
  }`,
);

export const FulfillmentCreate = operation(
  "FulfillmentCreate",
  `#graphql
  mutation FulfillmentCreate($fulfillment: FulfillmentInput!) {
    fulfillmentCreate(fulfillment: $fulfillment) {
      fulfillment { id status trackingInfo(first: 10) { number company } }
      userErrors { field message }
    }
  }`,
);

// ---------------------------------------------------------------------------
// Inventory: SKUs to inventory items, location names to ids, absolute levels.

/**
 * `query` is Shopify search syntax, e.g. `sku:"A" OR sku:"B"`; matches are not
 * exact (one search may match more variants than it names), so callers compare
 * sku and read every page (`after`): 1 + 2 + 100 × 2 = 203 points a page.
 */
export const VariantsBySku = operation(
  "VariantsBySku",
  `#graphql
  query VariantsBySku($query: String!, $after: String) {
    productVariants(first: 100, after: $after, query: $query) {
      pageInfo { hasNextPage endCursor }
      nodes { id sku inventoryItem { id } }
    }
  }`,
);

/** The active locations by name, 100 a page, read to the end (`after`). */
export const Locations = operation(
  "Locations",
  `#graphql
  query Locations($after: String) {
    locations(first: 100, after: $after) { pageInfo { hasNextPage endCursor } nodes { id name } }
  }`,
);

/** `idempotencyKey`: one per logical change (a UUID); a resend of the same change keeps it. */
export const InventorySetQuantities = operation(
  "InventorySetQuantities",
  `#graphql
  mutation InventorySetQuantities($input: InventorySetQuantitiesInput!, $idempotencyKey: String!) {
    inventorySetQuantities(input: $input) @idempotent(key: $idempotencyKey) {
      inventoryAdjustmentGroup { reason changes { name delta } }
      userErrors { code field message }
    }
  }`,
);

// ---------------------------------------------------------------------------
// Products: the category-tag mappings become product tags (product sync feed).

/** `query` as in VariantsBySku, read to the end as it is; the variants' products with their tags (1 + 2 + 100 × 2 = 203 points a page). */
export const ProductsBySku = operation(
  "ProductsBySku",
  `#graphql
  query ProductsBySku($query: String!, $after: String) {
    productVariants(first: 100, after: $after, query: $query) {
      pageInfo { hasNextPage endCursor }
      nodes { id sku product { id tags } }
    }
  }`,
);

/** Adds tags to a product and keeps the ones it has. */
export const ProductTagsAdd = operation(
  "ProductTagsAdd",
  `#graphql
  mutation ProductTagsAdd($id: ID!, $tags: [String!]!) {
    tagsAdd(id: $id, tags: $tags) {
      node { id ... on Product { tags } }
      userErrors { field message }
    }
  }`,
);

// ---------------------------------------------------------------------------
// Special orders (app/special-orders/): an AS400 ticket becomes a Shopify
// order. The ticket's key is a tag of the order, so a run that crashed after
// Shopify created it finds it instead of creating it again.

/** `query` is Shopify search syntax: `tag:"special-order-001-7001"`. */
export const SpecialOrderByTag = operation(
  "SpecialOrderByTag",
  `#graphql
  query SpecialOrderByTag($query: String!) {
    orders(first: 5, query: $query) { nodes { id name tags totalPriceSet { shopMoney { amount currencyCode } } } }
  }`,
);

export const SpecialOrderCreate = operation(
  "SpecialOrderCreate",
  `#graphql
  mutation SpecialOrderCreate($order: OrderCreateOrderInput!, $options: OrderCreateOptionsInput) {
    orderCreate(order: $order, options: $options) {
      order { id name tags totalPriceSet { shopMoney { amount currencyCode } } }
      userErrors { code field message }
    }
  }`,
);

// ---------------------------------------------------------------------------
// Stores are the shop's locations (app/sales/stores.server.ts, D48). Every
// location, inactive ones too (they stop being offered), 250 a page; the
// legacy locations of fulfilment-service apps are not asked for.

export const ShopLocations = operation(
  "ShopLocations",
  `#graphql
  query ShopLocations($after: String) {
    locations(first: 250, after: $after, includeInactive: true, includeLegacy: false, sortKey: ID) {
      pageInfo { hasNextPage endCursor }
      nodes { id legacyResourceId name isActive isFulfillmentService fulfillsOnlineOrders updatedAt }
    }
  }`,
);

// Available quantities per SKU and location. Ten items a call with 25 levels
// each keeps the requested cost under Shopify's 1,000 points for one query
// (2 + 10 × (1 + 2 + 25 × 3) = 782); an item stocked at more locations is read
// on with InventoryItemLevels.

/** `query` as in VariantsBySku (`sku:"A" OR sku:"B"`); matches are not exact, so callers compare sku. */
export const InventoryLevelsBySku = operation(
  "InventoryLevelsBySku",
  `#graphql
  query InventoryLevelsBySku($query: String!, $after: String) {
    inventoryItems(first: 10, after: $after, query: $query) {
      pageInfo { hasNextPage endCursor }
      nodes {
        id sku tracked
        inventoryLevels(first: 25) {
          pageInfo { hasNextPage endCursor }
          nodes { location { id } quantities(names: ["available"]) { name quantity } }
        }
      }
    }
  }`,
);

export const InventoryItemLevels = operation(
  "InventoryItemLevels",
  `#graphql
  query InventoryItemLevels($id: ID!, $after: String) {
    inventoryItem(id: $id) {
      id
      inventoryLevels(first: 250, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes { location { id } quantities(names: ["available"]) { name quantity } }
      }
    }
  }`,
);

// ---------------------------------------------------------------------------
// What the shop has granted the app (./granted-scopes.server.ts): no scope is
// needed to ask.

export const AppAccessScopes = operation(
  "AppAccessScopes",
  `#graphql
  query AppAccessScopes { currentAppInstallation { accessScopes { handle } } }`,
);

// ---------------------------------------------------------------------------
// The names other modules use for parts of the generated types.

export type OrderReadResult = ResultOf<typeof OrderRead>;
export type OrderFulfillmentStateResult = ResultOf<typeof OrderFulfillmentState>;
export type OrdersFulfillmentStateResult = ResultOf<typeof OrdersFulfillmentState>;
export type PageInfo = NonNullable<OrderFulfillmentStateResult["order"]>["fulfillmentOrders"]["pageInfo"];
export type InventorySetQuantitiesInput = VariablesOf<typeof InventorySetQuantities>["input"];
export type SpecialOrderSummary = ResultOf<typeof SpecialOrderByTag>["orders"]["nodes"][number];
export type OrderCreateAddressInput = NonNullable<VariablesOf<typeof SpecialOrderCreate>["order"]["shippingAddress"]>;
export type ShopLocationsResult = ResultOf<typeof ShopLocations>;
export type ShopLocation = ShopLocationsResult["locations"]["nodes"][number];
export type InventoryLevelsBySkuResult = ResultOf<typeof InventoryLevelsBySku>;
export type InventoryItemLevelsResult = ResultOf<typeof InventoryItemLevels>;
export type InventoryLevelPage = NonNullable<InventoryItemLevelsResult["inventoryItem"]>["inventoryLevels"];
