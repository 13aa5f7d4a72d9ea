// The frame around every screen. Embedded mode: the template's AppProvider
// (App Bridge) and the admin's own navigation menu. Local mode: Polaris alone,
// with a plain navigation sidebar.
import { useLocation } from "@remix-run/react";
import { NavMenu } from "@shopify/app-bridge-react";
import { AppProvider as PolarisAppProvider, Badge, Frame, Navigation, TopBar } from "@shopify/polaris";
import { AppProvider as ShopifyAppProvider } from "@shopify/shopify-app-remix/react";
import polarisDe from "@shopify/polaris/locales/de.json" with { type: "json" };
import polarisEn from "@shopify/polaris/locales/en.json" with { type: "json" };
import polarisFr from "@shopify/polaris/locales/fr.json" with { type: "json" };
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AppLink } from "./AppLink";
import { useAppSettings } from "./app-settings";
import { NAV_LINKS } from "./navigation";
import { withLocale } from "~/lib/format";

const POLARIS_TRANSLATIONS = { en: polarisEn, de: polarisDe, fr: polarisFr };

function usePolarisTranslations() {
  const { locale } = useAppSettings();
  return POLARIS_TRANSLATIONS[locale] ?? polarisEn;
}

/** Polaris without any frame: error screens that must render whatever failed. */
export function StandalonePolaris({ children }: { children: ReactNode }) {
  return (
    <PolarisAppProvider i18n={usePolarisTranslations()} linkComponent={AppLink}>
      {children}
    </PolarisAppProvider>
  );
}

export function AppShell({
  mode,
  apiKey,
  attentionCount,
  children,
}: {
  mode: "local" | "embedded";
  apiKey: string;
  attentionCount: number;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const i18n = usePolarisTranslations();
  const [navigationOpen, setNavigationOpen] = useState(false);
  // Needs attention shows how many items wait: the admin's menu takes words only, so the count is in them.
  const label = (link: (typeof NAV_LINKS)[number]) =>
    link.url === "/attention" && attentionCount > 0 ? t("nav.attention_count", { count: attentionCount }) : t(link.label);

  if (mode === "embedded") {
    return (
      <ShopifyAppProvider isEmbeddedApp apiKey={apiKey} i18n={i18n}>
        <NavMenu>
          <a href={withLocale("/", location.search)} rel="home">
            {t("nav.home")}
          </a>
          {NAV_LINKS.map((link) => (
            <a key={link.url} href={withLocale(link.url, location.search)}>
              {label(link)}
            </a>
          ))}
        </NavMenu>
        {/* Our link component inside the template's provider: in-app links keep ?locale=. */}
        <PolarisAppProvider i18n={i18n} linkComponent={AppLink}>
          {children}
        </PolarisAppProvider>
      </ShopifyAppProvider>
    );
  }

  const navigation = (
    <Navigation location={location.pathname}>
      <Navigation.Section
        items={[
          { url: "/", label: t("nav.home"), exactMatch: true },
          ...NAV_LINKS.map((link) => ({
            url: link.url,
            label: t(link.label),
            // A plain Badge: Navigation's string badge is announced as "New".
            ...(link.url === "/attention" && attentionCount > 0 ? { badge: <Badge>{String(attentionCount)}</Badge> } : {}),
          })),
        ]}
      />
    </Navigation>
  );
  // A top bar as the admin has one: the contextual save bar of a form with unsaved changes takes its place
  // instead of covering the page's own header and actions.
  const topBar = <TopBar showNavigationToggle onNavigationToggle={() => setNavigationOpen((open) => !open)} />;
  return (
    <PolarisAppProvider i18n={i18n} linkComponent={AppLink}>
      <Frame topBar={topBar} navigation={navigation} showMobileNavigation={navigationOpen} onNavigationDismiss={() => setNavigationOpen(false)}>
        {children}
      </Frame>
    </PolarisAppProvider>
  );
}
