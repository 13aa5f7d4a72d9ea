// Dropshippers are the vendors (docs/decisions.md D51): saving a vendor makes
// its inventory source (type dropshipper, source_code = the vendor's store_id,
// named as the vendor) exist in the same transaction, so it can be assigned to
// at once. A code no enabled vendor uses any more stops being offered and keeps
// its row (its assignments still show its name). What a dropshipper has
// available is its last 846 (apply-responses.server.ts).
import type { Prisma } from "~/db/generated/client";
import { lockSources } from "./source-lock.server";

/**
 * Brings the dropshipper sources of these codes in line with the vendors that
 * use them: named as the vendor (not archived and enabled first, then the
 * oldest), enabled while one of them is enabled and not archived.
 */
export async function syncVendorSources(tx: Prisma.TransactionClient, codes: string[]): Promise<void> {
  const wanted = [...new Set(codes.filter(Boolean))].sort();
  if (wanted.length === 0) return;
  await lockSources(tx);
  await tx.$executeRaw`
    INSERT INTO inventory_source (source_code, name, type, enabled, created_at, updated_at)
    SELECT DISTINCT ON (v.store_id) v.store_id, v.name, 'dropshipper', CASE WHEN v.enabled = 1 AND v.archived_at IS NULL THEN 1 ELSE 0 END, now(), now()
      FROM dropship_vendor v
     WHERE v.store_id = ANY(${wanted}::text[])
     ORDER BY v.store_id, (v.archived_at IS NULL AND v.enabled = 1) DESC, (v.archived_at IS NULL) DESC, v.id
    ON CONFLICT (source_code) DO UPDATE SET name = EXCLUDED.name, enabled = EXCLUDED.enabled, updated_at = now()
     WHERE inventory_source.type = 'dropshipper'
       AND (inventory_source.name, inventory_source.enabled) IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.enabled)`;
  // Codes no vendor has any more (a vendor deleted, or its store_id changed).
  await tx.$executeRaw`
    UPDATE inventory_source s SET enabled = 0, updated_at = now()
     WHERE s.type = 'dropshipper' AND s.enabled = 1 AND s.source_code = ANY(${wanted}::text[])
       AND NOT EXISTS (SELECT 1 FROM dropship_vendor v WHERE v.store_id = s.source_code)`;
  // A store made for a location named as the vendor is the vendor's location (where its stock is pushed).
  const moved = await tx.$queryRaw<Array<{ store: string; dropshipper: string; location: string }>>`
    SELECT s.source_code AS store, d.source_code AS dropshipper, s.shopify_location_id AS location
      FROM inventory_source d JOIN inventory_source s
        ON s.type = 'store' AND s.shopify_location_id IS NOT NULL AND lower(btrim(s.name)) = lower(btrim(d.name))
     WHERE d.type = 'dropshipper' AND d.source_code = ANY(${wanted}::text[]) AND d.shopify_location_id IS NULL
     ORDER BY s.source_code`;
  const done = new Set<string>();
  for (const row of moved) {
    if (done.has(row.store)) continue;
    done.add(row.store);
    await tx.inventorySource.update({ where: { source_code: row.store }, data: { shopify_location_id: null, enabled: 0 } });
    await tx.inventorySource.update({ where: { source_code: row.dropshipper }, data: { shopify_location_id: row.location } });
  }
}

/** The store that has this source code, if any: a vendor cannot take a store's code. */
export async function storeWithCode(tx: Prisma.TransactionClient, code: string): Promise<{ name: string } | null> {
  const [row] = await tx.$queryRaw<Array<{ name: string }>>`SELECT name FROM inventory_source WHERE source_code = ${code} AND type = 'store'`;
  return row ?? null;
}
