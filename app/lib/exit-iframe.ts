// spec 000 §2 /exitiframe: the target may open in the top window only when its
// host is the app's own host, the Shopify admin, or a *.myshopify.com store.
export const SHOPIFY_ADMIN_HOST = "admin.shopify.com";
export const STORE_DOMAIN = "myshopify.com";
/** App Bridge, as the template's AppProvider loads it. */
export const APP_BRIDGE_URL = "https://cdn.shopify.com/shopifycloud/app-bridge.js";

export function exitIframeTarget(redirectUri: string | null, currentUrl: string): string | null {
  if (!redirectUri) return null;
  let target: URL;
  try {
    target = new URL(redirectUri, currentUrl);
  } catch {
    return null;
  }
  if (target.protocol !== "https:" && target.protocol !== "http:") return null;
  const current = new URL(currentUrl);
  const host = target.hostname.toLowerCase();
  const allowed = target.host === current.host || host === SHOPIFY_ADMIN_HOST || host.endsWith(`.${STORE_DOMAIN}`);
  // Only the app's own host may be plain http (local mode).
  if (allowed && target.protocol === "http:" && target.host !== current.host) return null;
  return allowed ? target.toString() : null;
}
