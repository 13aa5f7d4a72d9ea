// App Bridge's global inside the admin (toasts, the loading bar), and whether
// the app runs embedded; both undefined or false in local mode.
import { useAppSettings } from "./app-settings";

interface AppBridgeGlobal {
  toast?: { show(message: string, options?: { isError?: boolean; duration?: number }): string };
  loading?(isLoading?: boolean): void;
}

/** App Bridge's global inside the admin; undefined in local mode. */
export function appBridge(): AppBridgeGlobal | undefined {
  return typeof window === "undefined" ? undefined : (window as unknown as { shopify?: AppBridgeGlobal }).shopify;
}

export function useEmbedded(): boolean {
  return useAppSettings().mode === "embedded";
}
