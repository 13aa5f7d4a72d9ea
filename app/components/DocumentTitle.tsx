// The document's <title> (WCAG 2.4.2, issue 18 item 5, docs/decisions.md D111): the page's
// heading and the app's name, "Feed Summary · Operations", in the page's language. One
// table here names each page's heading by its route id, so route files stay as they are;
// rendered in the root layout's <head>, on the server and after each client navigation.
import { useLocation, useMatches, useRouteError, isRouteErrorResponse } from "@remix-run/react";
import { useTranslation } from "react-i18next";

type Match = ReturnType<typeof useMatches>[number];
/** The page heading's translation key, or a function of the route's match and the URL's search giving key and values. */
type PageTitle = string | ((match: Match, search: URLSearchParams) => { key: string; values?: Record<string, string> });

/** Each page route's heading, as its <Page title> shows it. */
export const PAGE_TITLES: Record<string, PageTitle> = {
  "routes/_app._index": "home.title",
  "routes/_app.attention": "attention.title",
  "routes/_app.settings": "settings.title",
  "routes/_app.staff-activity": "staff_activity.title",
  "routes/_app.advancedorder": "orders.title",
  "routes/_app.dropship._index": "dropship.menu_title",
  "routes/_app.dropship.[test]": "dropship_test.title",
  "routes/_app.dropship.logs": "dropship.logs.title",
  "routes/_app.dropship.requests._index": "requests.title",
  "routes/_app.dropship.requests.revise": "requests.revise_title",
  "routes/_app.dropship.responses._index": "responses.title",
  "routes/_app.dropship.responses.revise": "responses.revise_title",
  "routes/_app.dropship.tools": "tools.title",
  "routes/_app.dropship.vendor._index": "vendor.title",
  "routes/_app.dropship.vendor.edit": "vendor.form_title",
  "routes/_app.eod.batch": "eod.batch_title",
  "routes/_app.eod.report": "eod.report_title",
  "routes/_app.feed._index": "feeds.summary_title",
  "routes/_app.feed.edit": "feeds.edit.title",
  "routes/_app.feed.item": (_match, search) => {
    const name = search.get("feed_name")?.trim();
    return name ? { key: "feeds.logs_title_for", values: { name } } : { key: "feeds.logs_title" };
  },
  "routes/_app.product._index": "products.title",
  "routes/_app.product.api.error": "products.api_errors.title",
  "routes/_app.product.api.operation": "products.api_operations.title",
  "routes/_app.product.category_tags_mapping._index": "products.mappings.title",
  "routes/_app.product.category_tags_mapping.edit": (match) => ({
    key: (match.data as { mapping?: unknown } | undefined)?.mapping ? "products.mappings.edit_title" : "products.mappings.new_title",
  }),
  "routes/_app.sales._index": "sales.menu_title",
  "routes/_app.sales.assignment.manual-assignment": "sales.manual.title",
  "routes/_app.sales.awaiting-assignment._index": "sales.awaiting.title",
  "routes/_app.sales.awaiting-assignment.reassign": "sales.reassign.title",
  "routes/_app.sales.in-progress-assignment._index": "sales.in_progress.title",
  "routes/_app.sales.in-progress-assignment.dnh": "sales.dnh.title",
  "routes/_app.sales.realtime-sales-log": "realtime_logs.sales.title",
  "routes/_app.sales.realtime-shipping-log": "realtime_logs.shipping.title",
  "routes/_app.sales.unassigned-orders": "sales.unassigned.title",
  "routes/_app.special_order._index": "special_orders.menu_title",
  "routes/_app.special_order.current": "special_orders.current_title",
  "routes/_app.special_order.error": "special_orders.error_title",
  "routes/_app.special_order.log": "special_orders.log_title",
  "routes/_app.special_order.revise": "special_orders.revise_title",
  "routes/_app.stores._index": "stores.title",
  "routes/_app.stores.edit": "stores.edit.title",
  "routes/_app.$": "not_found.heading",
  "routes/auth.login": "a11y.titles.login",
  "routes/exitiframe": "a11y.titles.exitiframe",
};

/** The heading of the deepest route that names one; the error screens' own headings when a route failed. */
function usePageHeading(): string | null {
  const { t } = useTranslation();
  const matches = useMatches();
  const { search } = useLocation();
  const error = useRouteError();
  // Outside an error, the root layout's useRouteError() is null.
  if (error != null) {
    return isRouteErrorResponse(error) && error.status === 404
      ? t("not_found.heading")
      : t("error_boundary.heading", { defaultValue: "Unexpected Application Error!" });
  }
  for (const match of [...matches].reverse()) {
    const title = PAGE_TITLES[match.id];
    if (title === undefined) continue;
    const { key, values } = typeof title === "string" ? { key: title, values: undefined } : title(match, new URLSearchParams(search));
    return t(key, values);
  }
  return null;
}

export function DocumentTitle() {
  const { t } = useTranslation();
  const heading = usePageHeading();
  const app = t("app.title");
  return <title>{heading ? `${heading} · ${app}` : app}</title>;
}
