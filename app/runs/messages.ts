// A run's messages are stored as a code with its parameters and rendered in
// the reader's language when read (D96), so a German page shows a German
// result whoever started the run. Parameters may themselves be messages.
// Two other forms stay readable: `text`, words that are data (a log line, an
// error from a server), shown as they are; and `texts`, a message already
// rendered in each language when it was made of several translated pieces.
// `parts` joins messages into one (sentences, with a space by default), so a
// message made of translated pieces stays codes too (D117).

export type Language = "en" | "de" | "fr";

export type RunMessage =
  | { code: string; params?: Record<string, unknown> }
  | { text: string }
  | { texts: Partial<Record<Language, string>> }
  | { parts: RunMessage[]; separator?: string };

export type MessageTranslate = (key: string, options?: Record<string, unknown>) => string;

const isMessage = (value: unknown): value is RunMessage =>
  typeof value === "object" && value !== null && ("code" in value || "text" in value || "texts" in value || "parts" in value);

export const message = (code: string, params?: Record<string, unknown>): RunMessage => (params ? { code, params } : { code });
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
    const params = Object.fromEntries(Object.entries(value.params ?? {}).map(([key, param]) => [key, isMessage(param) ? renderMessage(t, language, param) : param]));
    return t(value.code, params);
  }
  if ("parts" in value) {
    const parts = Array.isArray(value.parts) ? value.parts : [];
    return parts.map((part) => renderMessage(t, language, part)).filter(Boolean).join(typeof value.separator === "string" ? value.separator : " ");
  }
  if ("texts" in value) {
    const texts = value.texts as Record<string, string | undefined>;
    return texts[language] ?? texts.en ?? Object.values(texts).find(Boolean) ?? "";
  }
  return value.text;
}

/** A message made of codes (no `texts`), in the language of `t`: for answers built in one language, such as a 422. */
export const renderCoded = (t: MessageTranslate, value: unknown): string => renderMessage(t, "en", value);
