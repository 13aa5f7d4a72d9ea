// The browser's translation loader: one fetch of the versioned file (D245).
// i18next retries a read that says so (the `true` beside the error) up to
// maxRetries times, 350 ms doubling (spec 000 §1, ./config.ts). Replaces
// i18next-http-backend, whose fetch ponyfill every browser here can do without.
import type { BackendModule } from "i18next";
import { localeUrl } from "./config";

export function localeBackend(version: string): BackendModule {
  return {
    type: "backend",
    init() {},
    read(language, namespace, callback) {
      fetch(localeUrl(language, namespace, version))
        .then(async (response) => {
          // A 4xx will not mend by asking again; a 5xx or a lost connection may.
          if (!response.ok) return callback(new Error(`${response.status} for ${language}/${namespace}`), response.status >= 500);
          callback(null, (await response.json()) as Record<string, unknown>);
        })
        .catch((error: Error) => callback(error, true));
    },
  };
}
