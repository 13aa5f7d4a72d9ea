// Every page loader and /api route starts here. In embedded mode this is the
// template's authenticate.admin (session token or OAuth); in local mode the app
// runs outside Shopify, on loopback only, for the demo shop.
// One merchant's back office: a request that names another shop (its `shop`
// parameter or its session token's `dest`) is refused with 403 before the
// library can exchange a token or store a session for it.
import { env } from "./env.server";
import { orDatabaseUnavailable } from "./db/unavailable.server";
import { addToLogContext } from "./observability/context.server";
import { shopify } from "./shopify.server";
import { isServedShop } from "./shopify/shops.server";
import { staffName, type Staff } from "./shopify/staff";

export { staffName, type Staff };

export async function requireStaff(request: Request): Promise<Staff> {
  const config = env();
  if (config.mode === "local") {
    addToLogContext({ shop: config.LOCAL_SHOP });
    return { mode: "local", shop: config.LOCAL_SHOP };
  }
  refuseOtherShops(request);
  // Throws a Response (redirect to login, bounce page or 401) when not signed in.
  // The session is read from the database: one that cannot be reached is a 503, not a 500 (D210).
  const { admin, session, sessionToken } = await orDatabaseUnavailable(request, () => shopify().authenticate.admin(request));
  if (!isServedShop(session.shop)) throw forbidden();
  // The request's log line and its errors name the shop from here on (D86).
  addToLogContext({ shop: session.shop });
  return { mode: "embedded", shop: session.shop, admin, ...(sessionToken?.sub ? { user: String(sessionToken.sub) } : {}) };
}

/**
 * A shop as the login page and the library take it: "my-shop",
 * "My-Shop.myshopify.com ", "https://my-shop.myshopify.com/" are one shop.
 */
export function normalisedShopInput(value: string): string {
  const bare = value
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/\/$/, "");
  return bare.includes(".") ? bare : `${bare}.myshopify.com`;
}

/** The shops a request claims to be for, unverified: the library checks signatures afterwards. */
export function claimedShops(request: Request): string[] {
  const url = new URL(request.url);
  // Every `shop` parameter, repeated or not: the library reads the first, a proxy may read the last.
  const shops: string[] = url.searchParams.getAll("shop").map(normalisedShopInput);
  const bearer = /^Bearer (.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  for (const token of [bearer, url.searchParams.get("id_token")]) {
    if (token) shops.push(destinationOf(token) ?? "");
  }
  return shops;
}

/**
 * Every `shop` the request carries: query string (repeated or not) and form
 * field (urlencoded or multipart), normalised, each once. The library reads the query's first and
 * falls back to the form when that is empty, so all of them are checked.
 */
export async function loginShops(request: Request): Promise<string[]> {
  const shops = new URL(request.url).searchParams.getAll("shop");
  if (request.method === "POST") {
    const form = await request
      .clone()
      .formData()
      .catch(() => null);
    for (const value of form?.getAll("shop") ?? []) shops.push(typeof value === "string" ? value : value.name);
  }
  return [...new Set(shops.filter((shop) => shop.trim() !== "").map(normalisedShopInput))];
}

/** Throws 403 when the request names a shop this app does not serve. */
export function refuseOtherShops(request: Request) {
  if (claimedShops(request).some((shop) => !isServedShop(shop))) throw forbidden();
}

function destinationOf(token: string): string | null {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as { dest?: unknown };
    return typeof payload.dest === "string" ? new URL(payload.dest).hostname : null;
  } catch {
    return null;
  }
}

function forbidden() {
  return new Response("This app serves one merchant's shop only.", { status: 403, headers: { "content-type": "text/plain; charset=utf-8" } });
}
