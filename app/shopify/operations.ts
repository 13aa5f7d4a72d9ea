// The Admin GraphQL operations the app sends (API 2026-07, checked against
// 2026-01 to 2026-07 in decision D45), each with its variables and result
// types. The stand-in answers every one of them as 2026-07 does.

export interface AdminOperation<TVariables, TResult> {
  name: string;
  document: string;
  /** Types only; never set. */
  readonly types?: { variables: TVariables; result: TResult };
}

function operation<TVariables, TResult>(name: string, document: string): AdminOperation<TVariables, TResult> {
  return { name, document };
}

export interface ShopInfoResult {
  shop: { name: string; myshopifyDomain: string; currencyCode: string; ianaTimezone: string };
}
export const ShopInfo = operation<Record<string, never>, ShopInfoResult>(
  "ShopInfo",
  `#graphql
  query ShopInfo { shop { name myshopifyDomain currencyCode ianaTimezone } }`,
);

export interface OrderReadResult {
  order: null | {
    id: string;
    name: string;
    email: string | null;
    createdAt: string;
    updatedAt: string;
    displayFinancialStatus: string | null;
    displayFulfillmentStatus: string;
    totalPriceSet: { shopMoney: { amount: string; currencyCode: string } };
  };
}
/** The order's own fields for Force Sync; its line items are not read (nothing used them, and 100 a page cut larger orders: D165). */
export const OrderRead = operation<{ id: string }, OrderReadResult>(
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

export interface UserError {
  field: string[] | null;
  message: string;
}

export interface PageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}
export interface FulfillmentOrderLineNode {
  id: string;
  remainingQuantity: number;
  lineItem: { sku: string | null; quantity: number };
}
export interface FulfillmentOrderNode {
  id: string;
  status: string;
  /** Where Shopify expects it to ship from (D169); `location` is null for a location deleted since. */
  assignedLocation: { location: null | { id: string; name: string } };
  lineItems: { pageInfo: PageInfo; nodes: FulfillmentOrderLineNode[] };
}
export interface OrderFulfillmentStateResult {
  order: null | {
    id: string;
    name: string;
    fulfillments: Array<{ id: string; status: string; trackingInfo: Array<{ number: string | null; company: string | null }> }>;
    fulfillmentOrders: { pageInfo: PageInfo; nodes: FulfillmentOrderNode[] };
  };
}

/**
 * Page sizes of the fulfilment reads, within Shopify's 1,000 points for one
 * query (an object 1, a connection 2 + first × its node, D165):
 * OrderFulfillmentState 1 + 80 × (1 + 5) + 2 + 10 × (3 + 2 + 20 × 2) = 933;
 * OrderFulfillmentOrders 1 + 2 + 20 × 45 = 903; FulfillmentOrderLines 1 + 2 + 250 × 2 = 503.
 * `Order.fulfillments` and `Fulfillment.trackingInfo` are plain lists (no
 * cursor): an order with more than 80 fulfilments is bounded and says so.
 */
export const ORDER_FULFILLMENT_PAGES = {
  fulfillments: 80,
  trackingInfo: 5,
  fulfillmentOrders: 10,
  lineItems: 20,
  moreFulfillmentOrders: 20,
  moreLineItems: 250,
} as const;

export const OrderFulfillmentState = operation<{ id: string }, OrderFulfillmentStateResult>(
  "OrderFulfillmentState",
  `#graphql
  query OrderFulfillmentState($id: ID!) {
    order(id: $id) {
      id name
      fulfillments(first: ${ORDER_FULFILLMENT_PAGES.fulfillments}) { id status trackingInfo(first: ${ORDER_FULFILLMENT_PAGES.trackingInfo}) { number company } }
      fulfillmentOrders(first: ${ORDER_FULFILLMENT_PAGES.fulfillmentOrders}) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id status
          assignedLocation { location { id name } }
          lineItems(first: ${ORDER_FULFILLMENT_PAGES.lineItems}) {
            pageInfo { hasNextPage endCursor }
            nodes { id remainingQuantity lineItem { sku quantity } }
          }
        }
      }
    }
  }`,
);

export interface OrderFulfillmentOrdersResult {
  order: null | { id: string; fulfillmentOrders: { pageInfo: PageInfo; nodes: FulfillmentOrderNode[] } };
}
/** The order's fulfillment orders after `after` (OrderFulfillmentState read the first page). */
export const OrderFulfillmentOrders = operation<{ id: string; after: string }, OrderFulfillmentOrdersResult>(
  "OrderFulfillmentOrders",
  `#graphql
  query OrderFulfillmentOrders($id: ID!, $after: String!) {
    order(id: $id) {
      id
      fulfillmentOrders(first: ${ORDER_FULFILLMENT_PAGES.moreFulfillmentOrders}, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id status
          assignedLocation { location { id name } }
          lineItems(first: ${ORDER_FULFILLMENT_PAGES.lineItems}) {
            pageInfo { hasNextPage endCursor }
            nodes { id remainingQuantity lineItem { sku quantity } }
          }
        }
      }
    }
  }`,
);

export interface FulfillmentOrderLinesResult {
  fulfillmentOrder: null | { id: string; lineItems: { pageInfo: PageInfo; nodes: FulfillmentOrderLineNode[] } };
}
/** One fulfillment order's lines after `after`. */
export const FulfillmentOrderLines = operation<{ id: string; after: string }, FulfillmentOrderLinesResult>(
  "FulfillmentOrderLines",
  `#graphql
  query FulfillmentOrderLines($id: ID!, $after: String!) {
    fulfillmentOrder(id: $id) {
      id
      lineItems(first: ${ORDER_FULFILLMENT_PAGES.moreLineItems}, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes { id remainingQuantity lineItem { sku quantity } }
      }
    }
  }`,
);

export interface FulfillmentOrderMoveResult {
  fulfillmentOrderMove: null | {
    movedFulfillmentOrder: null | { id: string; status: string; assignedLocation: { location: null | { id: string; name: string } } };
    originalFulfillmentOrder: null | { id: string; status: string };
    userErrors: Array<UserError & { code: string | null }>;
  };
}
/**
 * Moves a fulfillment order's lines to another location of the shop (D169):
 * with `fulfillmentOrderLineItems`, only those quantities (Shopify splits the
 * fulfillment order); without, every line. Refused for a closed fulfillment
 * order, one with progress reported, or a location that does not stock the item.
 */
export const FulfillmentOrderMove = operation<
  { id: string; newLocationId: string; fulfillmentOrderLineItems?: Array<{ id: string; quantity: number }> },
  FulfillmentOrderMoveResult
>(
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
export interface OrdersFulfillmentStateResult {
  /** In the order of the ids; null for an id Shopify does not know, an empty object for a node that is not an order. */
  nodes: Array<OrderFulfillmentStateResult["order"] | { id?: undefined }>;
}
export const OrdersFulfillmentState = operation<{ ids: string[] }, OrdersFulfillmentStateResult>(
  "OrdersFulfillmentState",
  `#graphql
  query OrdersFulfillmentState($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on Order {
        id name
        fulfillments(first: ${ORDERS_FULFILLMENT_PAGES.fulfillments}) {
          id status trackingInfo(first: ${ORDERS_FULFILLMENT_PAGES.trackingInfo}) { number company }
        }
        fulfillmentOrders(first: ${ORDERS_FULFILLMENT_PAGES.fulfillmentOrders}) {
          pageInfo { hasNextPage endCursor }
          nodes {
            id status
            assignedLocation { location { id name } }
            lineItems(first: ${ORDERS_FULFILLMENT_PAGES.lineItems}) {
              pageInfo { hasNextPage endCursor }
              nodes { id remainingQuantity lineItem { sku quantity } }
            }
          }
        }
      }
    }
  }`,
);

export interface FulfillmentInput {
  lineItemsByFulfillmentOrder: Array<{
    fulfillmentOrderId: string;
    /** Left out: every remaining line of that fulfillment order. */
    fulfillmentOrderLineItems?: Array<{ id: string; quantity: number }>;
  }>;
  trackingInfo?: { number?: string; company?: string | null; url?: string };
  notifyCustomer?: boolean;
}
export interface FulfillmentCreateResult {
  fulfillmentCreate: {
    fulfillment: null | { id: string; status: string; trackingInfo: Array<{ number: string | null; company: string | null }> };
    userErrors: UserError[];
  };
}
export const FulfillmentCreate = operation<{ fulfillment: FulfillmentInput }, FulfillmentCreateResult>(
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

export interface VariantsBySkuResult {
  productVariants: { pageInfo: PageInfo; nodes: Array<{ id: string; sku: string | null; inventoryItem: { id: string } }> };
}
/**
 * `query` is Shopify search syntax, e.g. `sku:"A" OR sku:"B"`; matches are not
 * exact (one search may match more variants than it names), so callers compare
 * sku and read every page (`after`): 1 + 2 + 100 × 2 = 203 points a page.
 */
export const VariantsBySku = operation<{ query: string; after?: string | null }, VariantsBySkuResult>(
  "VariantsBySku",
  `#graphql
  query VariantsBySku($query: String!, $after: String) {
    productVariants(first: 100, after: $after, query: $query) {
      pageInfo { hasNextPage endCursor }
      nodes { id sku inventoryItem { id } }
    }
  }`,
);

export interface LocationsResult {
  locations: { pageInfo: PageInfo; nodes: Array<{ id: string; name: string }> };
}
/** The active locations by name, 100 a page, read to the end (`after`). */
export const Locations = operation<{ after?: string | null }, LocationsResult>(
  "Locations",
  `#graphql
  query Locations($after: String) {
    locations(first: 100, after: $after) { pageInfo { hasNextPage endCursor } nodes { id name } }
  }`,
);

/**
 * 2026-07: every quantity carries `changeFromQuantity` (the level expected
 * before the change; null skips the compare), and the mutation needs an
 * idempotency key (`@idempotent`). `compareQuantity` and
 * `ignoreCompareQuantity` were removed in 2026-04 (D45).
 */
export interface InventorySetQuantitiesInput {
  name: "available" | "on_hand";
  reason: string;
  referenceDocumentUri?: string;
  quantities: Array<{ inventoryItemId: string; locationId: string; quantity: number; changeFromQuantity: number | null }>;
}
export interface InventorySetQuantitiesResult {
  inventorySetQuantities: {
    inventoryAdjustmentGroup: null | { reason: string; changes: Array<{ name: string; delta: number }> };
    userErrors: Array<UserError & { code: string | null }>;
  };
}
/** `idempotencyKey`: one per logical change (a UUID); a resend of the same change keeps it. */
export const InventorySetQuantities = operation<{ input: InventorySetQuantitiesInput; idempotencyKey: string }, InventorySetQuantitiesResult>(
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

export interface ProductsBySkuResult {
  productVariants: { pageInfo: PageInfo; nodes: Array<{ id: string; sku: string | null; product: { id: string; tags: string[] } }> };
}
/** `query` as in VariantsBySku, read to the end as it is; the variants' products with their tags (1 + 2 + 100 × 2 = 203 points a page). */
export const ProductsBySku = operation<{ query: string; after?: string | null }, ProductsBySkuResult>(
  "ProductsBySku",
  `#graphql
  query ProductsBySku($query: String!, $after: String) {
    productVariants(first: 100, after: $after, query: $query) {
      pageInfo { hasNextPage endCursor }
      nodes { id sku product { id tags } }
    }
  }`,
);

export interface ProductTagsAddResult {
  tagsAdd: { node: null | { id: string; tags?: string[] }; userErrors: UserError[] };
}
/** Adds tags to a product and keeps the ones it has. */
export const ProductTagsAdd = operation<{ id: string; tags: string[] }, ProductTagsAddResult>(
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

export interface SpecialOrderSummary {
  id: string;
  name: string;
  tags: string[];
  totalPriceSet: { shopMoney: { amount: string; currencyCode: string } };
}
export interface SpecialOrderByTagResult {
  orders: { nodes: SpecialOrderSummary[] };
}
/** `query` is Shopify search syntax: `tag:"special-order-001-7001"`. */
export const SpecialOrderByTag = operation<{ query: string }, SpecialOrderByTagResult>(
  "SpecialOrderByTag",
  `#graphql
  query SpecialOrderByTag($query: String!) {
    orders(first: 5, query: $query) { nodes { id name tags totalPriceSet { shopMoney { amount currencyCode } } } }
  }`,
);

interface MoneyBagInput {
  shopMoney: { amount: string; currencyCode: string };
}
export interface OrderCreateAddressInput {
  firstName?: string;
  lastName: string;
  address1: string;
  address2?: string | null;
  city: string;
  provinceCode: string;
  countryCode: string;
  zip: string;
  phone?: string;
}
export interface OrderCreateOrderInput {
  currency: string;
  email: string;
  phone?: string;
  lineItems: Array<{
    variantId?: string;
    sku: string;
    title: string;
    quantity: number;
    priceSet: MoneyBagInput;
    requiresShipping: boolean;
    properties?: Array<{ name: string; value: string }>;
    taxLines?: Array<{ title: string; rate: number; priceSet: MoneyBagInput }>;
  }>;
  shippingAddress: OrderCreateAddressInput;
  billingAddress: OrderCreateAddressInput;
  shippingLines: Array<{ title: string; priceSet: MoneyBagInput }>;
  financialStatus: "PENDING" | "PAID";
  sourceName: string;
  sourceIdentifier: string;
  tags: string[];
  note: string;
}
export interface SpecialOrderCreateResult {
  orderCreate: {
    order: null | SpecialOrderSummary;
    userErrors: Array<UserError & { code: string | null }>;
  };
}
export const SpecialOrderCreate = operation<
  { order: OrderCreateOrderInput; options: { inventoryBehaviour: "BYPASS" | "DECREMENT_IGNORING_POLICY" | "DECREMENT_OBEYING_POLICY"; sendReceipt: boolean } },
  SpecialOrderCreateResult
>(
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

export interface ShopLocation {
  id: string;
  legacyResourceId: string;
  name: string;
  isActive: boolean;
  isFulfillmentService: boolean;
  fulfillsOnlineOrders: boolean;
  updatedAt: string;
}
export interface ShopLocationsResult {
  locations: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: ShopLocation[] };
}
export const ShopLocations = operation<{ after?: string | null }, ShopLocationsResult>(
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

export interface InventoryLevelNode {
  location: { id: string };
  quantities: Array<{ name: string; quantity: number }>;
}
export interface InventoryLevelPage {
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  nodes: InventoryLevelNode[];
}
export interface InventoryLevelsBySkuResult {
  inventoryItems: {
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    nodes: Array<{ id: string; sku: string | null; tracked: boolean; inventoryLevels: InventoryLevelPage }>;
  };
}
/** `query` as in VariantsBySku (`sku:"A" OR sku:"B"`); matches are not exact, so callers compare sku. */
export const InventoryLevelsBySku = operation<{ query: string; after?: string | null }, InventoryLevelsBySkuResult>(
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

export interface InventoryItemLevelsResult {
  inventoryItem: null | { id: string; inventoryLevels: InventoryLevelPage };
}
export const InventoryItemLevels = operation<{ id: string; after?: string | null }, InventoryItemLevelsResult>(
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

export interface AppAccessScopesResult {
  currentAppInstallation: { accessScopes: Array<{ handle: string }> };
}
export const AppAccessScopes = operation<Record<string, never>, AppAccessScopesResult>(
  "AppAccessScopes",
  `#graphql
  query AppAccessScopes { currentAppInstallation { accessScopes { handle } } }`,
);
