// The one way the app talks to the Shopify Admin GraphQL API. Embedded mode
// goes through the template's authenticated (or offline-session) client; local
// mode and the tests go to the loopback stand-in (./stand-in.server.ts).
import type { Staff } from "~/auth.server";
import { env } from "~/env.server";
import { apiVersion, shopify } from "~/shopify.server";
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

export interface ShopifyAdmin {
  run<V, R>(operation: AdminOperation<V, R>, variables: V): Promise<R>;
}

function clientOver(transport: GraphqlTransport): ShopifyAdmin {
  return {
    async run(operation, variables) {
      let response: Response;
      try {
        response = await transport(operation.document, variables);
      } catch (error) {
        // The template's client throws GraphqlQueryError with the body attached.
        const body = (error as { body?: unknown }).body;
        throw new ShopifyApiError(operation.name, body ?? String(error));
      }
      const body = (await response.json()) as { data?: unknown; errors?: unknown };
      if (!response.ok || body.errors) throw new ShopifyApiError(operation.name, body.errors ?? response.status);
      return body.data as never;
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
