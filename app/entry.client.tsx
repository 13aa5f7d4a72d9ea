// spec 000 §1 start-up order: load locale data, initialise translations, render.
// The page's head preloads its language's versioned texts (root.tsx), so the
// read below usually finds them arrived or in the browser's cache (D245).
import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { getInitialNamespaces } from "remix-i18next/client";
import i18nConfig from "./i18n/config";
import { localeBackend } from "./i18n/locale-backend";

async function hydrate() {
  const version = document.querySelector<HTMLLinkElement>("link[data-locales-version]")?.dataset.localesVersion ?? "";
  await i18next
    .use(initReactI18next)
    .use(localeBackend(version))
    .init({
      ...i18nConfig,
      lng: document.documentElement.lang || "en",
      // Every language has every key (app/i18n/locale-parity.test.ts): the browser loads the page's
      // language only, not English as well (D245).
      fallbackLng: false,
      ns: getInitialNamespaces(),
    });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
