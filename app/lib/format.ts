// Shared display rules (spec 000 §1, §3): USD with $, US short date plus short
// time, '--n/a--' for missing order-grid values, title-cased status values.

export const NOT_AVAILABLE = "--n/a--";

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** 1234.5 → "$1,234.50"; null → "". */
export function formatMoney(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  const amount = typeof value === "number" ? value : Number(value);
  return Number.isFinite(amount) ? usd.format(amount) : String(value);
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** An ISO date → "11/21/26, 8:44 PM" in `timeZone`; a bad date is shown as it came. */
export function formatDateTime(value: string | Date | null | undefined, timeZone = "America/New_York"): string {
  if (value === null || value === undefined || value === "") return "";
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  let format = dateTimeFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { dateStyle: "short", timeStyle: "short", timeZone });
    dateTimeFormats.set(timeZone, format);
  }
  return format.format(date);
}

// Words shown in capitals wherever they appear in a status or source value.
const ACRONYMS = new Set(["avs", "us", "uk", "ca", "sku", "po", "edi", "csv", "eod", "dnh", "ftp", "sftp", "api", "id", "usps", "ups", "dhl"]);

/** "avs_pending" → "AVS Pending", "AMAZON_US" → "Amazon US", "ebay stores" → "Ebay Stores". */
export function titleCase(value: string | null | undefined): string {
  if (!value) return "";
  return value
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((word) => {
      const lower = word.toLowerCase();
      return ACRONYMS.has(lower) ? lower.toUpperCase() : lower.charAt(0).toUpperCase() + lower.slice(1);
    })
    .join(" ");
}

/** "A1,B2" → "A1, B2". */
export function formatSkus(value: string | null | undefined): string {
  return value ? value.split(/\s*,\s*/).join(", ") : "";
}

/** A value for an order-grid cell: '--n/a--' when missing. */
export function orNotAvailable(value: unknown): string {
  return value === null || value === undefined || value === "" ? NOT_AVAILABLE : String(value);
}

export const isAbsoluteUrl = (url: string) => /^([a-z][a-z\d+.-]*:)?\/\//i.test(url);

/**
 * Keeps the interface language across in-app links: the language lives in the
 * `locale` query parameter (spec 000 §1), so internal links carry it on.
 */
export function withLocale(url: string, currentSearch: string): string {
  if (isAbsoluteUrl(url) || url.startsWith("#")) return url;
  const locale = new URLSearchParams(currentSearch).get("locale");
  if (!locale) return url;
  const [pathAndQuery, hash = ""] = url.split("#");
  const [path, query = ""] = pathAndQuery.split("?");
  const params = new URLSearchParams(query);
  if (!params.has("locale")) params.set("locale", locale);
  return `${path}?${params.toString()}${hash ? `#${hash}` : ""}`;
}
