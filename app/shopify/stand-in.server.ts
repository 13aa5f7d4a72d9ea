// A loopback server answering the Admin GraphQL operations of ./operations.ts
// with plausible data, recording every call. Shopify itself cannot be reached
// from local mode or the tests; this is the only stand-in the project allows.
// Fulfilments and inventory levels are kept in memory, so a test can read back
// what the app would have changed in Shopify.
//   POST /admin/api/<version>/graphql.json   the operations
//   GET  /__calls                             what was sent, oldest first
//   DELETE /__calls                           forget it (state stays)
//   GET  /__inventory                         levels set: [{ sku, location, quantity }]
//   DELETE /__state                           forget calls, fulfilments, levels, product tags and location changes (and throttling)
//   GET  /__locations                         the locations served (inactive ones too, not deleted ones)
//   POST /__locations                         add or change one: { id?, name?, isActive?, deleted? }
//   PUT  /__levels                            set available levels: [{ sku, location (name or id), quantity }]
//   GET|POST|DELETE /__throttle               Shopify's rate limits: see ThrottleControl
//   GET|PUT /__scopes                         the access scopes granted: { scopes } (DELETE /__state restores the option's)
//   POST /admin/oauth/access_token            token exchange (embedded-mode tests: options.app)
// With options.tls it answers HTTPS, as Shopify does: the embedded-mode tests
// point the app's connections to https://{shop} at it (tests/support/shopify-hosts.mjs).
// Answers carry Shopify's cost extension; tests make the stand-in throttle
// through /__throttle (a leaky bucket, or HTTP 429s with Retry-After).
// Every request is checked against Shopify's published schema first
// (./stand-in/request.server.ts), and every answer is shaped by its document and
// the granted scopes (./stand-in/answer.server.ts): an answer the schema does not
// allow is the stand-in's bug, answered 500 (docs/decisions.md D160-D162).
// This file holds the server, the shop's state and the order, fulfilment and
// inventory answers; ./stand-in/ the rest, a concern a file: rate limits
// (throttle), locations and levels (locations), inventory rules, products,
// special orders, the granted scopes, and what they share (common).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type RequestListener } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { APP_SCOPES, scopesOf } from "./access-scopes";
import { deniedFields, rootFieldNames } from "./admin-access.server";
import { adminSchema } from "./admin-schema.server";
import { shapeAnswer, StandInAnswerViolation } from "./stand-in/answer.server";
import { checkRequest } from "./stand-in/request.server";
import { appInstallationAnswer, createGrant, scopesControl, type Grant } from "./stand-in/scopes.server";
import {
  firstOf,
  GraphqlRequestError,
  inventoryItemGid,
  locationGid,
  numericIdOf,
  readBody,
  variantSearchPage,
  skusInQuery,
  variantGid,
  type UserError,
} from "./stand-in/common.server";
import { idempotencyKeyOf, idempotentAnswersOf, refuseOversizedQuantities } from "./stand-in/inventory-rules.server";
import { availableLevels, forgetLocationChanges, locationControl, locationHandlers, servedLocations, takeAvailable } from "./stand-in/locations.server";
import { productHandlers } from "./stand-in/products.server";
import { specialOrderHandlers } from "./stand-in/special-orders.server";
import {
  actualNodesCost,
  createThrottle,
  HTTP_429_BODY,
  MAX_SINGLE_QUERY_COST,
  nodesIds,
  THROTTLED_ERROR,
  throttleControl,
  type ThrottleControl,
} from "./stand-in/throttle.server";

export type { ThrottleControl };
export { skusInQuery };
import {
  createOrder,
  displayFulfillmentStatus,
  fulfillmentGid,
  fulfillmentOrderNode,
  fulfillmentOrdersPage,
  fulfillmentOrderStatus,
  moveFulfillmentOrder,
  orderFulfillmentView,
  orderGid,
  page,
  type Located,
  type StandInFulfillmentOrder,
  type StandInOrder,
} from "./stand-in-fulfillment-orders.server";

export interface RecordedCall {
  operation: string;
  variables: Record<string, unknown>;
  at: string;
  // Of GraphQL requests (not of the token exchange):
  /** The API version in the request's path. */
  version?: string;
  /** performance.now() when it arrived and when it was answered (the test's own clock: same process). */
  arrivedMs?: number;
  answeredMs?: number;
  /** GraphQL requests in flight when it arrived, itself included. */
  inFlight?: number;
  /** Refused for the rate limit, and the wait Shopify's answer implied (cost extension or Retry-After). */
  throttled?: "THROTTLED" | "HTTP 429";
  retryAfterMs?: number;
  /** Refused before it ran, as Shopify refuses an invalid document or variables: the errors' codes. */
  invalid?: string[];
  /** The paths of the fields refused for the granted scopes (ACCESS_DENIED). */
  accessDenied?: string[];
  /** The stand-in's answer broke the schema (its own bug; answered 500): what broke where. */
  violation?: string;
}

/** Where the stand-in's orders, SKUs and locations come from (./stand-in-catalog.server.ts reads the database). */
export interface StandInCatalog {
  /**
   * The order with this numeric Shopify id, or null when Shopify would not know it. A line naming a
   * `location` is routed there; the others to the shop's first active location (D169).
   */
  order(numericId: string): Promise<null | { name: string; lineItems: Array<{ sku: string; quantity: number; location?: string }> }>;
  /** Of these SKUs, the ones that exist as variants. */
  variants(skus: string[]): Promise<string[]>;
  /** The SKUs a search for these SKUs matches, sorted: Shopify's search is not exact (D165). Without it, the exact ones. */
  search?(skus: string[]): Promise<string[]>;
  /** Location names. */
  locations(): Promise<string[]>;
  /** What the catalog's locations have available of these SKUs, until InventorySetQuantities or PUT /__levels says otherwise. */
  levels?(skus: string[]): Promise<InventoryLevel[]>;
}

/** Without a catalog: every order exists with one line, every SKU exists, one location. */
const synthesisedCatalog: StandInCatalog = {
  order: async (numericId) => ({ name: `#${numericId}`, lineItems: [{ sku: "SKU-1001", quantity: 1 }] }),
  variants: async (skus) => skus,
  locations: async () => ["Shop location"],
};

export interface InventoryLevel {
  sku: string;
  location: string;
  quantity: number;
}

/** The page sizes an order document asks for (a field it does not select: all). */
const pagesOf = (document: string) => ({
  fulfillments: firstOf(document, "fulfillments"),
  trackingInfo: firstOf(document, "trackingInfo"),
  fulfillmentOrders: firstOf(document, "fulfillmentOrders"),
  lineItems: firstOf(document, "lineItems"),
});

// Shopify accepts these reasons for inventory changes (the docs' list).
const INVENTORY_REASONS = new Set([
  "correction",
  "cycle_count_available",
  "damaged",
  "movement_created",
  "movement_updated",
  "movement_received",
  "movement_canceled",
  "other",
  "promotion",
  "quality_control",
  "received",
  "reservation_created",
  "reservation_deleted",
  "reservation_updated",
  "restock",
  "safety_stock",
  "shrinkage",
]);

function createStandInState(catalog: StandInCatalog) {
  let orders = new Map<string, StandInOrder>();
  // inventory item gid → SKU, learnt when variants are answered (the hash cannot be reversed).
  const skuOfItem = new Map<string, string>();
  // `${item}|${location}|${name}` → level
  let levels = new Map<string, InventoryLevel & { name: string }>();
  // Product tags by SKU (one product per SKU here), and product gid → SKU as answered.
  const products = { tags: new Map<string, string[]>(), skuOfGid: new Map<string, string>() };

  async function loadOrder(numericId: string): Promise<StandInOrder | null> {
    const known = orders.get(numericId);
    if (known) return known;
    // Not remembered when missing: a row added later is found then.
    const found = await catalog.order(numericId);
    if (!found) return null;
    // Routed plainly (D169): to the line's own location, else the shop's first active one.
    const active = (await servedLocations(state)).filter((location) => location.isActive);
    const [first] = await state.catalogLocations();
    const routedTo: Located = active.find((location) => location.name === first) ?? active[0] ?? { id: locationGid("Shop location"), name: "Shop location" };
    const lineItems = found.lineItems.map((line) => ({
      ...line,
      location: line.location ? { id: locationGid(line.location), name: line.location } : undefined,
    }));
    const order = orders.get(numericId) ?? createOrder(numericId, { name: found.name, lineItems }, routedTo);
    orders.set(numericId, order);
    return order;
  }

  /** A fulfillment order by gid: one of a loaded order's, or the first of the order with that number. */
  async function loadFulfillmentOrder(gid: string): Promise<StandInFulfillmentOrder | null> {
    if (!/^gid:\/\/shopify\/FulfillmentOrder\/\d+$/.test(gid)) return null;
    const numericId = numericIdOf(gid);
    const find = () => [...orders.values()].flatMap((order) => order.fulfillmentOrders).find((fo) => fo.numericId === numericId) ?? null;
    return find() ?? ((await loadOrder(numericId)) ? find() : null);
  }

  // The catalog's location names, read once per GraphQL request (a `nodes` read of 100 orders asks them 100
  // times); requests run one at a time (startShopifyStandIn), and a test changes the catalog between them.
  // Controls (/__locations, /__levels) read the catalog afresh.
  let namesThisRequest: Promise<string[]> | null = null;
  let inRequest = false;

  const state = {
    loadOrder,
    loadFulfillmentOrder,
    skuOfItem,
    /** The catalog's location names: read once for the GraphQL request being answered, afresh outside one. */
    catalogLocations: () => (inRequest ? (namesThisRequest ??= catalog.locations()) : catalog.locations()),
    /** A GraphQL request begins (true) or ends (false): what the catalog says is read afresh for the next. */
    answering(now: boolean) {
      inRequest = now;
      namesThisRequest = null;
    },
    products,
    get levels() {
      return levels;
    },
    reset() {
      orders = new Map();
      levels = new Map();
      products.tags.clear();
    },
  };
  return state;
}

export type StandInState = ReturnType<typeof createStandInState>;
/** `document` is the operation's GraphQL text, for what lives outside the variables (directives). */
export type Handler = (
  variables: Record<string, unknown>,
  context: { shop: string; state: StandInState; catalog: StandInCatalog; document: string },
) => unknown;

const handlers: Record<string, Handler> = {
  ShopInfo: (_variables, { shop }) => ({
    shop: { name: "Demo Outfitters", myshopifyDomain: shop, currencyCode: "USD", ianaTimezone: "America/New_York" },
  }),

  OrderRead: async (variables, { state }) => {
    const id = String(variables.id ?? "");
    const numericId = numericIdOf(id);
    const order = await state.loadOrder(numericId);
    if (!order) return { order: null };
    const now = new Date().toISOString();
    return {
      order: {
        id,
        name: order.name,
        email: `customer${numericId}@example.com`,
        createdAt: now,
        updatedAt: now,
        displayFinancialStatus: "PAID",
        displayFulfillmentStatus: displayFulfillmentStatus(order),
        totalPriceSet: { shopMoney: { amount: "129.95", currencyCode: "USD" } },
      },
    };
  },

  // Each list one page as long as the document's `first` asks (D165), with cursors to read on.
  OrderFulfillmentState: async (variables, { state, document }) => {
    const order = await state.loadOrder(numericIdOf(String(variables.id ?? "")));
    return { order: order ? orderFulfillmentView(order, pagesOf(document)) : null };
  },

  OrderFulfillmentOrders: async (variables, { state, document }) => {
    const order = await state.loadOrder(numericIdOf(String(variables.id ?? "")));
    return { order: order ? { id: orderGid(order.numericId), fulfillmentOrders: fulfillmentOrdersPage(order, pagesOf(document), variables.after) } : null };
  },

  FulfillmentOrderLines: async (variables, { state, document }) => {
    const fo = await state.loadFulfillmentOrder(String(variables.id ?? ""));
    if (!fo) return { fulfillmentOrder: null };
    const node = fulfillmentOrderNode(fo, { first: firstOf(document, "lineItems"), after: variables.after });
    return { fulfillmentOrder: { id: node.id, lineItems: node.lineItems } };
  },

  // `nodes(ids:)` with `... on Order { <OrderFulfillmentState's fields> }`: one answer per id, in order, null for an
  // id Shopify does not know, an empty object for a node of another type; each list cut at the query's `first`.
  OrdersFulfillmentState: async (variables, { state, document }) => {
    const ids = Array.isArray(variables.ids) ? variables.ids.map(String) : [];
    if (ids.length > 250)
      throw new GraphqlRequestError([
        { message: "The input array size of 251 is greater than the maximum allowed of 250.", extensions: { code: "MAX_INPUT_SIZE_EXCEEDED" } },
      ]);
    const pages = pagesOf(document);
    const nodes = await Promise.all(
      ids.map(async (id) => {
        const type = /^gid:\/\/shopify\/(\w+)\/\d+$/.exec(id)?.[1];
        if (type !== "Order") return type ? { __typename: type, id } : null;
        const order = await state.loadOrder(numericIdOf(id));
        // `nodes` answers an interface: the type tells which fragment applies.
        return order ? { __typename: "Order", ...orderFulfillmentView(order, pages) } : null;
      }),
    );
    return { nodes };
  },

  FulfillmentCreate: async (variables, { state, catalog }) => {
    const input = (variables.fulfillment ?? {}) as {
      lineItemsByFulfillmentOrder?: Array<{ fulfillmentOrderId?: string; fulfillmentOrderLineItems?: Array<{ id?: string; quantity?: number }> }>;
      trackingInfo?: { number?: string | null; numbers?: string[]; company?: string | null };
    };
    const failed = (field: string[], message: string) => ({ fulfillmentCreate: { fulfillment: null, userErrors: [{ field, message }] } });
    const groups = input.lineItemsByFulfillmentOrder ?? [];
    if (groups.length === 0) return failed(["fulfillment", "lineItemsByFulfillmentOrder"], "Line items by fulfillment order can't be blank.");

    // Check everything first, then apply: Shopify creates all or nothing.
    const changes: Array<{ fo: StandInFulfillmentOrder; line: StandInFulfillmentOrder["lines"][number]; quantity: number }> = [];
    let order: StandInOrder | null = null;
    for (const group of groups) {
      const foId = String(group.fulfillmentOrderId ?? "");
      const fo = await state.loadFulfillmentOrder(foId);
      if (!fo) return failed(["fulfillment", "lineItemsByFulfillmentOrder"], "Fulfillment order does not exist.");
      if (order && fo.order !== order) return failed(["fulfillment"], "Fulfillment orders must belong to the same order.");
      order = fo.order;
      if (fulfillmentOrderStatus(fo) === "CLOSED") {
        return failed(["fulfillment"], `Fulfillment order ${numericIdOf(foId)} has an unfulfillable status= closed.`);
      }
      const requested = group.fulfillmentOrderLineItems?.length
        ? group.fulfillmentOrderLineItems
        : fo.lines.map((line) => ({ id: line.id, quantity: line.remaining }));
      for (const item of requested) {
        const line = fo.lines.find((each) => each.id === item.id);
        if (!line) return failed(["fulfillment", "lineItemsByFulfillmentOrder"], "Fulfillment order line item does not exist.");
        const quantity = Number(item.quantity);
        const alreadyAsked = changes.filter((c) => c.line === line).reduce((sum, c) => sum + c.quantity, 0);
        if (!Number.isInteger(quantity) || quantity < 0 || quantity + alreadyAsked > line.remaining) {
          return failed(["fulfillment"], "Invalid fulfillment order line item quantity requested.");
        }
        if (quantity > 0) changes.push({ fo, line, quantity });
      }
    }
    if (!order || changes.length === 0) return failed(["fulfillment"], "Invalid fulfillment order line item quantity requested.");

    for (const change of changes) {
      change.line.remaining -= change.quantity;
      // The units leave the fulfillment order's location: its available stock goes down there (D169).
      await takeAvailable(state, catalog, change.line.sku, change.fo.location, change.quantity);
    }
    const tracking = input.trackingInfo;
    const numbers = tracking?.number ? [tracking.number] : (tracking?.numbers ?? []);
    const fulfillment = {
      id: fulfillmentGid(order.numericId, order.fulfillments.length),
      status: "SUCCESS",
      trackingInfo: numbers.map((number) => ({ number, company: tracking?.company ?? null })),
    };
    order.fulfillments.push(fulfillment);
    return { fulfillmentCreate: { fulfillment, userErrors: [] } };
  },

  // As Shopify answers it (D169): the whole fulfillment order moves when nothing of it was fulfilled and every
  // line goes; otherwise the lines asked for move into a fulfillment order at the new location.
  FulfillmentOrderMove: async (variables, { state, catalog }) => {
    const answer = (userErrors: Array<{ field: string[] | null; message: string; code: string | null }>) => ({
      fulfillmentOrderMove: { movedFulfillmentOrder: null, originalFulfillmentOrder: null, remainingFulfillmentOrder: null, userErrors },
    });
    const fo = await state.loadFulfillmentOrder(String(variables.id ?? ""));
    if (!fo) return answer([{ field: ["id"], message: "Fulfillment order does not exist.", code: null }]);
    const to = (await servedLocations(state)).find((location) => location.id === String(variables.newLocationId ?? "") && location.isActive);
    if (!to) return answer([{ field: ["newLocationId"], message: "Location does not exist or is not active.", code: null }]);
    const stocked = new Set<string>();
    for (const item of await availableLevels(state, catalog, [...new Set(fo.lines.map((line) => line.sku))]))
      if (item.levels.some((level) => level.location.id === to.id)) stocked.add(item.sku);
    const lines = Array.isArray(variables.fulfillmentOrderLineItems)
      ? (variables.fulfillmentOrderLineItems as Array<{ id?: unknown; quantity?: unknown }>).map((item) => ({
          id: String(item.id),
          quantity: Number(item.quantity),
        }))
      : undefined;
    const result = moveFulfillmentOrder({ fo, to: { id: to.id, name: to.name }, lines }, (sku) => stocked.has(sku));
    if ("userErrors" in result) return answer(result.userErrors);
    const moved = fulfillmentOrderNode(result.moved);
    return {
      fulfillmentOrderMove: {
        movedFulfillmentOrder: moved,
        originalFulfillmentOrder: fulfillmentOrderNode(result.original),
        // Deprecated; Shopify answered the moved one here.
        remainingFulfillmentOrder: moved,
        userErrors: [],
      },
    };
  },

  // What the search matches (not only the SKUs it names: D165), by SKU, a page as long as the document asks.
  VariantsBySku: async (variables, { state, catalog, document }) => {
    const { pageInfo, nodes } = await variantSearchPage(catalog, variables, document);
    return {
      productVariants: {
        pageInfo,
        nodes: nodes.map((sku) => {
          const itemId = inventoryItemGid(sku);
          state.skuOfItem.set(itemId, sku);
          return { id: variantGid(sku), sku, inventoryItem: { id: itemId } };
        }),
      },
    };
  },

  // Active locations only, by name: Shopify's defaults for `locations`; pages with cursors.
  Locations: async (variables, { state, document }) => {
    const active = (await servedLocations(state)).filter((location) => location.isActive).sort((a, b) => a.name.localeCompare(b.name));
    const { pageInfo, nodes } = page(active, variables.after, firstOf(document, "locations") ?? 50, "locations");
    return { locations: { pageInfo, nodes: nodes.map(({ id, name }) => ({ id, name })) } };
  },

  // As 2026-10 answers it (D45, unchanged since 2026-04): the removed compare fields fail validation (the schema's, D160), an
  // idempotency key is required, and every quantity names the level it expects (null: no compare).
  InventorySetQuantities: async (variables, { state, document }) => {
    refuseOversizedQuantities(variables);
    const idempotencyKey = idempotencyKeyOf(document, variables);
    const input = (variables.input ?? {}) as {
      name?: string;
      reason?: string;
      quantities?: Array<{ inventoryItemId?: string; locationId?: string; quantity?: number; changeFromQuantity?: number | null }>;
    };
    const replays = idempotentAnswersOf(state);
    const fingerprint = JSON.stringify(input);
    const earlier = replays.get(idempotencyKey);
    if (earlier) {
      if (earlier.fingerprint === fingerprint) return earlier.answer;
      const message = "The same idempotency key cannot be used with different operation parameters.";
      return { inventorySetQuantities: { inventoryAdjustmentGroup: null, userErrors: [{ code: "IDEMPOTENCY_KEY_PARAMETER_MISMATCH", field: null, message }] } };
    }
    const quantities = input.quantities ?? [];
    const errors: UserError[] = [];
    if (input.name !== "available" && input.name !== "on_hand") {
      errors.push({ code: "INVALID_NAME", field: ["input", "name"], message: "The quantity name must be either 'available' or 'on_hand'." });
    }
    if (!input.reason || !INVENTORY_REASONS.has(input.reason)) {
      errors.push({ code: "INVALID_REASON", field: ["input", "reason"], message: "The specified reason is invalid." });
    }
    const locationNames = new Map((await servedLocations(state)).map((location) => [location.id, location.name]));
    const seen = new Set<string>();
    const resolved = quantities.map((entry, index) => {
      const field = ["input", "quantities", String(index)];
      const sku = state.skuOfItem.get(String(entry.inventoryItemId));
      const location = locationNames.get(String(entry.locationId));
      const key = `${entry.inventoryItemId}|${entry.locationId}|${input.name}`;
      const current = state.levels.get(key)?.quantity ?? 0;
      if (!sku)
        errors.push({ code: "INVALID_INVENTORY_ITEM", field: [...field, "inventoryItemId"], message: "The specified inventory item could not be found." });
      if (!location) errors.push({ code: "INVALID_LOCATION", field: [...field, "locationId"], message: "The specified location could not be found." });
      // A non-integer is refused earlier, as the variable's coercion to Int; these are the schema's codes for the bounds.
      if (Number(entry.quantity) > 1_000_000_000)
        errors.push({ code: "INVALID_QUANTITY_TOO_HIGH", field: [...field, "quantity"], message: "The total quantity can't be higher than 1,000,000,000." });
      if (Number(entry.quantity) < -1_000_000_000)
        errors.push({ code: "INVALID_QUANTITY_TOO_LOW", field: [...field, "quantity"], message: "The total quantity can't be lower than -1,000,000,000." });
      if (seen.has(key))
        errors.push({
          code: "NO_DUPLICATE_INVENTORY_ITEM_ID_GROUP_ID_PAIR",
          field,
          message: "The combination of inventoryItemId and locationId must be unique.",
        });
      seen.add(key);
      // Not required by the schema, refused at run time when left out (the 2026-04 changelog).
      if (entry.changeFromQuantity === undefined) {
        errors.push({
          code: "COMPARE_QUANTITY_REQUIRED",
          field: [...field, "changeFromQuantity"],
          message: "The changeFromQuantity argument must be given to each quantity (null skips the compare).",
        });
      } else if (entry.changeFromQuantity !== null && entry.changeFromQuantity !== current) {
        errors.push({
          code: "CHANGE_FROM_QUANTITY_STALE",
          field: [...field, "changeFromQuantity"],
          message: "The changeFromQuantity value does not match persisted value.",
        });
      }
      return { key, sku: sku ?? "", location: location ?? "", quantity: Number(entry.quantity), delta: Number(entry.quantity) - current };
    });
    if (errors.length) return { inventorySetQuantities: { inventoryAdjustmentGroup: null, userErrors: errors } };

    for (const level of resolved) state.levels.set(level.key, { sku: level.sku, location: level.location, quantity: level.quantity, name: input.name! });
    const answer = {
      inventorySetQuantities: {
        inventoryAdjustmentGroup: {
          reason: input.reason,
          changes: resolved.map((level) => ({ name: input.name, delta: level.delta })),
        },
        userErrors: [],
      },
    };
    // A resend with the same key answers the same, without changing the levels again.
    replays.set(idempotencyKey, { fingerprint, answer });
    return answer;
  },
};

// The handlers of other concerns, in files of their own.
Object.assign(handlers, locationHandlers, productHandlers, specialOrderHandlers);

function operationName(query: string, declared?: string): string | undefined {
  return declared ?? /\b(?:query|mutation)\s+(\w+)/.exec(query)?.[1];
}

/** The app as Shopify knows it: token exchange checks these, and GraphQL then wants an access token it issued. */
export interface StandInApp {
  apiKey: string;
  apiSecret: string;
  scopes: string;
}

/** The claims of a session token the app sent, or why Shopify would refuse it. */
function verifiedSessionToken(token: string, app: StandInApp): { dest: string } | string {
  const [header, payload, signature] = token.split(".");
  if (!header || !payload || !signature) return "not a JWT";
  const expected = createHmac("sha256", app.apiSecret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "bad signature";
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { aud?: string; exp?: number; dest?: string };
  if (claims.aud !== app.apiKey) return "wrong audience";
  if (!claims.exp || claims.exp * 1000 < Date.now() - 5_000) return "expired";
  return { dest: String(claims.dest ?? "") };
}

/** Root fields answered from the stand-in's own state whatever the operation's name (the app asks its grant this way). */
const ROOT_ANSWERS: Record<string, (grant: Grant) => unknown> = { currentAppInstallation: appInstallationAnswer };

export async function startShopifyStandIn(
  options: {
    port?: number;
    shop?: string;
    catalog?: StandInCatalog;
    tls?: { key: string; cert: string };
    app?: StandInApp;
    /** The access scopes the shop granted (default: options.app's, else APP_SCOPES); GET|PUT /__scopes. */
    scopes?: readonly string[];
  } = {},
) {
  // Loaded before the first request (once per process): a missing schema stops the start, not a test.
  const admin = adminSchema();
  const grant = createGrant(options.scopes ?? (options.app ? scopesOf(options.app.scopes) : APP_SCOPES));
  const calls: RecordedCall[] = [];
  const issuedTokens = new Set<string>();
  const shop = options.shop ?? "demo-shop.myshopify.com";
  const catalog = options.catalog ?? synthesisedCatalog;
  const state = createStandInState(catalog);
  // One request at a time: a fulfilment checks and then changes remaining
  // quantities across awaits, and two at once must not both pass the check.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.then(async () => {
      state.answering(true);
      try {
        return await work();
      } finally {
        state.answering(false);
      }
    });
    queue = result.catch(() => undefined);
    return result;
  };

  const throttle = createThrottle();

  const listener: RequestListener = async (request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    const requestShop = (request.headers.host ?? "").split(":")[0].toLowerCase();
    try {
      if (request.url === "/admin/oauth/access_token" && request.method === "POST" && options.app) {
        const body = JSON.parse(await readBody(request)) as Record<string, string | undefined>;
        calls.push({
          operation: "TokenExchange",
          variables: { shop: requestShop, requested_token_type: body.requested_token_type },
          at: new Date().toISOString(),
        });
        if (body.client_id !== options.app.apiKey || body.client_secret !== options.app.apiSecret) return send(401, { error: "invalid_client" });
        const token = verifiedSessionToken(String(body.subject_token ?? ""), options.app);
        if (typeof token === "string" || new URL(token.dest).hostname !== requestShop || requestShop !== shop) {
          return send(400, { error: "invalid_subject_token", error_description: typeof token === "string" ? token : "another shop" });
        }
        const accessToken = `shpat_${randomBytes(16).toString("hex")}`;
        issuedTokens.add(accessToken);
        return send(200, { access_token: accessToken, scope: grant.scopes.join(",") });
      }
      if (request.url === "/__calls") {
        if (request.method === "DELETE") calls.length = 0;
        return send(200, calls);
      }
      if (request.url === "/__inventory" && request.method === "GET") {
        const levels = [...state.levels.values()]
          .filter((level) => level.name === "available")
          .map(({ sku, location, quantity }) => ({ sku, location, quantity }))
          .sort((a, b) => a.location.localeCompare(b.location) || a.sku.localeCompare(b.sku));
        return send(200, levels);
      }
      if (request.url === "/__state" && request.method === "DELETE") {
        calls.length = 0;
        state.reset();
        throttle.reset();
        idempotentAnswersOf(state).clear();
        forgetLocationChanges(state);
        grant.reset();
        return send(200, { ok: true });
      }
      if (request.url === "/__scopes") {
        if (request.method === "PUT") {
          const control = scopesControl.safeParse(JSON.parse((await readBody(request)) || "null"));
          if (!control.success) return send(422, { errors: control.error.issues.map((issue) => ({ path: issue.path, message: issue.message })) });
          grant.set(control.data.scopes);
        } else if (request.method !== "GET") return send(405, { errors: "GET or PUT" });
        return send(200, { scopes: grant.scopes });
      }
      const control = await locationControl(request, state);
      if (control) return send(control.status, control.body);
      if (request.url === "/__throttle") {
        if (request.method === "POST") {
          const control = throttleControl.safeParse(JSON.parse((await readBody(request)) || "{}"));
          if (!control.success) return send(422, { errors: control.error.issues.map((issue) => ({ path: issue.path, message: issue.message })) });
          throttle.configure(control.data);
        } else if (request.method === "DELETE") throttle.reset();
        return send(200, throttle.status());
      }
      const route = /^\/admin\/api\/([\w-]+)\/graphql\.json$/.exec(request.url ?? "");
      if (request.method !== "POST" || !route) {
        return send(404, { errors: "Not Found" });
      }
      if (options.app && !issuedTokens.has(String(request.headers["x-shopify-access-token"] ?? ""))) {
        return send(401, { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" });
      }
      const arrivedMs = performance.now();
      const inFlight = throttle.enter();
      try {
        const body = JSON.parse(await readBody(request)) as { query?: string; operationName?: string; variables?: Record<string, unknown> };
        const document = body.query ?? "";
        const name = operationName(document, body.operationName);
        const variables = body.variables ?? {};
        const call: RecordedCall = { operation: name ?? "(anonymous)", variables, at: new Date().toISOString(), version: route[1], arrivedMs, inFlight };
        calls.push(call);
        // Refused as Shopify refuses an invalid document or variables, before anything runs or costs: errors, no data.
        const checked = checkRequest(admin.schema, document, body.operationName, variables);
        if (!checked.ok) {
          call.invalid = checked.errors.map((error) => String(error.extensions?.code ?? "parse"));
          call.answeredMs = performance.now();
          return send(200, { errors: checked.errors });
        }
        const gate = throttle.admit(document, variables);
        await throttle.delay();
        const answer = (status: number, answerBody: unknown, headers: Record<string, string> = {}) => {
          call.answeredMs = performance.now();
          response.writeHead(status, { "content-type": "application/json", ...headers });
          response.end(JSON.stringify(answerBody));
        };
        // Refused for the rate limit before anything ran: nothing changed, so a resend is safe.
        if (gate.kind === "http429") {
          Object.assign(call, { throttled: "HTTP 429", retryAfterMs: gate.retryAfterSeconds * 1000 });
          return answer(429, HTTP_429_BODY, { "retry-after": String(gate.retryAfterSeconds) });
        }
        if (gate.kind === "throttled") {
          Object.assign(call, { throttled: "THROTTLED", retryAfterMs: gate.waitMs });
          return answer(200, { errors: [THROTTLED_ERROR], extensions: { cost: gate.cost } });
        }
        if (gate.kind === "too_costly") {
          const message = `Query cost is ${gate.requested}, which exceeds the single query max cost limit (${MAX_SINGLE_QUERY_COST}).`;
          return answer(200, {
            errors: [{ message, extensions: { code: "MAX_COST_EXCEEDED", cost: gate.requested, maxCost: MAX_SINGLE_QUERY_COST } }],
            extensions: { cost: { requestedQueryCost: gate.requested, actualQueryCost: null, throttleStatus: throttle.statusNow() } },
          });
        }
        const extensions = { cost: gate.cost };
        const roots = rootFieldNames(checked.operation);
        const handler = name ? handlers[name] : undefined;
        if (!handler && !roots.every((root) => root in ROOT_ANSWERS)) {
          return answer(200, { errors: [{ message: `The Shopify stand-in does not answer ${name ?? "anonymous operations"}` }], extensions });
        }
        // A mutation refused for the scopes runs nothing: its root fields are checked before the handler is called.
        const deniedRoots =
          checked.operation.operation === "mutation"
            ? deniedFields(admin, { kind: checked.document.kind, definitions: [checked.operation] }, grant.scopes).filter((denied) => denied.path.length === 1)
            : [];
        try {
          // Shaped in the same turn as the handler ran, so that no other request changes the state it answers from.
          const shaped = await serially(async () => {
            const computed = deniedRoots.length
              ? Object.fromEntries(roots.map((root) => [root, null]))
              : handler
                ? await handler(variables, { shop, state, catalog, document })
                : {};
            const data = {
              ...Object.fromEntries(roots.filter((root) => root in ROOT_ANSWERS).map((root) => [root, ROOT_ANSWERS[root](grant)])),
              ...(computed as object),
            };
            return shapeAnswer({ admin, document: checked.document, operation: checked.operation, variables, data, covered: grant.covered() });
          });
          if (shaped.errors) call.accessDenied = shaped.errors.map((error) => (error.path ?? []).join("."));
          // A `nodes` query costs what it returned, not what it asked for at most.
          const cost = nodesIds(document, variables) ? throttle.settle(gate.requested, actualNodesCost(shaped.data)) : gate.cost;
          return answer(200, { ...(shaped.errors ? { errors: shaped.errors } : {}), data: shaped.data, extensions: { cost } });
        } catch (error) {
          // Refused as Shopify's GraphQL validation refuses: errors and no data.
          if (error instanceof GraphqlRequestError) return answer(200, { errors: error.errors, extensions });
          // The stand-in's own bug: loud, so that the test that met it fails.
          if (error instanceof StandInAnswerViolation) {
            call.violation = error.message;
            return answer(500, { errors: [{ message: error.message, extensions: { code: "STAND_IN_ANSWER_VIOLATION", violations: error.violations } }] });
          }
          // The catalog failed (say the database is down): Shopify's answer to its own faults.
          return answer(500, { errors: [{ message: `Internal error in the stand-in: ${(error as Error).message}` }] });
        }
      } finally {
        throttle.leave();
      }
    } catch (error) {
      return send(400, { errors: [{ message: `Bad request: ${(error as Error).message}` }] });
    }
  };
  const server = options.tls ? createHttpsServer(options.tls, listener) : createServer(listener);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? "https" : "http"}://127.0.0.1:${port}`,
    port,
    /** Access tokens issued by token exchange; a test can store a session with one. */
    issuedTokens,
    calls,
    /** As POST /__throttle (an empty control changes nothing), for a test that cannot reach it over HTTP (TLS with a test CA). */
    throttle: (control: ThrottleControl) => {
      throttle.configure(throttleControl.parse(control));
      return throttle.status();
    },
    /** As DELETE /__throttle. */
    unthrottle: () => throttle.reset(),
    /** As PUT /__scopes, for a test that cannot reach it over HTTP (TLS with a test CA). */
    grant: (scopes: readonly string[]) => grant.set(scopesControl.parse({ scopes }).scopes),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
