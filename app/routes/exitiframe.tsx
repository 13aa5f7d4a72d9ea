// /exitiframe?redirectUri=…: leaves the Shopify admin frame for an allowed
// target, or says why it will not. No session is needed: its only effect is a
// navigation to the app itself or Shopify. Inside the admin, App Bridge is
// loaded so that the top window is navigated by the admin (a framed page may
// not navigate its parent itself).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Banner, Page } from "@shopify/polaris";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { StandalonePolaris } from "~/components/AppShell";
import { env } from "~/env.server";
import { APP_BRIDGE_URL, exitIframeTarget } from "~/lib/exit-iframe";

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const config = env();
  return {
    target: exitIframeTarget(url.searchParams.get("redirectUri"), request.url, { appUrl: config.SHOPIFY_APP_URL, shops: config.shops }),
    appBridgeKey: config.mode === "embedded" ? config.SHOPIFY_API_KEY! : null,
  };
}

export default function ExitIframe() {
  const { target, appBridgeKey } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  useEffect(() => {
    if (target) window.open(target, "_top");
  }, [target]);
  return (
    <StandalonePolaris>
      {appBridgeKey && <script src={APP_BRIDGE_URL} data-api-key={appBridgeKey} />}
      <Page>
        {target ? (
          <p>{t("exitiframe.redirecting")}</p>
        ) : (
          <Banner tone="warning">
            <p>{t("exitiframe.warning")}</p>
          </Banner>
        )}
      </Page>
    </StandalonePolaris>
  );
}
