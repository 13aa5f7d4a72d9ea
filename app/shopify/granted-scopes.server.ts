// What the shop has granted the app, as Shopify says it
// (currentAppInstallation.accessScopes), against what the app needs
// (./access-scopes.ts). An older install, or a merchant who has not yet
// approved a scope the app added, falls short: Home names what to re-approve,
// and the drop-ship steps stop before Shopify refuses them call by call
// (docs/decisions.md D170).
import { logger } from "~/observability/logger.server";
import { ShopifyApiError, type ShopifyAdmin } from "./admin-client.server";
import { APP_SCOPES, missingScopes } from "./access-scopes";
import { AppAccessScopes } from "./operations";

const log = logger("shopify");

export interface ShopAccess {
  /** As Shopify lists them (a write scope stands for its read too). */
  granted: string[];
  /** Of the app's scopes, those the grant does not cover, in APP_SCOPES' order. */
  missing: string[];
}

/** Home asks at most this often per shop and process; a step asks afresh at each run. */
const HOME_TTL_MS = 5 * 60_000;
const known = new Map<string, { access: ShopAccess; at: number }>();

/** The shop's grant, read from Shopify unless this process read it less than `maxAgeMs` ago. */
export async function shopAccess(admin: ShopifyAdmin, shop: string, maxAgeMs = 0): Promise<ShopAccess> {
  const hit = known.get(shop);
  if (hit && Date.now() - hit.at < maxAgeMs) return hit.access;
  const answer = await admin.run(AppAccessScopes, {});
  const granted = answer.currentAppInstallation.accessScopes.map((scope) => scope.handle);
  const access = { granted, missing: missingScopes(granted, APP_SCOPES) };
  known.set(shop, { access, at: Date.now() });
  return access;
}

/** app/scopes_update: the next read asks Shopify again. */
export function forgetShopAccess(shop: string) {
  known.delete(shop);
}

/** For Home: what to re-approve, or null when nothing is missing or Shopify could not be asked (the page never breaks on it). */
export async function scopesToApprove(admin: ShopifyAdmin, shop: string): Promise<string[] | null> {
  try {
    const { missing } = await shopAccess(admin, shop, HOME_TTL_MS);
    return missing.length ? missing : null;
  } catch (error) {
    log.warn(`Reading the access scopes of ${shop} failed: ${(error as Error).message}`);
    return null;
  }
}

/** A part of the app cannot run: the shop has not granted what it needs. */
export class MissingScopesError extends ShopifyApiError {
  constructor(readonly missing: string[]) {
    super("AppAccessScopes", { missing });
    this.name = "MissingScopesError";
    this.message = `Shopify has not granted the app ${missing.join(", ")}: approve the app's updated access in the Shopify admin.`;
  }
}

/**
 * Throws MissingScopesError when the grant, read afresh, does not cover `needed`.
 * A failure to ask is not a refusal: the calls themselves then tell.
 */
export async function requireScopes(admin: ShopifyAdmin, needed: readonly string[]): Promise<void> {
  let access: ShopAccess;
  try {
    access = await shopAccess(admin, admin.shop ?? "");
  } catch (error) {
    if (error instanceof ShopifyApiError) return;
    throw error;
  }
  const missing = missingScopes(access.granted, needed);
  if (missing.length) throw new MissingScopesError(missing);
}
