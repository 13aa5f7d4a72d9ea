// Every text the app shows exists in each of its languages, so the browser
// needs its page's language only (entry.client loads no fallback, D245): a key
// missing in German would show as its name there, not in English.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { supportedLngs } from "./config";

type Tree = { [key: string]: string | Tree };
const flatten = (node: Tree, prefix = ""): string[] =>
  Object.entries(node).flatMap(([key, value]) => (typeof value === "string" ? [`${prefix}${key}`] : flatten(value, `${prefix}${key}.`)));
// Plural forms differ by language (French has _many); the word itself must be there.
const withoutPluralForm = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, "");
const keysOf = (language: string) =>
  new Set(flatten(JSON.parse(readFileSync(`public/locales/${language}/common.json`, "utf8")) as Tree).map(withoutPluralForm));

describe("the locale files", () => {
  const english = keysOf("en");
  it.each(supportedLngs.filter((language) => language !== "en"))("%s has every text English has, and none it lacks", (language) => {
    const other = keysOf(language);
    expect([...english].filter((key) => !other.has(key))).toEqual([]);
    expect([...other].filter((key) => !english.has(key))).toEqual([]);
  });
});
