// Settings every screen needs, from the root loader.
import { useRouteLoaderData } from "@remix-run/react";

export interface AppSettings {
  locale: "en" | "de" | "fr";
  timeZone: string;
  mode: "local" | "embedded";
}

export function useAppSettings(): AppSettings {
  const data = useRouteLoaderData("root") as AppSettings | undefined;
  return data ?? { locale: "en", timeZone: "America/New_York", mode: "local" };
}
