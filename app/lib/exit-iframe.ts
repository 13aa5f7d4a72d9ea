// spec 000 §2 /exitiframe: the target may open in the top window only when it
// is the Shopify admin, the app itself (SHOPIFY_APP_URL, or the host it is
// served on), or a shop this app serves (SHOPIFY_SHOPS, D41): never another
// *.myshopify.com store, which anyone can open (D206).
export const SHOPIFY_ADMIN_HOST = "admin.shopify.com";
/** App Bridge, as the template's AppProvider loads it. */
export const APP_BRIDGE_URL = "https://cdn.shopify.com/shopifycloud/app-bridge.js";

export interface ExitIframeAllowed {
  /** SHOPIFY_APP_URL (embedded mode). */
  appUrl?: string;
  /** The served shops' domains, lower case. */
  shops: readonly string[];
}

export function exitIframeTarget(redirectUri: string | null, currentUrl: string, allowed: ExitIframeAllowed): string | null {
  if (!redirectUri) return null;
  let target: URL;
  try {
    target = new URL(redirectUri, currentUrl);
  } catch {
    return null;
  }
  if (target.protocol !== "https:" && target.protocol !== "http:") return null;
  const appHosts = [new URL(currentUrl).host, ...(allowed.appUrl ? [new URL(allowed.appUrl).host] : [])];
  const host = target.hostname.toLowerCase();
  // The app is reached as configured; Shopify only over https.
  if (appHosts.includes(target.host)) return target.toString();
  if (target.protocol !== "https:" || target.port !== "") return null;
  return host === SHOPIFY_ADMIN_HOST || allowed.shops.includes(host) ? target.toString() : null;
}
