// Inside the admin: the admin's own loading bar while a page loads (App
// Bridge's shopify.loading), as the admin's pages show it. Local mode has none.
import { useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { appBridge } from "~/runs/use-background-run";

export function AdminLoading() {
  const busy = useNavigation().state !== "idle";
  useEffect(() => {
    appBridge()?.loading?.(busy);
  }, [busy]);
  return null;
}
