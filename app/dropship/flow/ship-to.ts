// Where a request ships to, as every file we send a vendor writes it: the 850, the
// purchase-order CSV, and a cancellation that replaces the PO (850 BEG01 05).
import type { DropshipRequest } from "~/db/generated/client";

type ShipToFields = Pick<DropshipRequest, "ship_name_first" | "ship_name_last" | "ship_address" | "ship_city" | "ship_state" | "ship_zip" | "country_id">;

/** Where a request ships to, as both the X12 and the CSV purchase order write it. */
export function shipToOf(request: ShipToFields) {
  const lines = request.ship_address
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  return {
    name: `${request.ship_name_first} ${request.ship_name_last}`.trim(),
    address1: lines[0] ?? "",
    address2: lines.slice(1).join(", ") || undefined,
    city: request.ship_city,
    state: request.ship_state,
    zip: request.ship_zip,
    country: request.country_id.toUpperCase(),
  };
}
