// Layout of every screen: authenticates once for the frame (each child loader
// authenticates too, as loaders run in parallel) and renders the shell.
import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { openAttentionCount } from "~/attention/queue.server";
import { requireStaff, staffName } from "~/auth.server";
import { AdminLoading } from "~/components/AdminLoading";
import { AppShell } from "~/components/AppShell";
import { env } from "~/env.server";
import { gridPreferencesOf } from "~/grid/preferences.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const staff = await requireStaff(request);
  // The navigation's count; a database that cannot answer it leaves the count out, not the page.
  const [attentionCount, gridPreferences] = await Promise.all([
    openAttentionCount().catch(() => 0),
    // The staff member's columns, with the first page: a grid never shows every column first (D268).
    gridPreferencesOf(staffName(staff)).catch(() => ({})),
  ]);
  return { mode: staff.mode, apiKey: env().SHOPIFY_API_KEY ?? "", attentionCount, gridPreferences };
}

export default function AppLayout() {
  const { mode, apiKey, attentionCount } = useLoaderData<typeof loader>();
  return (
    <AppShell mode={mode} apiKey={apiKey} attentionCount={attentionCount}>
      {mode === "embedded" && <AdminLoading />}
      <Outlet />
    </AppShell>
  );
}

// Shopify's redirects and headers must pass through (template).
export function ErrorBoundary() {
  return boundary.error(useRouteError());
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
