// Shared by server and browser. The language comes only from the `locale`
// query parameter (spec 000 §1), as the Shopify admin passes it to the frame.
export const supportedLngs = ["en", "de", "fr"] as const;
export type Locale = (typeof supportedLngs)[number];

export default {
  supportedLngs: [...supportedLngs],
  fallbackLng: "en",
  defaultNS: "common",
  ns: ["common"],
  // spec 000 §1: up to 5 retries, 350 ms doubling, at most 10 parallel reads.
  maxRetries: 5,
  retryTimeout: 350,
  maxParallelReads: 10,
  react: { useSuspense: false },
  interpolation: { escapeValue: false },
};

/** Where the browser reads a language's texts: `version` names their content, so the answer is cached for good (D245). */
export const localeUrl = (lng: string, ns: string, version: string) => `/locales/${lng}/${ns}.json?v=${encodeURIComponent(version)}`;

/** The supported locale named by `?locale=`; de-CH and de both give de. */
export function localeFromUrl(url: URL | string): Locale {
  const raw = new URL(url, "http://x").searchParams.get("locale")?.toLowerCase() ?? "";
  const base = raw.split(/[-_]/)[0];
  return (supportedLngs as readonly string[]).includes(base) ? (base as Locale) : "en";
}
