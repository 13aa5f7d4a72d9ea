// Inside the admin: the admin's own loading bar while a page loads (App
// Bridge's shopify.loading), as the admin's pages show it. Local mode has none.
// Told only when the state changes: nothing is sent while a page sits idle.
import { useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { appBridge } from "./app-bridge";

export function AdminLoading() {
  const busy = useNavigation().state !== "idle";
  const told = useRef(false);
  useEffect(() => {
    if (busy === told.current) return;
    told.current = busy;
    appBridge()?.loading?.(busy);
  }, [busy]);
  return null;
}
