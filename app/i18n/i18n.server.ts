import path from "node:path";
import Backend from "i18next-fs-backend";
import { RemixI18Next } from "remix-i18next/server";
import i18nConfig, { localeFromUrl } from "./config";

export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: i18nConfig.supportedLngs,
    fallbackLanguage: i18nConfig.fallbackLng,
    order: ["custom"],
    findLocale: async (request) => localeFromUrl(request.url),
  },
  i18next: {
    ...i18nConfig,
    backend: { loadPath: path.resolve("public/locales/{{lng}}/{{ns}}.json") },
  },
  plugins: [Backend],
});

const translators = new Map<string, ReturnType<typeof i18nServer.getFixedT<"common">>>();

/**
 * A translate function for server-built texts (grid labels, API messages).
 * Kept per language: building one reads the locale files and costs about 2.5 ms
 * of CPU per request (measured by bench/order-grid). Development reads afresh,
 * so edited texts show without a restart.
 */
export function translatorFor(request: Request) {
  return translatorForLanguage(localeFromUrl(request.url));
}

/** The same, for a reader who is not a request: an e-mail's recipient, in the language they chose. */
export function translatorForLanguage(language: string) {
  const locale = (i18nConfig.supportedLngs as readonly string[]).includes(language) ? language : "en";
  if (process.env.NODE_ENV === "development") return i18nServer.getFixedT(locale, "common");
  let translator = translators.get(locale);
  if (!translator) {
    translator = i18nServer.getFixedT(locale, "common");
    translators.set(locale, translator);
    translator.catch(() => translators.delete(locale)); // a failed load is tried again next time
  }
  return translator;
}
export type Translate = Awaited<ReturnType<typeof translatorFor>>;
