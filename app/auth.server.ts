// Every page loader and /api route starts here. In embedded mode this is the
// template's authenticate.admin (session token or OAuth); in local mode the app
// runs outside Shopify, on loopback only, for the demo shop.
import type { AdminApiContext } from "@shopify/shopify-app-remix/server";
import { env } from "./env.server";
import { shopify } from "./shopify.server";

export type Staff =
  | { mode: "local"; shop: string }
  | { mode: "embedded"; shop: string; admin: AdminApiContext };

export async function requireStaff(request: Request): Promise<Staff> {
  const config = env();
  if (config.mode === "local") return { mode: "local", shop: config.LOCAL_SHOP };
  // Throws a Response (redirect to login, bounce page or 401) when not signed in.
  const { admin, session } = await shopify().authenticate.admin(request);
  return { mode: "embedded", shop: session.shop, admin };
}
