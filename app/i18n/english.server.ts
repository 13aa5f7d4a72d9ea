// The English text of a stored message, made when the row is written (D114):
// the text column keeps it for search, filters and exports, next to the code
// that pages render in the reader's language. Read once, synchronously, from
// the same locale file the pages use.
import { readFileSync } from "node:fs";
import path from "node:path";
import i18next, { type TFunction } from "i18next";
import { message, renderMessage, type RunMessage } from "./messages";

let english: TFunction | undefined;

function englishT(): TFunction {
  if (!english) {
    const resources = JSON.parse(readFileSync(path.resolve("public/locales/en/common.json"), "utf8")) as Record<string, unknown>;
    const instance = i18next.createInstance();
    // With resources given and initImmediate off, init completes before it returns.
    void instance.init({
      lng: "en",
      fallbackLng: "en",
      ns: ["common"],
      defaultNS: "common",
      resources: { en: { common: resources } },
      initImmediate: false,
      interpolation: { escapeValue: false },
    });
    english = instance.getFixedT("en", "common");
  }
  return english;
}

/** The message in English. */
export const englishText = (value: RunMessage): string => renderMessage((key, options) => englishT()(key, options) as string, "en", value);

/** A log row's message: its English text and its code (`message` and `message_code`). */
export function logMessage(code: string, params?: Record<string, unknown>): { message: string; message_code: RunMessage } {
  const coded = message(code, params);
  return { message: englishText(coded), message_code: coded };
}
