// Locations and their inventory levels (the stores: app/sales/stores.server.ts).
// The catalog names the locations; a test adds, renames, deactivates or deletes
// them through POST /__locations, as a merchant would in the Shopify admin.
// Levels come from the catalog until InventorySetQuantities or PUT /__levels
// sets them.
import type { IncomingMessage } from "node:http";
import type { Handler, StandInCatalog, StandInState } from "../stand-in.server";
import { page, type Located } from "../stand-in-fulfillment-orders.server";
import { firstOf, inventoryItemGid, locationGid, numericIdOf, readBody, skusInQuery } from "./common.server";

export interface ServedLocation {
  id: string;
  name: string;
  isActive: boolean;
  updatedAt: string;
}
interface LocationChange {
  name?: string;
  isActive?: boolean;
  deleted?: boolean;
  updatedAt?: string;
}
// When the catalog's locations were last changed, as far as the stand-in tells.
const CATALOG_LOCATIONS_UPDATED_AT = "2026-01-05T14:00:00.000Z";
const locationChanges = new WeakMap<object, Map<string, LocationChange>>();
/** DELETE /__state: the catalog's locations as they were. */
export const forgetLocationChanges = (state: object) => locationChanges.delete(state);
export const changesOf = (state: object) => {
  let changes = locationChanges.get(state);
  if (!changes) locationChanges.set(state, (changes = new Map()));
  return changes;
};
export const locationGidOf = (id: string) => (id.startsWith("gid://") ? id : `gid://shopify/Location/${id}`);

/** The shop's locations, sorted by id (as `sortKey: ID` answers), deleted ones left out. */
export async function servedLocations(state: StandInState): Promise<ServedLocation[]> {
  const byId = new Map<string, ServedLocation>();
  for (const name of await state.catalogLocations())
    byId.set(locationGid(name), { id: locationGid(name), name, isActive: true, updatedAt: CATALOG_LOCATIONS_UPDATED_AT });
  for (const [id, change] of changesOf(state)) {
    const known = byId.get(id);
    if (change.deleted) {
      byId.delete(id);
      continue;
    }
    byId.set(id, {
      id,
      name: change.name ?? known?.name ?? `Location ${numericIdOf(id)}`,
      isActive: change.isActive ?? known?.isActive ?? true,
      updatedAt: change.updatedAt ?? known?.updatedAt ?? CATALOG_LOCATIONS_UPDATED_AT,
    });
  }
  return [...byId.values()].sort((a, b) => (BigInt(numericIdOf(a.id)) < BigInt(numericIdOf(b.id)) ? -1 : 1));
}

/** Available quantity per SKU the catalog knows, per active location that stocks it. */
export async function availableLevels(state: StandInState, catalog: StandInCatalog, skus: string[]) {
  const known = skus.length ? await catalog.variants(skus) : [];
  const active = (await servedLocations(state)).filter((location) => location.isActive);
  const base = new Map<string, number>();
  for (const level of (await catalog.levels?.(known)) ?? []) base.set(`${level.sku}|${locationGid(level.location)}`, level.quantity);
  return known.map((sku) => {
    const item = inventoryItemGid(sku);
    state.skuOfItem.set(item, sku);
    const levels = active.flatMap((location) => {
      const quantity = state.levels.get(`${item}|${location.id}|available`)?.quantity ?? base.get(`${sku}|${location.id}`);
      return quantity === undefined ? [] : [{ location: { id: location.id }, quantities: [{ name: "available", quantity }] }];
    });
    return { id: item, sku, tracked: true, levels };
  });
}

/**
 * A fulfilment takes its units from the available stock at its location, where that location stocks the SKU:
 * the level set last, else the catalog's (one read; the fulfilment's location is known and active).
 */
export async function takeAvailable(state: StandInState, catalog: StandInCatalog, sku: string, location: Located, quantity: number) {
  const item = inventoryItemGid(sku);
  const key = `${item}|${location.id}|available`;
  const now =
    state.levels.get(key)?.quantity ??
    (await catalog.levels?.([sku]))?.find((level) => level.sku === sku && locationGid(level.location) === location.id)?.quantity;
  if (now === undefined) return;
  state.skuOfItem.set(item, sku);
  state.levels.set(key, { sku, location: location.name, quantity: now - quantity, name: "available" });
}

/** ShopLocations, InventoryLevelsBySku and InventoryItemLevels. */
export const locationHandlers = {
  ShopLocations: async (variables, { state, document }) => {
    const all = await servedLocations(state);
    const { pageInfo, nodes } = page(all, variables.after, firstOf(document, "locations") ?? 50, "shop-locations");
    return {
      locations: {
        pageInfo,
        nodes: nodes.map((location) => ({
          id: location.id,
          legacyResourceId: numericIdOf(location.id),
          name: location.name,
          isActive: location.isActive,
          isFulfillmentService: false,
          fulfillsOnlineOrders: location.isActive,
          updatedAt: location.updatedAt,
        })),
      },
    };
  },

  InventoryLevelsBySku: async (variables, { state, catalog, document }) => {
    const asked = [...new Set(skusInQuery(String(variables.query ?? "")))];
    const items = await availableLevels(state, catalog, asked);
    const { pageInfo, nodes } = page(items, variables.after, firstOf(document, "inventoryItems") ?? 50, "items");
    const levelsFirst = firstOf(document, "inventoryLevels") ?? 50;
    return {
      inventoryItems: {
        pageInfo,
        nodes: nodes.map((item) => ({
          id: item.id,
          sku: item.sku,
          tracked: item.tracked,
          inventoryLevels: page(item.levels, null, levelsFirst, `levels:${item.id}`),
        })),
      },
    };
  },

  InventoryItemLevels: async (variables, { state, catalog, document }) => {
    const sku = state.skuOfItem.get(String(variables.id ?? ""));
    if (!sku) return { inventoryItem: null };
    const [item] = await availableLevels(state, catalog, [sku]);
    const levelsFirst = firstOf(document, "inventoryLevels") ?? 50;
    return item
      ? { inventoryItem: { id: item.id, inventoryLevels: page(item.levels, variables.after, levelsFirst, `levels:${item.id}`) } }
      : { inventoryItem: null };
  },
} satisfies Record<string, Handler>;

/** The control routes of locations and levels; null for any other request. */
export async function locationControl(request: IncomingMessage, state: StandInState): Promise<{ status: number; body: unknown } | null> {
  if (request.url === "/__locations" && request.method === "GET") return { status: 200, body: await servedLocations(state) };
  if (request.url === "/__locations" && request.method === "POST") {
    const input = JSON.parse(await readBody(request)) as { id?: string | number; name?: string; isActive?: boolean; deleted?: boolean };
    if (input.id === undefined && !input.name) return { status: 400, body: { errors: "a location needs an id or a name" } };
    const id = input.id !== undefined ? locationGidOf(String(input.id)) : locationGid(input.name!);
    const change = { ...changesOf(state).get(id) };
    if (input.name !== undefined) change.name = input.name;
    if (input.isActive !== undefined) change.isActive = input.isActive;
    if (input.deleted !== undefined) change.deleted = input.deleted;
    change.updatedAt = new Date().toISOString();
    changesOf(state).set(id, change);
    const served = (await servedLocations(state)).find((location) => location.id === id) ?? { id, deleted: true };
    return { status: 200, body: { ...served, legacyResourceId: numericIdOf(id) } };
  }
  if (request.url === "/__levels" && request.method === "PUT") {
    const levels = JSON.parse(await readBody(request)) as Array<{ sku: string; location: string; quantity: number }>;
    const locations = await servedLocations(state);
    for (const level of levels) {
      const location = locations.find((each) => each.name === level.location || each.id === locationGidOf(String(level.location)));
      if (!location) return { status: 400, body: { errors: `no location ${level.location}` } };
      const item = inventoryItemGid(level.sku);
      state.skuOfItem.set(item, level.sku);
      state.levels.set(`${item}|${location.id}|available`, { sku: level.sku, location: location.name, quantity: level.quantity, name: "available" });
    }
    return { status: 200, body: { ok: true, set: levels.length } };
  }
  return null;
}
