// The one place that configures the Shopify app (as in the Shopify Remix
// template). Only built in embedded mode: local mode has no credentials.
import "@shopify/shopify-app-remix/adapters/node";
import { ApiVersion, AppDistribution, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import prisma from "./db.server";
import { env } from "./env.server";

export const apiVersion = ApiVersion.July26;

function createShopifyApp() {
  const config = env();
  return shopifyApp({
    apiKey: config.SHOPIFY_API_KEY!,
    apiSecretKey: config.SHOPIFY_API_SECRET!,
    apiVersion,
    scopes: config.SCOPES.split(","),
    appUrl: config.SHOPIFY_APP_URL!,
    authPathPrefix: "/auth",
    // Same Session table; the storage is typed against the classic client.
    sessionStorage: new PrismaSessionStorage(prisma as unknown as ConstructorParameters<typeof PrismaSessionStorage>[0]),
    // One merchant: custom distribution, installed by link on its shop only (README).
    distribution: AppDistribution.SingleMerchant,
    hooks: {
      // The shop's locations become its stores at once (location_sync, D48); not awaited, so the install never waits on it.
      afterAuth: async ({ admin, session }) => {
        const [{ syncStoresAtInstall }, { shopifyAdminOver }] = await Promise.all([import("./sales/stores.server"), import("./shopify/admin-client.server")]);
        syncStoresAtInstall(shopifyAdminOver(session.shop, admin), session.shop);
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
