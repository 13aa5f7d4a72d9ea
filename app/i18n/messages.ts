// Stored messages (a run's result, D96; a log row's message, D114; an error of
// a server, a password or a path, D117) are a code with its parameters,
// rendered in the reader's language when read, so a German page shows a German
// line whoever wrote it. Parameters may themselves be messages, or lists of
// messages (joined with "; ").
// Other forms stay readable: `text`, words that are data (a log line, an error
// from a server), shown as they are; `texts`, a message already rendered in
// each language (older rows); and `parts`, messages shown one after another
// (sentences, with a space by default), so a message made of pieces stays codes.
// A parameter that is an amount of money (`money(12.5)`, stored as
// { money: "12.50", currency: "USD" }) is formatted for the reader's language
// with Intl.NumberFormat: "$1,234.50", "1.234,50 $", "1 234,50 $US" (D125).

export type Language = "en" | "de" | "fr";

export type CodedMessage = { code: string; params?: Record<string, unknown> };

export type RunMessage = CodedMessage | { text: string } | { texts: Partial<Record<Language, string>> } | { parts: RunMessage[]; separator?: string };

export type MessageTranslate = (key: string, options?: Record<string, unknown>) => string;

export const isMessage = (value: unknown): value is RunMessage =>
  typeof value === "object" && value !== null && ("code" in value || "text" in value || "texts" in value || "parts" in value);

/** An amount of money as a message parameter: kept as its decimal and currency, formatted when read (D125). */
export type MoneyParam = { money: string; currency: string };
export const money = (amount: number, currency = "USD"): MoneyParam => ({ money: amount.toFixed(2), currency });
const isMoney = (value: unknown): value is MoneyParam =>
  typeof value === "object" && value !== null && typeof (value as MoneyParam).money === "string" && typeof (value as MoneyParam).currency === "string";

const NUMBER_LOCALES: Record<string, string> = { en: "en-US", de: "de-DE", fr: "fr-FR" };

/** An amount in the reader's language: "$1,234.50" (en), "1.234,50 $" (de), "1 234,50 $US" (fr). */
export function formatMoney(language: string, value: MoneyParam): string {
  const amount = Number(value.money);
  if (!Number.isFinite(amount)) return value.money;
  try {
    return new Intl.NumberFormat(NUMBER_LOCALES[language] ?? language, { style: "currency", currency: value.currency }).format(amount);
  } catch {
    // A currency code Intl does not know: the amount and the code, as written.
    return `${value.money} ${value.currency}`;
  }
}

export const message = (code: string, params?: Record<string, unknown>): CodedMessage => (params ? { code, params } : { code });
export const plainText = (text: string): RunMessage => ({ text });
/** Messages shown one after another (the empty ones left out). */
export const joined = (parts: Array<RunMessage | null | undefined | false>, separator?: string): RunMessage => ({
  parts: parts.filter((part): part is RunMessage => Boolean(part)),
  ...(separator !== undefined ? { separator } : {}),
});

/** The message in the reader's language; anything unreadable shows as an empty string. */
export function renderMessage(t: MessageTranslate, language: string, value: unknown): string {
  if (typeof value === "string") return value;
  if (!isMessage(value)) return "";
  if ("code" in value) {
    const params = Object.fromEntries(Object.entries(value.params ?? {}).map(([key, param]) => [key, renderParam(t, language, param)]));
    return t(value.code, params);
  }
  if ("parts" in value) {
    const parts = Array.isArray(value.parts) ? value.parts : [];
    return parts
      .map((part) => renderMessage(t, language, part))
      .filter(Boolean)
      .join(typeof value.separator === "string" ? value.separator : " ");
  }
  if ("texts" in value) {
    const texts = value.texts as Record<string, string | undefined>;
    return texts[language] ?? texts.en ?? Object.values(texts).find(Boolean) ?? "";
  }
  return value.text;
}

function renderParam(t: MessageTranslate, language: string, param: unknown): unknown {
  if (isMoney(param)) return formatMoney(language, param);
  if (isMessage(param)) return renderMessage(t, language, param);
  if (Array.isArray(param) && param.length > 0 && param.every(isMessage)) return param.map((item) => renderMessage(t, language, item)).join("; ");
  return param;
}

/** A message made of codes (no `texts`), in the language of `t`: for answers built in one language, such as a 422. */
export const renderCoded = (t: MessageTranslate, value: unknown): string => renderMessage(t, "en", value);

/** A stored row's message: its code when it has one (D114), else the text it was written with (older rows, data). */
export function renderStored(t: MessageTranslate, language: string, code: unknown, text: string | null | undefined): string {
  return isMessage(code) ? renderMessage(t, language, code) : (text ?? "");
}

/** A summary followed by the first five problems, as `StepReport.result` writes it in English. */
export function withProblems(summary: RunMessage, problems: RunMessage[]): RunMessage {
  if (!problems.length) return summary;
  const more = Math.max(0, problems.length - 5);
  return message(more ? "logs.with_problems_more" : "logs.with_problems", { summary, problems: problems.slice(0, 5), more });
}

/**
 * Words chosen when an answer meets its reader (D136): domain code puts one
 * where the answer shows words (a grid's column title, a stored row's message),
 * and the edge renders every one in the answer in one pass (`renderForReader`).
 */
export class ReaderText {
  constructor(readonly message: RunMessage) {}
}

/** A value the answer carries as JSON text, its ReaderTexts rendered first (a feed log's meta). */
export class ReaderJson {
  constructor(readonly value: unknown) {}
}

/** A translation key's words, chosen for the reader. */
export const readerKey = (key: string) => new ReaderText({ code: key });

/** A stored row's message for the reader: its code when it has one (D114), else the text it was written with. */
export const storedForReader = (code: unknown, text: string | null | undefined) => new ReaderText(isMessage(code) ? code : { text: text ?? "" });

const isPlainObject = (value: object): boolean => {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
};

/** The type of a value once rendered: each ReaderText (or ReaderJson) in it a string. */
export type Rendered<T> = T extends ReaderText | ReaderJson
  ? string
  : T extends Date
    ? T
    : T extends Array<infer U>
      ? Array<Rendered<U>>
      : T extends object
        ? { [K in keyof T]: Rendered<T[K]> }
        : T;

/**
 * `value` with every ReaderText and ReaderJson in it rendered in the reader's
 * language (walking arrays and plain objects; anything else is data and stays).
 * What holds none comes back as it was, the same object.
 */
export function renderForReader<T>(t: MessageTranslate, value: T): Rendered<T> {
  return walk(t, languageOf(t), value) as Rendered<T>;
}

/** The language of a fixed `t` (i18next sets `lng` on it). */
export const languageOf = (t: MessageTranslate): string => (t as unknown as { lng?: string }).lng ?? "en";

function walk(t: MessageTranslate, language: string, value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (value instanceof ReaderText) return renderMessage(t, language, value.message);
  if (value instanceof ReaderJson) return JSON.stringify(walk(t, language, value.value));
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const rendered = walk(t, language, item);
      if (rendered !== item) (out ??= value.slice())[i] = rendered;
    }
    return out ?? value;
  }
  if (!isPlainObject(value)) return value;
  const object = value as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  // for…in over a plain object: its own keys (Object.prototype has no enumerable ones), without a list of entries.
  for (const key in object) {
    const item = object[key];
    // Most cells are strings, numbers and nulls: nothing to walk.
    if (typeof item !== "object" || item === null) continue;
    const rendered = walk(t, language, item);
    if (rendered !== item) (out ??= { ...object })[key] = rendered;
  }
  return out ?? value;
}
