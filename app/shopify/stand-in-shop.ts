// Local mode's shop on the Shopify side: its store locations and what each
// has available. The Shopify stand-in serves them (stand-in-catalog.server.ts),
// and they reach inventory_source the way a real shop's do, through the
// location_sync feed (docs/decisions.md D48); nothing writes them there directly.
import { createHash } from "node:crypto";

/** The demo's store locations, with the AS400 source code staff give each on the Stores screen. */
export const DEMO_STORE_LOCATIONS = [
  { name: "Store 001 - Chicago", as400Code: "001" },
  { name: "Store 002 - Milwaukee", as400Code: "002" },
  { name: "Store 003 - Indianapolis", as400Code: "003" },
  { name: "Store 004 - Detroit", as400Code: "004" },
  { name: "Store 005 - Minneapolis", as400Code: "005" },
  { name: "Store 006 - St. Louis", as400Code: "006" },
] as const;

const hashed = (value: string) => createHash("sha256").update(value).digest().readUInt32BE(0);

/**
 * What a demo store has available of a SKU, or null when it does not stock it.
 * The first two stores stock every SKU (5 or more), so an open order always
 * has a store to go to; the others stock about six SKUs in ten, 0 to 40 each.
 */
export function demoAvailable(location: string, sku: string): number | null {
  const index = DEMO_STORE_LOCATIONS.findIndex((store) => store.name === location);
  if (index < 0) return null;
  const roll = hashed(`${location}\u0000${sku}`);
  if (index < 2) return 5 + (roll % 36);
  return roll % 10 < 6 ? (roll >>> 4) % 41 : null;
}
