import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useRouteError, useRouteLoaderData } from "@remix-run/react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { useTranslation } from "react-i18next";
import { useChangeLanguage } from "remix-i18next/react";
import { useEffect, type ReactNode } from "react";
import type { AppSettings } from "./components/app-settings";
import { StandalonePolaris } from "./components/AppShell";
import { DocumentTitle } from "./components/DocumentTitle";
import { NotFound } from "./components/NotFound";
import { env } from "./env.server";
import { localeUrl } from "./i18n/config";
import { i18nServer } from "./i18n/i18n.server";
import { localeFiles } from "./i18n/locale-files.server";
import appStyles from "./styles/app.css?url";

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "preconnect", href: "https://cdn.shopify.com/" },
  { rel: "stylesheet", href: polarisStyles },
  { rel: "stylesheet", href: appStyles },
];

export const handle = { i18n: "common" };

export async function loader({ request }: LoaderFunctionArgs): Promise<AppSettings & { localesVersion: string }> {
  const config = env();
  const locale = (await i18nServer.getLocale(request)) as AppSettings["locale"];
  return { locale, timeZone: config.APP_TIMEZONE, mode: config.mode, localesVersion: localeFiles().version };
}

export function Layout({ children }: { children: ReactNode }) {
  const settings = useRouteLoaderData<typeof loader>("root");
  const locale = settings?.locale ?? "en";
  useChangeLanguage(locale);
  // Marks the page as interactive: end-to-end tests wait for it before typing,
  // since text typed before hydration is lost by controlled inputs.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <DocumentTitle />
        <Meta />
        {/* The language's texts, fetched while the scripts load; entry.client reads the version here (D245). */}
        {settings && (
          <link
            rel="preload"
            as="fetch"
            crossOrigin="anonymous"
            href={localeUrl(locale, "common", settings.localesVersion)}
            data-locales-version={settings.localesVersion}
          />
        )}
        <Links />
      </head>
      <body>
        {children}
        {/* Its inline script needs sessionStorage, which the admin's frame may not have (D40). */}
        {settings?.mode !== "embedded" && <ScrollRestoration />}
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** The router's fallback screen (spec 000 §8). */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <StandalonePolaris>
        <NotFound />
      </StandalonePolaris>
    );
  }
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : "";
  return (
    <StandalonePolaris>
      <div style={{ padding: "2rem" }}>
        <h1 style={{ fontSize: "1.5rem", fontWeight: 600 }}>{t("error_boundary.heading", { defaultValue: "Unexpected Application Error!" })}</h1>
        {detail && <p style={{ marginTop: "1rem" }}>{detail}</p>}
      </div>
    </StandalonePolaris>
  );
}
