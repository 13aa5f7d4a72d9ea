// Stores are the shop's Shopify locations (docs/decisions.md D48–D52): read
// at install, by the location_sync feed and on the locations/* webhooks, each
// an inventory_source row of type store keyed by its location id. A location
// that is deactivated or deleted stops being offered and keeps its row, so its
// assignments still show its name. What a store has available of a SKU is the
// location's "available" quantity, refreshed by the feed for the SKUs of open
// orders and on demand when Manual Assignment or Reassign load.
import { z } from "zod";
import prisma from "~/db.server";
import type { Prisma } from "~/db/generated/client";
import type { FeedOutcome, FeedRunContext } from "~/feeds/runner.server";
import { defineGrid, gridSourceFrom, optionsFrom, runGrid } from "~/grid/grid.server";
import { englishText } from "~/i18n/english.server";
import { message, type RunMessage } from "~/i18n/messages";
import { coded, NotFoundError, parseInput, ValidationError, type Problem } from "~/lib/validation.server";
import type { Staff } from "~/shopify/staff";
import { shopifyAdminFor, type ShopifyAdmin } from "~/shopify/admin-client.server";
import { numericId, readAvailableBySku, readShopLocations, type SkuAvailability } from "~/shopify/locations.server";
import { withRetry } from "./assignments.server";
import { FINISHED_ORDER_STATUSES } from "./assignment-status.server";
import { lockSources } from "./source-lock.server";
import { STORE_FORM_PATH } from "./store-paths";
import { logger } from "~/observability/logger.server";

const log = logger("stores");

export const LOCATION_SYNC_FEED = { name: "location_sync", defaultCron: "15 * * * *" } as const;

/**
 * A new location's source code until staff set the AS400's: `L` and the
 * location's numeric id. Stable (a rename in Shopify does not change it), the
 * same for the same location after any resync, unique, and unlike both the
 * AS400's store numbers and the vendors' codes (D49).
 */
export const defaultSourceCode = (locationId: string) => `L${locationId}`;

/** What the app knows of a location, from the Admin API or a webhook. */
export interface LocationFact {
  locationId: string;
  name: string;
  active: boolean;
  /** Shopify's updated_at; an older fact than the one applied last is ignored. */
  updatedAt: Date | null;
}

export interface LocationsApplied {
  created: string[];
  updated: number;
  disabled: number;
  /** Locations named as a vendor: its stock's location, not a store. */
  vendorLocations: number;
  /** As codes (D116). */
  problems: RunMessage[];
}

interface SourceRow {
  source_code: string;
  name: string;
  type: string;
  shopify_location_id: string | null;
  shopify_updated_at: Date | null;
  enabled: number;
}

const nameKey = (name: string) => name.trim().toLowerCase();

/**
 * Applies locations to the stores in one transaction. With `complete` (the
 * shop's whole list), stores whose location is not in it were deleted in
 * Shopify: they are disabled.
 */
export async function applyLocations(facts: LocationFact[], options: { complete: boolean }): Promise<LocationsApplied> {
  return withRetry(() =>
    prisma.$transaction(
      async (tx) => {
        await lockSources(tx);
        const result: LocationsApplied = { created: [], updated: 0, disabled: 0, vendorLocations: 0, problems: [] };
        const sources = await tx.$queryRaw<SourceRow[]>`
          SELECT source_code, name, type, shopify_location_id, shopify_updated_at, enabled FROM inventory_source ORDER BY source_code`;
        const byLocation = new Map(sources.filter((row) => row.shopify_location_id).map((row) => [row.shopify_location_id!, row]));
        const dropshippers = new Map(sources.filter((row) => row.type === "dropshipper").map((row) => [nameKey(row.name), row]));
        const unlinkedStores = new Map(sources.filter((row) => row.type === "store" && !row.shopify_location_id).map((row) => [nameKey(row.name), row]));
        const codes = new Set(sources.map((row) => row.source_code));
        const seen = new Set<string>();
        // Updates are collected, then written in key order (as the assignment rules lock sources, D21).
        const updates = new Map<string, Prisma.InventorySourceUpdateInput>();
        const update = (code: string, data: Prisma.InventorySourceUpdateInput) => updates.set(code, { ...updates.get(code), ...data });

        for (const fact of facts) {
          seen.add(fact.locationId);
          const linked = byLocation.get(fact.locationId);
          if (linked && fact.updatedAt && linked.shopify_updated_at && fact.updatedAt < linked.shopify_updated_at) continue;
          const vendor = linked?.type === "dropshipper" ? linked : dropshippers.get(nameKey(fact.name));
          if (vendor) {
            result.vendorLocations++;
            if (linked && linked !== vendor) {
              // A store made for this location before the vendor existed: it was the vendor's location all along.
              update(linked.source_code, { shopify_location_id: null, enabled: 0 });
              result.disabled++;
            }
            if (vendor.shopify_location_id !== fact.locationId) update(vendor.source_code, { shopify_location_id: fact.locationId });
            continue;
          }
          const enabled = fact.active ? 1 : 0;
          const store = linked ?? unlinkedStores.get(nameKey(fact.name));
          if (store) {
            // A store row made by hand before (or by an older version) with the location's name is that location.
            unlinkedStores.delete(nameKey(fact.name));
            const changed = store.name !== fact.name || store.enabled !== enabled || store.shopify_location_id !== fact.locationId;
            if (changed || (fact.updatedAt && fact.updatedAt.getTime() !== store.shopify_updated_at?.getTime())) {
              update(store.source_code, {
                name: fact.name,
                enabled,
                shopify_location_id: fact.locationId,
                shopify_updated_at: fact.updatedAt ?? store.shopify_updated_at,
              });
            }
            if (store.enabled && !enabled) result.disabled++;
            else if (changed) result.updated++;
            continue;
          }
          const code = defaultSourceCode(fact.locationId);
          if (codes.has(code)) {
            result.problems.push(message("logs.location_sync.code_taken", { location: fact.locationId, name: fact.name, code }));
            continue;
          }
          await tx.inventorySource.create({
            data: { source_code: code, name: fact.name, type: "store", shopify_location_id: fact.locationId, shopify_updated_at: fact.updatedAt, enabled },
          });
          codes.add(code);
          result.created.push(code);
        }

        if (options.complete) {
          for (const row of sources) {
            if (!row.shopify_location_id || seen.has(row.shopify_location_id) || updates.has(row.source_code)) continue;
            if (row.type === "dropshipper") update(row.source_code, { shopify_location_id: null });
            else if (row.enabled) {
              update(row.source_code, { enabled: 0 });
              result.disabled++;
            }
          }
        }
        // Links cleared first: a location id is unique, and may move from a store row to a vendor's.
        const ordered = [...updates.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        for (const [code, data] of ordered) if (data.shopify_location_id === null) await tx.inventorySource.update({ where: { source_code: code }, data });
        for (const [code, data] of ordered) if (data.shopify_location_id !== null) await tx.inventorySource.update({ where: { source_code: code }, data });
        return result;
      },
      { maxWait: 10_000, timeout: 60_000 },
    ),
  );
}

/** locations/delete: the store stops being offered and keeps its history; a vendor's location is unlinked. */
export async function deleteLocation(locationId: string): Promise<{ disabled: boolean }> {
  return prisma.$transaction(async (tx) => {
    await lockSources(tx);
    const row = await tx.inventorySource.findUnique({ where: { shopify_location_id: locationId }, select: { source_code: true, type: true, enabled: true } });
    if (!row) return { disabled: false };
    if (row.type === "dropshipper") {
      await tx.inventorySource.update({ where: { source_code: row.source_code }, data: { shopify_location_id: null } });
      return { disabled: false };
    }
    await tx.inventorySource.update({ where: { source_code: row.source_code }, data: { enabled: 0, shopify_updated_at: new Date() } });
    return { disabled: row.enabled === 1 };
  });
}

// --- locations/* webhooks ---------------------------------------------------------------

export type LocationWebhookAction = "create" | "update" | "activate" | "deactivate" | "delete";

// The REST shape Shopify's location webhooks carry; delete sends only the id.
const LocationPayload = z.object({
  id: z.union([z.number().int().positive(), z.string().regex(/^\d{1,20}$/)]),
  name: z.string().trim().min(1).max(255).optional(),
  active: z.boolean().optional(),
  legacy: z.boolean().nullish(),
  updated_at: z.string().nullish(),
});

/**
 * A locations/* webhook (already checked by authenticateWebhook): the store is
 * created, renamed, activated, deactivated or, for delete, no longer offered.
 * A payload that cannot be used is answered 200 all the same (Shopify would
 * retry it for days) and logged.
 */
export async function applyLocationWebhook(action: LocationWebhookAction, payload: unknown, meta: { shop: string; webhookId: string }) {
  const parsed = LocationPayload.safeParse(payload);
  const ignored = (reason: string) => {
    log.warn(`locations/${action} webhook ${meta.webhookId} from ${meta.shop} ignored: ${reason}`);
    return { ok: false, ignored: reason };
  };
  if (!parsed.success)
    return ignored(`the payload is not a location (${parsed.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`).join("; ")})`);
  const location = parsed.data;
  const locationId = String(location.id);
  if (action === "delete") return { ok: true, location_id: locationId, ...(await deleteLocation(locationId)) };
  if (!location.name) return ignored("the payload has no name");
  // Fulfilment-service apps' own locations are not stores.
  if (location.legacy) return ignored(`location ${locationId} belongs to a fulfilment service`);
  const updatedAt = location.updated_at && !Number.isNaN(Date.parse(location.updated_at)) ? new Date(location.updated_at) : null;
  const active = action === "activate" ? true : action === "deactivate" ? false : (location.active ?? true);
  const applied = await applyLocations([{ locationId, name: location.name, active, updatedAt }], { complete: false });
  return {
    ok: true,
    location_id: locationId,
    created: applied.created,
    updated: applied.updated,
    disabled: applied.disabled,
    problems: applied.problems.map(englishText),
  };
}

// --- available quantities ------------------------------------------------------------

/** Stores the refresh writes: enabled, and linked to a Shopify location. */
async function linkedStores() {
  return prisma.inventorySource.findMany({
    where: { type: "store", enabled: 1, shopify_location_id: { not: null } },
    select: { source_code: true, shopify_location_id: true },
    orderBy: { source_code: "asc" },
  });
}

/**
 * Sets the stores' stock of these SKUs to what Shopify says is available at
 * their locations: a SKU Shopify tracks but a location does not stock is 0
 * there; a SKU Shopify does not know or does not track has no known quantity
 * (its rows go). Stores made by hand (no location) are left alone. The rows are
 * locked in key order, as the assignment rules lock them (D21).
 */
export async function refreshStoreStock(admin: ShopifyAdmin, skus: string[]): Promise<{ skus: number; quantities: number }> {
  const unique = [...new Set(skus.filter(Boolean))].sort();
  const stores = await linkedStores();
  if (unique.length === 0 || stores.length === 0) return { skus: 0, quantities: 0 };
  const availability = await readAvailableBySku(admin, unique);
  return writeStoreStock(stores, availability);
}

async function writeStoreStock(stores: Array<{ source_code: string; shopify_location_id: string | null }>, availability: Map<string, SkuAvailability>) {
  const rows: Array<{ code: string; sku: string; quantity: number }> = [];
  const unknown: string[] = [];
  for (const [sku, byLocation] of availability) {
    if (!byLocation) {
      unknown.push(sku);
      continue;
    }
    for (const store of stores) rows.push({ code: store.source_code, sku, quantity: byLocation.get(store.shopify_location_id!) ?? 0 });
  }
  rows.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0));
  const codes = stores.map((store) => store.source_code);
  const skus = [...availability.keys()];
  await withRetry(() =>
    prisma.$transaction(async (tx) => {
      await tx.$queryRaw`
        SELECT 1 FROM inventory_source_item WHERE source_code = ANY(${codes}::text[]) AND sku = ANY(${skus}::text[])
         ORDER BY source_code, sku FOR UPDATE`;
      if (rows.length) {
        await tx.$executeRaw`
          INSERT INTO inventory_source_item (source_code, sku, quantity, updated_at)
          SELECT c, s, q, now() FROM unnest(${rows.map((row) => row.code)}::text[], ${rows.map((row) => row.sku)}::text[],
            ${rows.map((row) => row.quantity)}::int[]) AS t(c, s, q)
          ON CONFLICT (source_code, sku) DO UPDATE SET quantity = EXCLUDED.quantity, updated_at = now()
          WHERE inventory_source_item.quantity IS DISTINCT FROM EXCLUDED.quantity`;
      }
      if (unknown.length) {
        await tx.$executeRaw`DELETE FROM inventory_source_item WHERE source_code = ANY(${codes}::text[]) AND sku = ANY(${unknown}::text[])`;
      }
    }),
  );
  return { skus: availability.size, quantities: rows.length };
}

const ON_DEMAND_TIMEOUT_MS = 5_000;

/**
 * The on-demand refresh of Manual Assignment and Reassign: the stores' stock
 * of the order's SKUs from Shopify, in one call for up to ten SKUs. Shopify
 * failing or slow never breaks the page: the stored quantities are used.
 */
export async function refreshStoreStockQuietly(admin: ShopifyAdmin | undefined, skus: string[]): Promise<void> {
  if (!admin || skus.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      log.warn(`stock refresh of ${skus.length} SKUs took over ${ON_DEMAND_TIMEOUT_MS} ms: the stored quantities are shown`);
      resolve();
    }, ON_DEMAND_TIMEOUT_MS);
  });
  const refresh = refreshStoreStock(admin, skus).then(
    () => undefined,
    (error: unknown) => log.warn(`stock refresh failed, the stored quantities are shown: ${(error as Error).message}`),
  );
  await Promise.race([refresh, timeout]);
  clearTimeout(timer);
}

/** The refresh of a signed-in request (Manual Assignment, Reassign), through its Shopify client. */
export const stockRefreshFor = (staff: Staff) => (skus: string[]) => refreshStoreStockQuietly(shopifyAdminFor(staff), skus);

/** The SKUs that matter: those of items of open orders with something left to assign (the Unassigned Orders). */
export async function openOrderSkus(): Promise<string[]> {
  const rows = await prisma.$queryRaw<Array<{ sku: string }>>`
    SELECT DISTINCT i.sku FROM order_item i JOIN order_grid o ON o.id = i.order_id
     WHERE o.total_assigned < o.total_shippable_qty_ordered
       AND (o.magento_status IS NULL OR o.magento_status <> ALL(${[...FINISHED_ORDER_STATUSES]}::text[]))
       AND i.sku <> ''
     ORDER BY i.sku`;
  return rows.map((row) => row.sku);
}

const SKUS_PER_BATCH = 200;

/** The location_sync feed's work: the locations, then the stores' stock of the open orders' SKUs, in batches. */
export async function syncLocations(admin: ShopifyAdmin, context?: Pick<FeedRunContext, "progress" | "signal">): Promise<FeedOutcome> {
  const locations = await readShopLocations(admin);
  const facts = locations
    .filter((location) => !location.isFulfillmentService)
    .map((location) => ({
      locationId: numericId(location.legacyResourceId || location.id),
      name: location.name,
      active: location.isActive,
      updatedAt: location.updatedAt ? new Date(location.updatedAt) : null,
    }));
  const applied = await applyLocations(facts, { complete: true });

  const skus = await openOrderSkus();
  let refreshed = 0;
  let quantities = 0;
  const problems = [...applied.problems];
  for (let start = 0; start < skus.length; start += SKUS_PER_BATCH) {
    if (context?.signal.aborted) {
      problems.push(message("logs.location_sync.stopped", { refreshed, total: skus.length }));
      break;
    }
    try {
      const done = await refreshStoreStock(admin, skus.slice(start, start + SKUS_PER_BATCH));
      refreshed += done.skus;
      quantities += done.quantities;
    } catch (error) {
      problems.push(message("logs.location_sync.stock_failed", { skus: skus.length - refreshed, error: (error as Error).message }));
      break;
    }
    await context?.progress({ skus_refreshed: refreshed, skus_total: skus.length });
  }
  const summary = message("logs.location_sync.summary", {
    locations: message("logs.n.shopify_location", { count: locations.length }),
    stores: message("logs.n.store", { count: applied.created.length }),
    updated: applied.updated,
    disabled: applied.disabled,
    vendors: message("logs.n.vendor_location", { count: applied.vendorLocations }),
    skus: message("logs.n.sku", { count: refreshed }),
    quantities,
  });
  // The first five problems, without "and n more" (as this feed always wrote it).
  const coded = problems.length
    ? message("logs.with_problems", { summary: message("logs.list", { items: [summary] }), problems: problems.slice(0, 5) })
    : message("logs.list", { items: [summary] });
  const listed = problems.slice(0, 50);
  return {
    message: englishText(coded),
    messageCode: coded,
    error: problems.length > 0,
    meta: {
      locations: locations.length,
      created: applied.created,
      updated: applied.updated,
      disabled: applied.disabled,
      vendor_locations: applied.vendorLocations,
      skus: skus.length,
      skus_refreshed: refreshed,
      problems: listed.map(englishText),
      ...(listed.length ? { problem_codes: listed } : {}),
    },
  };
}

// --- the feed, at install and at start ---------------------------------------------------

/** location_sync (jobs/registry.ts): the jobs' Shopify client (the shop's offline session, or the stand-in). */
export async function locationSyncJob(context: FeedRunContext): Promise<FeedOutcome> {
  const { jobsShopifyAdmin } = await import("~/shopify/jobs-admin.server");
  return syncLocations(await jobsShopifyAdmin(), context);
}

/** At install (afterAuth): the feed with the admin of the install, in the background, so the install never waits on it. */
export function syncStoresAtInstall(admin: ShopifyAdmin, shop: string): void {
  void import("~/feeds/runner.server")
    .then(({ runFeed }) =>
      runFeed(LOCATION_SYNC_FEED.name, (context) => syncLocations(admin, context), { trigger: "manual", defaultCron: LOCATION_SYNC_FEED.defaultCron }),
    )
    .then((run) => log.info(`location sync at the install on ${shop}: ${run.status}: ${run.message}`))
    .catch((error: unknown) => log.error(`location sync at the install on ${shop} failed: ${(error as Error).message}`));
}

// --- the Stores screen (list and edit) ------------------------------------------------------

export const SOURCE_TYPES = ["store", "dropshipper"] as const;
/** Source codes as the AS400 and the vendors' store_id take them. */
const SOURCE_CODE = /^[A-Za-z0-9_-]{1,20}$/;

export const storeGrid = defineGrid({
  id: "store",
  // A dropshipper is edited on its vendor's form, reached from Drop-ship Vendors.
  rowLink: { path: `${STORE_FORM_PATH}?id={id}`, when: { field: "type", value: "store" } },
  rowKey: "id",
  defaultSort: { key: "source_code", dir: "asc" },
  source: () => gridSourceFrom(prisma.inventorySource),
  columns: [
    { key: "source_code", label: "stores.columns.source_code", dataType: "text" },
    { key: "name", label: "stores.columns.name", dataType: "text" },
    { key: "shopify_location_id", label: "stores.columns.shopify_location_id", dataType: "text" },
    { key: "type", label: "stores.columns.type", dataType: "select", options: optionsFrom(SOURCE_TYPES, "stores.types") },
    {
      key: "enabled",
      label: "stores.columns.enabled",
      dataType: "select",
      valueType: "int",
      options: optionsFrom(["1", "0"], "stores.enabled"),
      tones: { "1": "success", "0": null },
    },
    { key: "updated_at", label: "stores.columns.updated_at", dataType: "datetime" },
    {
      key: "actions",
      label: "stores.columns.actions",
      dataType: "links",
      field: null,
      // A dropshipper's code is its vendor's store_id, changed on the vendor form.
      links: [
        {
          path: STORE_FORM_PATH,
          field: "id",
          field_request_name: "id",
          label: "stores.edit.link",
          target: "_self",
          condition: { operator: "=", field: "type", value: "store" },
        },
      ],
    },
  ],
});

export const listStores = (params: URLSearchParams) => runGrid(storeGrid, params);

export interface StoreForm {
  id: number;
  source_code: string;
  name: string;
  type: string;
  shopify_location_id: string | null;
  default_source_code: string | null;
  enabled: number;
}

export async function findStore(id: number) {
  const row = Number.isSafeInteger(id) && id > 0 && id < 2 ** 31 ? await prisma.inventorySource.findUnique({ where: { id } }) : null;
  if (!row || row.type !== "store") throw new NotFoundError(`Store ${Number.isFinite(id) ? id : "?"} does not exist`);
  return row;
}

/** GET /api/store/{id}: the store with its location and its default source code. */
export async function getStoreForm(id: number): Promise<StoreForm> {
  const row = await findStore(id);
  return {
    id: row.id,
    source_code: row.source_code,
    name: row.name,
    type: row.type,
    shopify_location_id: row.shopify_location_id,
    default_source_code: row.shopify_location_id ? defaultSourceCode(row.shopify_location_id) : null,
    enabled: row.enabled,
  };
}

/**
 * Changes a store's source code (the AS400's name for it). Refused while the
 * old code is in use (an assignment, or an EOD row sent to the AS400 under it):
 * the AS400 and the history know the store by it (D50). The new code must be
 * free: no other store or dropshipper has it, and no vendor uses it.
 */
export async function changeSourceCode(tx: Prisma.TransactionClient, from: string, to: string) {
  const refuse = (problem: Problem): never => {
    throw new ValidationError({ source_code: [problem] });
  };
  if (from === to) return;
  const [taken] = await tx.$queryRaw<Array<{ name: string }>>`SELECT name FROM inventory_source WHERE source_code = ${to}`;
  if (taken) refuse(message("stores.errors.taken", { code: to, name: taken.name }));
  const [vendor] = await tx.$queryRaw<Array<{ name: string }>>`SELECT name FROM dropship_vendor WHERE store_id = ${to} ORDER BY id LIMIT 1`;
  if (vendor) refuse(message("stores.errors.vendor_code", { code: to, name: vendor.name }));
  const [use] = await tx.$queryRaw<Array<{ assignments: boolean; eod: boolean }>>`
    SELECT EXISTS (SELECT 1 FROM assignment WHERE store_id = ${from}) AS assignments,
           EXISTS (SELECT 1 FROM eod_report_row WHERE store_id = ${from}) AS eod`;
  if (use.assignments) refuse(message("stores.errors.in_use_assignments", { code: from }));
  if (use.eod) refuse(message("stores.errors.in_use_eod", { code: from }));
  // The stock rows follow by their foreign key (ON UPDATE CASCADE).
  await tx.$executeRaw`UPDATE inventory_source SET source_code = ${to}, updated_at = now() WHERE source_code = ${from}`;
}

/** The store form (POST /api/store/{id}, _method=PUT): source_code, one message per field: required, else the format. */
export const storeForm = z.object({
  source_code: z.unknown().transform((value, context) => {
    const code = typeof value === "string" || typeof value === "number" ? String(value).trim() : "";
    const field = message("stores.fields.source_code");
    if (!code) context.addIssue({ code: "custom", message: coded("stores.errors.required", { field }) });
    else if (!SOURCE_CODE.test(code)) context.addIssue({ code: "custom", message: coded("stores.errors.format", { field }) });
    return code;
  }),
});
export type StoreInput = z.infer<typeof storeForm>;

/** Saves a store's new source code; the route has found the store (404 first) and parsed the form. */
export async function updateStore(id: number, { source_code: to }: StoreInput) {
  const saved = await withRetry(() =>
    prisma.$transaction(async (tx) => {
      await lockSources(tx);
      // Read again under the lock: the row may have been renamed meanwhile.
      const [row] = await tx.$queryRaw<Array<{ source_code: string }>>`SELECT source_code FROM inventory_source WHERE id = ${id} FOR UPDATE`;
      if (!row) throw new NotFoundError(`Store ${id} does not exist`);
      await changeSourceCode(tx, row.source_code, to);
      return tx.inventorySource.findUniqueOrThrow({ where: { id } });
    }),
  );
  return { error: false, message: message("stores.edit.saved"), data: { id: saved.id, source_code: saved.source_code, name: saved.name } };
}

/**
 * Local mode: the demo's stores get the AS400 codes staff would give them on
 * the Stores screen (the seeded history uses them), once, while a store still
 * has its default code. Run after the start-up location sync.
 */
export async function applyDemoStoreCodes(): Promise<number> {
  const { DEMO_STORE_LOCATIONS } = await import("~/shopify/stand-in-shop");
  let changed = 0;
  for (const demo of DEMO_STORE_LOCATIONS) {
    const store = await prisma.inventorySource.findFirst({
      where: { type: "store", name: demo.name, shopify_location_id: { not: null } },
      select: { id: true, source_code: true, shopify_location_id: true },
    });
    if (!store || store.source_code !== defaultSourceCode(store.shopify_location_id!)) continue;
    try {
      await updateStore(store.id, parseInput(storeForm, { source_code: demo.as400Code }));
      changed++;
    } catch (error) {
      const detail =
        error instanceof ValidationError
          ? Object.values(error.errors)
              .flat()
              .map((problem) => (typeof problem === "string" ? problem : englishText(problem)))
              .join(" ")
          : (error as Error).message;
      log.warn(`demo store ${demo.name} keeps ${store.source_code}: ${detail}`);
    }
  }
  return changed;
}
