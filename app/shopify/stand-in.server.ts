// A loopback server answering the Admin GraphQL operations of ./operations.ts
// with plausible data, recording every call. Shopify itself cannot be reached
// from local mode or the tests; this is the only stand-in the project allows.
//   POST /admin/api/<version>/graphql.json   the operations
//   GET  /__calls                             what was sent, oldest first
//   DELETE /__calls                           forget it
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedCall {
  operation: string;
  variables: Record<string, unknown>;
  at: string;
}

type Handler = (variables: Record<string, unknown>, shop: string) => unknown;

const handlers: Record<string, Handler> = {
  ShopInfo: (_variables, shop) => ({
    shop: { name: "Demo Outfitters", myshopifyDomain: shop, currencyCode: "USD", ianaTimezone: "America/New_York" },
  }),
  OrderRead: (variables) => {
    const id = String(variables.id ?? "");
    const number = id.split("/").pop() ?? "0";
    const now = new Date().toISOString();
    return {
      order: {
        id,
        name: `#${number}`,
        email: `customer${number}@example.com`,
        createdAt: now,
        updatedAt: now,
        displayFinancialStatus: "PAID",
        displayFulfillmentStatus: "UNFULFILLED",
        totalPriceSet: { shopMoney: { amount: "129.95", currencyCode: "USD" } },
        lineItems: { nodes: [{ id: `gid://shopify/LineItem/${number}1`, sku: "SKU-1001", name: "Trail Runner 2", quantity: 1 }] },
      },
    };
  },
};

function operationName(query: string, declared?: string): string | undefined {
  return declared ?? /\b(?:query|mutation)\s+(\w+)/.exec(query)?.[1];
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startShopifyStandIn(options: { port?: number; shop?: string } = {}) {
  const calls: RecordedCall[] = [];
  const shop = options.shop ?? "demo-shop.myshopify.com";
  const server = createServer(async (request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    try {
      if (request.url === "/__calls") {
        if (request.method === "DELETE") calls.length = 0;
        return send(200, calls);
      }
      if (request.method !== "POST" || !/^\/admin\/api\/[\w-]+\/graphql\.json$/.test(request.url ?? "")) {
        return send(404, { errors: "Not Found" });
      }
      const body = JSON.parse(await readBody(request)) as { query?: string; operationName?: string; variables?: Record<string, unknown> };
      const name = operationName(body.query ?? "", body.operationName);
      const variables = body.variables ?? {};
      calls.push({ operation: name ?? "(anonymous)", variables, at: new Date().toISOString() });
      const handler = name ? handlers[name] : undefined;
      if (!handler) {
        return send(200, { errors: [{ message: `The Shopify stand-in does not answer ${name ?? "anonymous operations"}` }] });
      }
      return send(200, { data: handler(variables, shop) });
    } catch (error) {
      return send(400, { errors: [{ message: `Bad request: ${(error as Error).message}` }] });
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
