// The navigation menu (spec 000 §1, spec 001 §2) and Home's link groups.
export const NAV_LINKS = [
  { url: "/dropship", label: "nav.dropship" },
  { url: "/feed", label: "nav.feed" },
  { url: "/sales", label: "nav.sales" },
  { url: "/advancedorder", label: "nav.advancedorder" },
  { url: "/special_order", label: "nav.special_order" },
  { url: "/eod/report", label: "nav.eod" },
  { url: "/product", label: "nav.product" },
  // Issue 30: what waits for a person (labelled with its count by the shell), and where its alerts are set.
  { url: "/attention", label: "nav.attention" },
  { url: "/settings", label: "nav.settings" },
  // Issue 32: who did what (app/staff-activity).
  { url: "/staff-activity", label: "nav.staff_activity" },
] as const;

export const HOME_LINK_GROUPS = [
  {
    title: "home.groups.dropship",
    links: [
      { url: "/dropship/vendor/", label: "home.links.vendors" },
      { url: "/dropship/vendor/edit/", label: "home.links.new_vendor" },
      { url: "/dropship/requests/", label: "home.links.requests" },
      { url: "/dropship/responses/", label: "home.links.responses" },
      { url: "/dropship/logs/", label: "home.links.logs" },
      { url: "/dropship/tools/", label: "home.links.tools" },
      { url: "/dropship/test/", label: "home.links.test" },
    ],
  },
  { title: "home.groups.advancedorders", links: [{ url: "/advancedorder/", label: "home.links.advancedorder" }] },
  {
    title: "home.groups.eod",
    links: [
      { url: "/eod/report", label: "home.links.eod_report" },
      { url: "/eod/batch", label: "home.links.eod_batch" },
    ],
  },
  { title: "home.groups.feeds", links: [{ url: "/feed/", label: "home.links.feeds" }] },
  {
    title: "home.groups.sales",
    links: [
      { url: "/sales/unassigned-orders", label: "home.links.unassigned" },
      { url: "/sales/awaiting-assignment", label: "home.links.awaiting" },
      { url: "/sales/in-progress-assignment", label: "home.links.in_progress" },
      { url: "/sales/realtime-sales-log", label: "home.links.realtime_sales" },
      { url: "/sales/realtime-shipping-log", label: "home.links.realtime_shipping" },
      // The shop's locations and the vendors, with their AS400 source codes (D48–D50).
      { url: "/stores", label: "home.links.stores" },
    ],
  },
  {
    title: "home.groups.special_orders",
    links: [
      { url: "/special_order/current", label: "home.links.special_current" },
      { url: "/special_order/error/", label: "home.links.special_errors" },
      { url: "/special_order/log/", label: "home.links.special_logs" },
    ],
  },
  {
    title: "home.groups.products",
    links: [
      { url: "/product/", label: "home.links.products" },
      { url: "/product/api/error/", label: "home.links.product_errors" },
      { url: "/product/api/operation/", label: "home.links.product_operations" },
      { url: "/product/category_tags_mapping/", label: "home.links.mappings" },
    ],
  },
] as const;

export const DROPSHIP_MENU = [
  { url: "/dropship/vendor/", label: "dropship.buttons.vendors" },
  { url: "/dropship/vendor/edit/", label: "dropship.buttons.new_vendor" },
  { url: "/dropship/requests/", label: "dropship.buttons.requests" },
  { url: "/dropship/responses/", label: "dropship.buttons.responses" },
  { url: "/dropship/logs/", label: "dropship.buttons.logs" },
  { url: "/dropship/tools/", label: "dropship.buttons.tools" },
  { url: "/dropship/test/", label: "dropship.buttons.test" },
] as const;
