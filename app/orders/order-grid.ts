// The Advanced Order Summary's contract, shared by the server and the page
// (spec 000 §2, §3, §4, §7): the row, the sort keys, the named filters of
// GET /api/advancedordergrid and the option values they accept.
import type { SortDir } from "~/grid/types";
import { NOT_AVAILABLE, formatDateTime, formatMoney, formatSkus, orNotAvailable, titleCase } from "~/lib/format";

export const ORDER_GRID = "advancedorder";

export const ORDER_SORT_KEYS = ["created_at", "order_id", "shopify_order_id", "customer_email", "updated_at", "shopify_updated_at"] as const;
export type OrderSortKey = (typeof ORDER_SORT_KEYS)[number];
export const ORDER_DEFAULT_SORT: { key: OrderSortKey; dir: SortDir } = { key: "created_at", dir: "desc" };

export const MAGENTO_STATUSES = ["avs_pending", "processing", "canceled", "closed", "fraud", "complete"] as const;
/** "" is Houser: the merchant's own orders, stored with no marketplace source. */
export const MARKETPLACE_SOURCES = ["", "AMAZON_US", "EBAY_STORES"] as const;
export const REFER_SOURCES = ["Amazon", "Salesforce", "Shopping", "Direct Revenue", "Ebay", "Facebook", "Organic Revenue", "Specials"] as const;

/** Text filters ("contains", any case): query parameter → order_grid column. */
export const ORDER_TEXT_FILTERS = {
  shopifyOrderId: "shopify_order_id",
  orderId: "order_id",
  customerEmail: "customer_email",
  billToName: "concat_bill_to_name",
  shipToName: "concat_ship_to_name",
  skus: "select_skus",
  billToAddress: "concat_billing_address",
  shipToAddress: "concat_shipping_address",
  marketplaceOrderId: "marketplace_order_id",
  caSiteOrderId: "ca_site_order_id",
  caOrderId: "ca_order_id",
} as const;
export type OrderTextFilter = keyof typeof ORDER_TEXT_FILTERS;

/** Filters that pick among options; each takes one or several values. */
export const ORDER_OPTION_FILTERS = {
  magentoOrderStatus: MAGENTO_STATUSES,
  marketplaceSource: MARKETPLACE_SOURCES,
  referSourceName: REFER_SOURCES,
  giftCardUsed: ["1", "0"],
} as const;
export type OrderOptionFilter = keyof typeof ORDER_OPTION_FILTERS;

/** Every filter parameter, in the order the page offers them (spec 000 §2). */
export const ORDER_FILTER_KEYS = [
  "shopifyOrderId",
  "orderId",
  "customerEmail",
  "billToName",
  "shipToName",
  "skus",
  "grandTotalFrom",
  "grandTotalTo",
  "magentoOrderStatus",
  "billToAddress",
  "shipToAddress",
  "marketplaceSource",
  "marketplaceOrderId",
  "caSiteOrderId",
  "caOrderId",
  "referSourceName",
  "giftCardUsed",
] as const;
export type OrderFilterKey = (typeof ORDER_FILTER_KEYS)[number];

/** Filter parameter → the values asked for ("" is a value: Houser). */
export type OrderFilters = Partial<Record<OrderFilterKey, string[]>>;

/** A row of the grid: the 23 fields of spec 000 §3 and the row's id. */
export interface OrderGridRow {
  id: number;
  order_id: string;
  shopify_order_id: string | null;
  created_at: string;
  updated_at: string;
  shopify_updated_at: string | null;
  customer_email: string | null;
  concat_bill_to_name: string | null;
  concat_ship_to_name: string | null;
  select_skus: string | null;
  /** Decimal as text, two places ("129.95"). */
  grand_total_purchased: string;
  magento_status: string | null;
  fulfillment_status: string | null;
  financial_status: string | null;
  concat_billing_address: string | null;
  concat_shipping_address: string | null;
  marketplace_source: string | null;
  marketplace_order_id: string | null;
  ca_site_order_id: string | null;
  ca_order_id: string | null;
  refer_source_name: string | null;
  allocated_sources: string | null;
  gift_card_used: number;
}

/** The marketplace and ChannelAdvisor columns: the order system's, set by its order-status files (with magento_status). */
export const ORDER_SYSTEM_COLUMNS = [
  "marketplace_source",
  "marketplace_order_id",
  "ca_site_order_id",
  "ca_order_id",
  "refer_source_name",
  "allocated_sources",
] as const;

/** The 23 columns in the spec's order: the row field each shows. */
export const ORDER_COLUMNS = [
  "order_id",
  "shopify_order_id",
  "created_at",
  "updated_at",
  "shopify_updated_at",
  "customer_email",
  "concat_bill_to_name",
  "concat_ship_to_name",
  "select_skus",
  "grand_total_purchased",
  "magento_status",
  "fulfillment_status",
  "financial_status",
  "concat_billing_address",
  "concat_shipping_address",
  ...ORDER_SYSTEM_COLUMNS,
  "gift_card_used",
  "view_order",
] as const;
export type OrderColumn = (typeof ORDER_COLUMNS)[number];

/** GET /api/advancedordergrid (spec 000 §7: `data` is the list). */
export interface OrderGridAnswer {
  data: OrderGridRow[];
  current_page: number;
  per_page: number;
  last_page: number;
  total: number;
  /** False while a large result's exact count is being computed: `total` is then a lower bound. */
  total_exact: boolean;
}

/** A saved view as GET /api/saved_views lists it: filter parameters (and optionally queryValue, sort, sort_dir) with their values. */
export interface SavedView {
  id: number;
  name: string;
  filters: Record<string, string | string[]>;
  position: number;
}

/** Where the Order ID links: the order in the Shopify admin, in a new tab. */
export function shopifyAdminOrderUrl(shopifyOrderId: string, mode: "local" | "embedded", shop: string): string {
  const id = shopifyOrderId.replace(/^gid:\/\/shopify\/Order\//, "");
  if (mode === "embedded") return `shopify:admin/orders/${encodeURIComponent(id)}`;
  const store = shop.replace(/\.myshopify\.com$/, "");
  return `https://admin.shopify.com/store/${encodeURIComponent(store)}/orders/${encodeURIComponent(id)}`;
}

/**
 * What a cell shows (spec 000 §1, §3): '--n/a--' when missing, totals in USD,
 * dates as US short date and time, SKUs with ", ", statuses and sources
 * title-cased, Yes/No for the gift card. Links (Order ID, View Order) are the
 * page's; this is their text.
 */
export function orderCellText(column: OrderColumn, row: OrderGridRow, options: { timeZone: string; yes: string; no: string; viewOrder: string }): string {
  const missing = (value: unknown) => value === null || value === undefined || String(value).trim() === "";
  switch (column) {
    case "created_at":
    case "updated_at":
    case "shopify_updated_at":
      return missing(row[column]) ? NOT_AVAILABLE : formatDateTime(row[column], options.timeZone);
    case "grand_total_purchased":
      return missing(row.grand_total_purchased) ? NOT_AVAILABLE : formatMoney(row.grand_total_purchased);
    case "select_skus":
      return missing(row.select_skus) ? NOT_AVAILABLE : formatSkus(row.select_skus);
    case "magento_status":
    case "fulfillment_status":
    case "financial_status":
    case "marketplace_source":
    case "refer_source_name":
      return missing(row[column]) ? NOT_AVAILABLE : titleCase(row[column]);
    case "gift_card_used":
      return row.gift_card_used === 1 ? options.yes : options.no;
    case "view_order":
      return options.viewOrder;
    default:
      return orNotAvailable(row[column]);
  }
}
