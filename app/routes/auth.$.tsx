// OAuth and session-token paths of the Shopify template (embedded mode only).
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { refuseOtherShops } from "~/auth.server";
import { isEmbedded, shopify } from "~/shopify.server";

export async function loader({ request }: LoaderFunctionArgs) {
  if (!isEmbedded()) return redirect("/");
  refuseOtherShops(request);
  await shopify().authenticate.admin(request);
  return null;
}
