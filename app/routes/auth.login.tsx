// The template's login page: outside the admin, staff name their shop.
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Button, Card, FormLayout, Page, TextField } from "@shopify/polaris";
import { useState } from "react";
import { StandalonePolaris } from "~/components/AppShell";
import { isEmbedded, shopify } from "~/shopify.server";
import { isServedShop } from "~/shopify/shops.server";

/** What staff type: "my-shop" or "my-shop.myshopify.com" (the library accepts both). */
const normalisedShop = (shop: string) => (shop.includes(".") ? shop : `${shop}.myshopify.com`).trim().toLowerCase();

async function login(request: Request) {
  if (!isEmbedded()) throw redirect("/");
  // The shop arrives in the query (install link) or the form: another shop is refused before any redirect to it.
  const shop =
    new URL(request.url).searchParams.get("shop") ?? (request.method === "POST" ? String((await request.clone().formData()).get("shop") ?? "") : null);
  if (shop && !isServedShop(normalisedShop(shop))) return data({ shopError: "This app serves one merchant's shop only." as string | null }, { status: 403 });
  const errors = await shopify().login(request);
  return { shopError: "shop" in errors ? String(errors.shop) : null };
}

export const loader = async ({ request }: LoaderFunctionArgs) => login(request);
export const action = async ({ request }: ActionFunctionArgs) => login(request);

export default function Login() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [shop, setShop] = useState("");
  const error = actionData?.shopError ?? loaderData.shopError;
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
