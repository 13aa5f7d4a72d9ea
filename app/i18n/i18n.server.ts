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

/** A translate function for server-built texts (grid labels, API messages). */
export function translatorFor(request: Request) {
  return i18nServer.getFixedT(request, "common");
}
export type Translate = Awaited<ReturnType<typeof translatorFor>>;
