// The translation files, read once per process (afresh in development) with
// one content hash over all of them: the browser asks for
// /locales/<lng>/common.json?v=<hash>, a URL whose content never changes, so
// it is cached for good and preloaded from the page's head (D245). The
// server renders from the same parsed files, without reading the disk per request.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { supportedLngs, type Locale } from "./config";

export interface LocaleFiles {
  /** The first 12 hex digits of the files' sha256. */
  version: string;
  resources: Record<Locale, { common: Record<string, unknown> }>;
}

let cached: LocaleFiles | undefined;

export function localeFiles(): LocaleFiles {
  if (cached && process.env.NODE_ENV !== "development") return cached;
  const hash = createHash("sha256");
  const resources = {} as LocaleFiles["resources"];
  for (const lng of supportedLngs) {
    const text = readFileSync(path.resolve(`public/locales/${lng}/common.json`), "utf8");
    hash.update(text);
    resources[lng] = { common: JSON.parse(text) as Record<string, unknown> };
  }
  cached = { version: hash.digest("hex").slice(0, 12), resources };
  return cached;
}
