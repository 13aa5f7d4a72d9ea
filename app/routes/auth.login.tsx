// The template's login page: outside the admin, staff name their shop.
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, isRouteErrorResponse, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import { Button, Card, FormLayout, Page, TextField } from "@shopify/polaris";
import { useState } from "react";
import { StandalonePolaris } from "~/components/AppShell";
import { loginShops } from "~/auth.server";
import { isEmbedded, shopify } from "~/shopify.server";
import { isServedShop } from "~/shopify/shops.server";

const REFUSED = "This app serves one merchant's shop only.";

async function login(request: Request): Promise<{ shopError: string | null }> {
  if (!isEmbedded()) throw redirect("/");
  // Another shop is refused before any redirect to it, wherever it was written (D41, D205).
  const shops = await loginShops(request);
  // Thrown, not returned: after a refused POST, Remix would run the loader on the URL's own `shop` and redirect.
  if (shops.length > 1 || shops.some((shop) => !isServedShop(shop))) throw data({ shopError: REFUSED }, { status: 403 });
  // The library is given the checked shop only, never the request's own parameters or body.
  const url = new URL("/auth/login", request.url);
  if (shops[0]) url.searchParams.set("shop", shops[0]);
  const checked = request.method === "POST" && !shops[0] ? new Request(url, { method: "POST", body: new URLSearchParams() }) : new Request(url);
  const errors = await shopify().login(checked);
  return { shopError: "shop" in errors ? String(errors.shop) : null };
}

export const loader = async ({ request }: LoaderFunctionArgs) => login(request);
export const action = async ({ request }: ActionFunctionArgs) => login(request);

export default function Login() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return <LoginForm error={actionData?.shopError ?? loaderData.shopError} />;
}

/** A refused shop: the same form, with the reason. */
export function ErrorBoundary() {
  const error = useRouteError();
  const refused = isRouteErrorResponse(error) && error.status === 403;
  return <LoginForm error={refused ? REFUSED : "The login failed; try again."} />;
}

function LoginForm({ error }: { error: string | null }) {
  const [shop, setShop] = useState("");
  return (
    <StandalonePolaris>
      <Page narrowWidth>
        <Card>
          <Form method="post">
            <FormLayout>
              <TextField
                type="text"
                name="shop"
                label="Shop domain"
                helpText="example.myshopify.com"
                value={shop}
                onChange={setShop}
                autoComplete="on"
                error={error ?? undefined}
              />
              <Button submit>Log in</Button>
            </FormLayout>
          </Form>
        </Card>
      </Page>
    </StandalonePolaris>
  );
}
