// The one place that configures the Shopify app (as in the Shopify Remix
// template). Only built in embedded mode: local mode has no credentials.
import "@shopify/shopify-app-remix/adapters/node";
import { ApiVersion, AppDistribution, shopifyApp, type AdminApiContext } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import prisma from "./db.server";
import { env } from "./env.server";
import { requestedScopes } from "./shopify/access-scopes";
import { EncryptedSessionStorage } from "./shopify/session-storage.server";

export const apiVersion = ApiVersion.October26;

type AuthorisedHook = (shop: string, admin: AdminApiContext) => void;
const authorisedHooks: AuthorisedHook[] = [];

/**
 * What runs once a shop has authorised the app (the template's afterAuth).
 * The app's entry registers them, so that this module, below the areas, does
 * not import them. A hook must not hold up the install: it is not awaited.
 */
export function onShopAuthorised(hook: AuthorisedHook) {
  authorisedHooks.push(hook);
}

function createShopifyApp() {
  const config = env();
  return shopifyApp({
    apiKey: config.SHOPIFY_API_KEY!,
    apiSecretKey: config.SHOPIFY_API_SECRET!,
    apiVersion,
    scopes: requestedScopes(config.SCOPES),
    appUrl: config.SHOPIFY_APP_URL!,
    authPathPrefix: "/auth",
    // Same Session table; the storage is typed against the classic client. Tokens are stored encrypted (D211).
    sessionStorage: new EncryptedSessionStorage(new PrismaSessionStorage(prisma as unknown as ConstructorParameters<typeof PrismaSessionStorage>[0])),
    // One merchant: custom distribution, installed by link on its shop only (README).
    distribution: AppDistribution.SingleMerchant,
    hooks: {
      afterAuth: async ({ admin, session }) => {
        for (const hook of authorisedHooks) hook(session.shop, admin);
      },
    },
    future: { unstable_newEmbeddedAuthStrategy: true },
  });
}

type ShopifyApp = ReturnType<typeof createShopifyApp>;
let app: ShopifyApp | undefined;

/** The configured Shopify app; throws in local mode, where nothing may use it. */
export function shopify(): ShopifyApp {
  if (env().mode !== "embedded") throw new Error("Shopify is not configured: the app runs in local mode.");
  app ??= createShopifyApp();
  return app;
}

export const isEmbedded = () => env().mode === "embedded";
