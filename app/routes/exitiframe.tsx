// /exitiframe?redirectUri=…: leaves the Shopify admin frame for an allowed
// target, or says why it will not. No session is needed: its only effect is a
// navigation to the app itself or Shopify.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Banner, Page } from "@shopify/polaris";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { StandalonePolaris } from "~/components/AppShell";
import { exitIframeTarget } from "~/lib/exit-iframe";

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return { target: exitIframeTarget(url.searchParams.get("redirectUri"), request.url) };
}

export default function ExitIframe() {
  const { target } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  useEffect(() => {
    if (target) window.open(target, "_top");
  }, [target]);
  return (
    <StandalonePolaris>
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
