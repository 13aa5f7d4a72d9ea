// The rules of a special order, shared by the revise form in the browser, the
// server's save (PUT /api/special_order/{id}) and the pull of the AS400's
// files, so all three say the same thing in the same words (spec 001 §5):
// each item row is checked in order, and the first failure is the message.
// No server-only imports here: the browser bundles this file.

/** One item of a special order (spec 001 §3): text as typed; price and tax are amounts in USD. */
export interface SpecialOrderItem {
  sku: string;
  size: string;
  width: string;
  price: string;
  tax: string;
}

export const ITEM_FIELDS = ["sku", "size", "width", "price", "tax"] as const;

/** The editable fields of the revise form besides the items (spec 001 §3), in form order. */
export const CUSTOMER_FIELDS = [
  "customer_name",
  "customer_email",
  "customer_phone",
  "customer_address_1",
  "customer_address_2",
  "customer_address_city",
  "customer_address_state_code",
  "customer_address_zip",
] as const;
export type CustomerField = (typeof CUSTOMER_FIELDS)[number];

/** Required with no browser check (spec 001 §5): the server answers 422 for these. */
export const REQUIRED_FIELDS = [
  "customer_name",
  "customer_email",
  "customer_address_1",
  "customer_address_city",
  "customer_address_state_code",
  "customer_address_zip",
  "customer_phone",
  "shipping_cost",
] as const;

// --- state, province and armed-forces codes -------------------------------------------------

export const US_STATE_CODES: ReadonlyArray<[string, string]> = [
  ["AL", "Alabama"],
  ["AK", "Alaska"],
  ["AZ", "Arizona"],
  ["AR", "Arkansas"],
  ["CA", "California"],
  ["CO", "Colorado"],
  ["CT", "Connecticut"],
  ["DE", "Delaware"],
  ["DC", "District of Columbia"],
  ["FL", "Florida"],
  ["GA", "Georgia"],
  ["HI", "Hawaii"],
  ["ID", "Idaho"],
  ["IL", "Illinois"],
  ["IN", "Indiana"],
  ["IA", "Iowa"],
  ["KS", "Kansas"],
  ["KY", "Kentucky"],
  ["LA", "Louisiana"],
  ["ME", "Maine"],
  ["MD", "Maryland"],
  ["MA", "Massachusetts"],
  ["MI", "Michigan"],
  ["MN", "Minnesota"],
  ["MS", "Mississippi"],
  ["MO", "Missouri"],
  ["MT", "Montana"],
  ["NE", "Nebraska"],
  ["NV", "Nevada"],
  ["NH", "New Hampshire"],
  ["NJ", "New Jersey"],
  ["NM", "New Mexico"],
  ["NY", "New York"],
  ["NC", "North Carolina"],
  ["ND", "North Dakota"],
  ["OH", "Ohio"],
  ["OK", "Oklahoma"],
  ["OR", "Oregon"],
  ["PA", "Pennsylvania"],
  ["RI", "Rhode Island"],
  ["SC", "South Carolina"],
  ["SD", "South Dakota"],
  ["TN", "Tennessee"],
  ["TX", "Texas"],
  ["UT", "Utah"],
  ["VT", "Vermont"],
  ["VA", "Virginia"],
  ["WA", "Washington"],
  ["WV", "West Virginia"],
  ["WI", "Wisconsin"],
  ["WY", "Wyoming"],
  ["AS", "American Samoa"],
  ["GU", "Guam"],
  ["MP", "Northern Mariana Islands"],
  ["PR", "Puerto Rico"],
  ["VI", "U.S. Virgin Islands"],
];

/** PQ and NF are the old codes of Quebec and Newfoundland the AS400 still writes. */
export const CANADIAN_PROVINCE_CODES: ReadonlyArray<[string, string]> = [
  ["AB", "Alberta"],
  ["BC", "British Columbia"],
  ["MB", "Manitoba"],
  ["NB", "New Brunswick"],
  ["NL", "Newfoundland and Labrador"],
  ["NF", "Newfoundland (NF)"],
  ["NS", "Nova Scotia"],
  ["NT", "Northwest Territories"],
  ["NU", "Nunavut"],
  ["ON", "Ontario"],
  ["PE", "Prince Edward Island"],
  ["QC", "Quebec"],
  ["PQ", "Quebec (PQ)"],
  ["SK", "Saskatchewan"],
  ["YT", "Yukon"],
];

export const ARMED_FORCES_CODES: ReadonlyArray<[string, string]> = [
  ["AA", "Armed Forces Americas"],
  ["AE", "Armed Forces Europe, Middle East, Africa, Canada"],
  ["AP", "Armed Forces Pacific"],
];

const CANADIAN = new Set(CANADIAN_PROVINCE_CODES.map(([code]) => code));
const ALL_CODES = new Set([...US_STATE_CODES, ...CANADIAN_PROVINCE_CODES, ...ARMED_FORCES_CODES].map(([code]) => code));

export const isStateCode = (code: string) => ALL_CODES.has(code.trim().toUpperCase());

/** Where Shopify puts the address: its country and province code (PQ and NF become QC and NL). */
export function shopifyRegion(code: string): { countryCode: "US" | "CA"; provinceCode: string } {
  const upper = code.trim().toUpperCase();
  if (!CANADIAN.has(upper)) return { countryCode: "US", provinceCode: upper };
  return { countryCode: "CA", provinceCode: upper === "PQ" ? "QC" : upper === "NF" ? "NL" : upper };
}

// --- checks --------------------------------------------------------------------------------

/** Anything that turns a key (and values) into text: i18next's `t` in the browser and on the server. */
/** Generic in what it gives: a stored message (`message`, D114) as well as text. */
export type TranslateText<T = string> = (key: string, options?: Record<string, unknown>) => T;

const blank = (value: unknown) => value === null || value === undefined || String(value).trim() === "";
/** A plain decimal number: "12", "12.5", "-3", ".50". Not "1e3", "12,50" or "$5". */
const isNumber = (value: unknown) => /^-?(\d+(\.\d*)?|\.\d+)$/.test(String(value).trim());

/** The first failing rule of the item rows (spec 001 §5), or null when every row passes. */
export function firstItemFailure<T = string>(items: ReadonlyArray<Partial<Record<keyof SpecialOrderItem, unknown>>>, t: TranslateText<T>): T | null {
  for (const item of items) {
    if (blank(item.sku)) return t("special_orders.validation.sku_required");
    if (blank(item.size)) return t("special_orders.validation.size_required");
    if (blank(item.price)) return t("special_orders.validation.price_required");
    if (!isNumber(item.price)) return t("special_orders.validation.price_number");
    if (blank(item.tax)) return t("special_orders.validation.tax_required");
    if (!isNumber(item.tax)) return t("special_orders.validation.tax_number");
  }
  return null;
}

export type SpecialOrderValues = Partial<Record<CustomerField | "shipping_cost", unknown>> & {
  items: ReadonlyArray<Partial<Record<keyof SpecialOrderItem, unknown>>>;
};

/**
 * Every problem of a special order, per field (the server's 422 and the pull's
 * error message): `items` first with the first failing item rule, then the
 * required fields, the email, the state code and the shipping cost.
 */
export function specialOrderProblems<T = string>(values: SpecialOrderValues, t: TranslateText<T>): Record<string, T[]> {
  const problems: Record<string, T[]> = {};
  const itemFailure = values.items.length === 0 ? t("special_orders.validation.items_required") : firstItemFailure(values.items, t);
  if (itemFailure) problems.items = [itemFailure];
  for (const field of REQUIRED_FIELDS) {
    if (blank(values[field])) problems[field] = [t("special_orders.validation.required", { field: t(`special_orders.fields.${field}`) })];
  }
  const email = values.customer_email;
  if (!problems.customer_email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(String(email).trim())) {
    problems.customer_email = [t("special_orders.validation.email", { value: String(email).trim() })];
  }
  const state = values.customer_address_state_code;
  if (!problems.customer_address_state_code && !isStateCode(String(state))) {
    problems.customer_address_state_code = [t("special_orders.validation.state_code", { value: String(state).trim() })];
  }
  if (!problems.shipping_cost && (!isNumber(values.shipping_cost) || Number(values.shipping_cost) < 0)) {
    problems.shipping_cost = [t("special_orders.validation.shipping_cost")];
  }
  return problems;
}

/** The one message a pulled ticket's error row shows: the first of its problems. */
export function firstProblem<T>(problems: Record<string, T[]>): T | null {
  return Object.values(problems)[0]?.[0] ?? null;
}

/** The items of a JSON list (or its text, as the revise form sends it); null when it is not a list of objects. */
export function readItems(value: unknown): SpecialOrderItem[] | null {
  let list = value;
  if (typeof value === "string") {
    try {
      list = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (!Array.isArray(list) || !list.every((item) => item && typeof item === "object" && !Array.isArray(item))) return null;
  return list.map((item: Record<string, unknown>) => {
    const text = (key: string) => (item[key] === null || item[key] === undefined ? "" : String(item[key]));
    return { sku: text("sku"), size: text("size"), width: text("width"), price: text("price"), tax: text("tax") };
  });
}

/** The order's own fields an error row repeats (the error screen lists them without a join). */
export const errorRowOf = (order: {
  id: number;
  store_ticket: string;
  store_id: string;
  employee_number: string | null;
  customer_name: string;
  customer_email: string | null;
  customer_phone: string | null;
}) => ({
  special_order_id: order.id,
  store_ticket: order.store_ticket,
  store_id: order.store_id,
  employee_number: order.employee_number,
  customer_name: order.customer_name,
  customer_email: order.customer_email,
  customer_phone: order.customer_phone,
});
