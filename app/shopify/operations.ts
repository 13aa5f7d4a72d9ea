// The Admin GraphQL operations the app sends, each with its variables and
// result types. Later areas add theirs here (fulfillment create, inventory
// adjust, order create, product tags). The stand-in answers every one of them.

export interface AdminOperation<TVariables, TResult> {
  name: string;
  document: string;
  /** Types only; never set. */
  readonly types?: { variables: TVariables; result: TResult };
}

function operation<TVariables, TResult>(name: string, document: string): AdminOperation<TVariables, TResult> {
  return { name, document };
}

export interface ShopInfoResult {
  shop: { name: string; myshopifyDomain: string; currencyCode: string; ianaTimezone: string };
}
export const ShopInfo = operation<Record<string, never>, ShopInfoResult>(
  "ShopInfo",
  `#graphql
  query ShopInfo { shop { name myshopifyDomain currencyCode ianaTimezone } }`,
);

export interface OrderReadResult {
  order: null | {
    id: string;
    name: string;
    email: string | null;
    createdAt: string;
    updatedAt: string;
    displayFinancialStatus: string | null;
    displayFulfillmentStatus: string;
    totalPriceSet: { shopMoney: { amount: string; currencyCode: string } };
    lineItems: { nodes: Array<{ id: string; sku: string | null; name: string; quantity: number }> };
  };
}
export const OrderRead = operation<{ id: string }, OrderReadResult>(
  "OrderRead",
  `#graphql
  query OrderRead($id: ID!) {
    order(id: $id) {
      id name email createdAt updatedAt displayFinancialStatus displayFulfillmentStatus
      totalPriceSet { shopMoney { amount currencyCode } }
      lineItems(first: 100) { nodes { id sku name quantity } }
    }
  }`,
);
