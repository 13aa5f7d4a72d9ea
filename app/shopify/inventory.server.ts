// Pushing absolute "available" stock for SKUs at one Shopify location.
// Our stock (inventory_source_item) is the source of truth, so Shopify's
// compare-and-swap check is skipped (changeFromQuantity null, D45).
import { randomUUID } from "node:crypto";
import { ShopifyApiError, type ShopifyAdmin } from "./admin-client.server";
import { InventorySetQuantities, Locations, VariantsBySku, type InventorySetQuantitiesInput } from "./operations";
import { readAllPages } from "./pages.server";

/** An inventory push that cannot be made; the message is for people. */
export class ShopifyInventoryError extends ShopifyApiError {
  constructor(message: string, operation: string, details: unknown) {
    super(operation, details);
    this.name = "ShopifyInventoryError";
    this.message = message;
  }
}

// Shopify's search caps the query length; 50 SKUs keep well under it. Its
// matches are not exact, so each search is read to its last page (D165).
const SKUS_PER_QUERY = 50;
// inventorySetQuantities takes at most 250 quantities per call.
const QUANTITIES_PER_CALL = 250;
const LOCATION_TTL_MS = 5 * 60_000;

const locationCache = new WeakMap<ShopifyAdmin, { at: number; byName: Map<string, string> }>();

/** Locations rarely change; a job pushing many sources asks once per few minutes. */
async function locationsOf(admin: ShopifyAdmin): Promise<Map<string, string>> {
  const cached = locationCache.get(admin);
  if (cached && Date.now() - cached.at < LOCATION_TTL_MS) return cached.byName;
  const locations = await readAllPages(async (after) => (await admin.run(Locations, { after })).locations, "Locations");
  const byName = new Map(locations.map((location) => [location.name, location.id]));
  locationCache.set(admin, { at: Date.now(), byName });
  return byName;
}

export async function resolveLocationId(admin: ShopifyAdmin, locationName: string): Promise<string> {
  const byName = await locationsOf(admin);
  const exact = byName.get(locationName);
  if (exact) return exact;
  // Staff type names by hand in inventory_source; forgive case and spaces, but only when unambiguous.
  const wanted = locationName.trim().toLowerCase();
  const loose = [...byName].filter(([name]) => name.trim().toLowerCase() === wanted);
  if (loose.length === 1) return loose[0][1];
  throw new ShopifyInventoryError(`Shopify has no location named "${locationName}" (it has: ${[...byName.keys()].join(", ") || "none"}).`, Locations.name, {
    locationName,
  });
}

/** A search term matching exactly this SKU: quoted, with quotes and backslashes escaped. */
export function skuSearchTerm(sku: string): string {
  return `sku:"${sku.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Inventory item ids per SKU; a SKU shared by several variants maps to each of their items. */
async function inventoryItemsBySku(admin: ShopifyAdmin, skus: string[]): Promise<Map<string, string[]>> {
  const items = new Map<string, string[]>();
  for (const batch of chunks(skus, SKUS_PER_QUERY)) {
    const query = batch.map(skuSearchTerm).join(" OR ");
    const variants = await readAllPages(async (after) => (await admin.run(VariantsBySku, { query, after })).productVariants, "VariantsBySku");
    const wanted = new Set(batch);
    // Shopify's search is not exact (tokens, prefixes): keep only equal SKUs.
    for (const variant of variants) {
      if (!variant.sku || !wanted.has(variant.sku)) continue;
      const ids = items.get(variant.sku) ?? [];
      if (!ids.includes(variant.inventoryItem.id)) ids.push(variant.inventoryItem.id);
      items.set(variant.sku, ids);
    }
  }
  return items;
}

export async function setAvailableQuantities(
  admin: ShopifyAdmin,
  input: { locationName: string; items: Array<{ sku: string; quantity: number }> },
): Promise<{ set: number; unknownSkus: string[]; locationId: string }> {
  const locationId = await resolveLocationId(admin, input.locationName);
  // Last quantity wins for a SKU given twice: Shopify refuses duplicate item/location pairs.
  const quantityBySku = new Map<string, number>();
  for (const item of input.items) {
    if (!Number.isInteger(item.quantity)) {
      throw new ShopifyInventoryError(`Quantity ${item.quantity} for SKU ${item.sku} is not a whole number.`, InventorySetQuantities.name, item);
    }
    quantityBySku.set(item.sku, item.quantity);
  }
  const skus = [...quantityBySku.keys()];
  const itemsBySku = await inventoryItemsBySku(admin, skus);
  const unknownSkus = skus.filter((sku) => !itemsBySku.has(sku));

  const quantities: Array<Omit<InventorySetQuantitiesInput["quantities"][number], "changeFromQuantity"> & { sku: string }> = [];
  for (const [sku, inventoryItemIds] of itemsBySku) {
    for (const inventoryItemId of inventoryItemIds) quantities.push({ sku, inventoryItemId, locationId, quantity: quantityBySku.get(sku)! });
  }

  let set = 0;
  for (const batch of chunks(quantities, QUANTITIES_PER_CALL)) {
    // A new key per batch: a later push of the same levels is a new change, not a replay of this one.
    const { inventorySetQuantities } = await admin.run(InventorySetQuantities, {
      input: {
        name: "available",
        reason: "correction",
        quantities: batch.map(({ inventoryItemId, locationId, quantity }) => ({ inventoryItemId, locationId, quantity, changeFromQuantity: null })),
      },
      idempotencyKey: randomUUID(),
    });
    const errors = inventorySetQuantities?.userErrors ?? [];
    if (errors.length) {
      // field is ["input", "quantities", index, ...]: name the SKU rather than a position.
      const described = errors.map((error) => {
        const sku = error.field?.[1] === "quantities" ? batch[Number(error.field[2])]?.sku : undefined;
        return sku ? `SKU ${sku}: ${error.message}` : error.message;
      });
      throw new ShopifyInventoryError(
        `Shopify refused the stock for "${input.locationName}" (${set} of ${quantities.length} already set): ${described.join("; ")}`,
        InventorySetQuantities.name,
        errors,
      );
    }
    set += batch.length;
  }
  return { set, unknownSkus, locationId };
}
