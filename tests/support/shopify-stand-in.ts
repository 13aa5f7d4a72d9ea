// The Shopify stand-in for a test file that calls the app's Shopify module directly
// (not through a running app): a client of the test database; the stand-in started
// before the file's tests, over that database's catalog when asked, with
// SHOPIFY_STAND_IN_URL pointing at it; the Shopify modules imported after that; the
// stand-in's state cleared before each test; and, after the tests, the stand-in
// stopped, the file's own rows cleaned up and the client closed.
import { afterAll, beforeAll, beforeEach } from "vitest";
import { createPrismaClient, type PrismaClient } from "../../app/db/client.server";
import { ADMIN_SCHEMA_VERSION } from "../../app/shopify/admin-schema.server";
import { databaseCatalog } from "../../app/shopify/stand-in-catalog.server";
import { startShopifyStandIn, type RecordedCall, type StandInCatalog } from "../../app/shopify/stand-in.server";

export type ShopifyStandIn = Awaited<ReturnType<typeof startShopifyStandIn>>;

/** The Shopify modules every such file uses. */
export interface ShopifyModules {
  client: typeof import("../../app/shopify/admin-client.server");
  records: typeof import("../../app/shopify/call-records.server");
  operations: typeof import("../../app/shopify/operations");
}

export interface ShopifyStandInSuite {
  /** Set before the file's own beforeAll hooks run. */
  prisma: PrismaClient;
  standIn: ShopifyStandIn;
  modules: ShopifyModules;
  /** The calls the stand-in received since the test began. */
  recorded(): Promise<RecordedCall[]>;
}

export function useShopifyStandIn(options: {
  /** Answer from the test database's products, orders and sources (databaseCatalog) instead of the synthesised catalog, or from the catalog made of it. */
  catalog?: boolean | ((database: StandInCatalog) => StandInCatalog);
  /** Deletes the file's rows (those carrying its tag), before the client closes. */
  cleanUp: (prisma: PrismaClient) => Promise<void>;
}): ShopifyStandInSuite {
  const suite = {
    recorded: async () => (await (await fetch(`${suite.standIn.url}/__calls`)).json()) as RecordedCall[],
  } as ShopifyStandInSuite;

  beforeAll(async () => {
    suite.prisma = createPrismaClient(process.env.DATABASE_URL!, 2);
    const database = databaseCatalog(suite.prisma);
    const catalog = typeof options.catalog === "function" ? options.catalog(database) : options.catalog ? database : undefined;
    suite.standIn = await startShopifyStandIn(catalog ? { catalog } : {});
    process.env.SHOPIFY_STAND_IN_URL = suite.standIn.url;
    suite.modules = {
      client: await import("../../app/shopify/admin-client.server"),
      records: await import("../../app/shopify/call-records.server"),
      operations: await import("../../app/shopify/operations"),
    };
  });

  afterAll(async () => {
    await suite.standIn?.stop();
    if (!suite.prisma) return;
    await options.cleanUp(suite.prisma);
    await suite.prisma.$disconnect();
  });

  beforeEach(async () => {
    await fetch(`${suite.standIn.url}/__state`, { method: "DELETE" });
  });

  return suite;
}

/** Sends one GraphQL request to a stand-in at the pinned API version, as the app's client would: its HTTP status and whole answer. */
export async function postToStandIn(url: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${url}/admin/api/${ADMIN_SCHEMA_VERSION}/graphql.json`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer (GraphQL): the assertions check its shape
  return { status: response.status, body: (await response.json()) as { data?: any; errors?: any; extensions?: any } };
}
