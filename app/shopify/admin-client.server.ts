// The one way the app talks to the Shopify Admin GraphQL API. Embedded mode
// goes through the template's authenticated (or offline-session) client; local
// mode and the tests go to the loopback stand-in (./stand-in.server.ts).
// Every call is recorded here, once, whatever the caller: an operation row, and
// an error row when it fails (./call-records.server.ts).
import type { Staff } from "~/auth.server";
import { env } from "~/env.server";
import { apiVersion, shopify } from "~/shopify.server";
import { recordShopifyCall, userErrorsIn } from "./call-records.server";
import type { AdminOperation } from "./operations";

export class ShopifyApiError extends Error {
  constructor(
    readonly operation: string,
    readonly details: unknown,
  ) {
    super(`Shopify ${operation} failed: ${JSON.stringify(details)}`);
  }
}

type GraphqlTransport = (document: string, variables: unknown) => Promise<Response>;

/** What a call is about, for its record (the Product API Operations and Errors grids). */
export interface ShopifyCallContext {
  sku?: string | null;
}

export interface ShopifyAdmin {
  run<V, R>(operation: AdminOperation<V, R>, variables: V, context?: ShopifyCallContext): Promise<R>;
}

function clientOver(transport: GraphqlTransport): ShopifyAdmin {
  return {
    async run(operation, variables, context) {
      const at = new Date();
      const started = performance.now();
      const record = (ok: boolean, answer: unknown, message: string | null) =>
        recordShopifyCall({ operation: operation.name, sku: context?.sku, ok, message, variables, answer, at, durationMs: performance.now() - started });
      let data: unknown;
      try {
        let response: Response;
        try {
          response = await transport(operation.document, variables);
        } catch (error) {
          // The template's client throws GraphqlQueryError with the body attached.
          const body = (error as { body?: unknown }).body;
          throw new ShopifyApiError(operation.name, body ?? String(error));
        }
        let body: { data?: unknown; errors?: unknown };
        try {
          body = (await response.json()) as typeof body;
        } catch {
          throw new ShopifyApiError(operation.name, `HTTP ${response.status}: the answer is not JSON`);
        }
        if (!response.ok || body.errors) throw new ShopifyApiError(operation.name, body.errors ?? response.status);
        data = body.data;
      } catch (error) {
        record(false, error instanceof ShopifyApiError ? error.details : String(error), (error as Error).message);
        throw error;
      }
      // Shopify answers a refused mutation with 200 and userErrors: a failure for the records, data for the caller.
      const refused = userErrorsIn(data);
      record(!refused, data, refused);
      return data as never;
    },
  };
}

function standInClient(): ShopifyAdmin {
  const base = env().SHOPIFY_STAND_IN_URL;
  if (!base) throw new Error("SHOPIFY_STAND_IN_URL is not set: the Shopify stand-in was not started.");
  return clientOver((query, variables) =>
    fetch(`${base}/admin/api/${apiVersion}/graphql.json`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-shopify-access-token": "local-mode" },
      body: JSON.stringify({ query, variables }),
    }),
  );
}

/** The client for a signed-in request. */
export function shopifyAdminFor(staff: Staff): ShopifyAdmin {
  if (staff.mode === "local") return standInClient();
  return clientOver((query, variables) => staff.admin.graphql(query, { variables: variables as Record<string, unknown> }));
}

/** The client for background jobs: the shop's offline session. */
export async function offlineShopifyAdmin(shop: string): Promise<ShopifyAdmin> {
  if (env().mode === "local") return standInClient();
  const { admin } = await shopify().unauthenticated.admin(shop);
  return clientOver((query, variables) => admin.graphql(query, { variables: variables as Record<string, unknown> }));
}

/** The client over an admin context the template hands out outside a route (afterAuth, at install). */
export function shopifyAdminOver(admin: { graphql(query: string, options?: { variables?: Record<string, unknown> }): Promise<Response> }): ShopifyAdmin {
  return clientOver((query, variables) => admin.graphql(query, { variables: variables as Record<string, unknown> }));
}
