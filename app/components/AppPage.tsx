// A screen's page. Local mode: Polaris' Page, title and actions in the page.
// Embedded mode: the title, the Back breadcrumb and the actions go in the
// admin's own title bar (App Bridge's ui-title-bar), as the admin's pages
// have them; the page keeps its content (issue 18 item 3).
import { TitleBar } from "@shopify/app-bridge-react";
import { Box, Page, Text, type PageProps } from "@shopify/polaris";
import type { ReactNode } from "react";
import { useAppSettings } from "./app-settings";
import { withLocale } from "~/lib/format";
import { useLocation } from "@remix-run/react";

interface PageAction {
  content?: string;
  onAction?: () => unknown;
  url?: string;
  loading?: boolean;
  disabled?: boolean;
  destructive?: boolean;
}

/** Polaris Page's props that screens use; actions as descriptors (not elements), so they can go in the title bar. */
export type AppPageProps = Pick<PageProps, "title" | "subtitle" | "fullWidth" | "backAction"> & {
  primaryAction?: PageAction;
  secondaryActions?: PageAction[];
  children?: ReactNode;
};

/**
 * A secondary action that is the Back breadcrumb again (a screen's own Back
 * button, as spec 001 has on its forms): in the page it is a visible button
 * next to Polaris' arrow, but the admin's title bar shows the breadcrumb as a
 * "Back" of its own, so there it would read "Back" twice (D126).
 */
function repeatsBack(action: PageAction, backAction: AppPageProps["backAction"]): boolean {
  if (!backAction || !("url" in backAction) || !backAction.url || !action.url) return false;
  return action.url === backAction.url && action.content === backAction.content;
}

export function AppPage(props: AppPageProps) {
  const { title, subtitle, fullWidth, backAction, primaryAction, secondaryActions = [], children } = props;
  const { mode } = useAppSettings();
  const location = useLocation();
  if (mode !== "embedded") {
    return (
      <Page title={title} subtitle={subtitle} fullWidth={fullWidth} backAction={backAction} primaryAction={primaryAction} secondaryActions={secondaryActions}>
        {children}
      </Page>
    );
  }
  // App Bridge mirrors these elements into the admin; a click there clicks them here.
  const button = (action: PageAction, primary: boolean) => (
    <button
      key={action.content}
      variant={primary ? "primary" : undefined}
      tone={action.destructive ? "critical" : undefined}
      disabled={action.disabled || action.loading}
      onClick={() => void action.onAction?.()}
    >
      {action.content}
    </button>
  );
  return (
    <>
      <TitleBar title={title}>
        {backAction && "url" in backAction && backAction.url && (
          <a variant="breadcrumb" href={withLocale(backAction.url, location.search)}>
            {backAction.content}
          </a>
        )}
        {primaryAction &&
          (primaryAction.url ? (
            <a variant="primary" href={withLocale(primaryAction.url, location.search)}>
              {primaryAction.content}
            </a>
          ) : (
            button(primaryAction, true)
          ))}
        {secondaryActions
          .filter((action) => !repeatsBack(action, backAction))
          .map((action) =>
            action.url ? (
              <a key={action.content} href={withLocale(action.url, location.search)}>
                {action.content}
              </a>
            ) : (
              button(action, false)
            ),
          )}
      </TitleBar>
      <Page fullWidth={fullWidth}>
        {/* The admin's title bar has no subtitle: it opens the page instead. */}
        {subtitle && (
          <Box paddingBlockEnd="400">
            <Text as="p" tone="subdued">
              {subtitle}
            </Text>
          </Box>
        )}
        {children}
      </Page>
    </>
  );
}
