// Stored messages (a run's result, D96; a log row's message, D114) are a code
// with its parameters, rendered in the reader's language when read, so a German
// page shows a German line whoever wrote it. Parameters may themselves be
// messages, or lists of messages (joined with "; ").
// Two other forms stay readable: `text`, words that are data (a log line, an
// error from a server), shown as they are; and `texts`, a message already
// rendered in each language when it was made of several translated pieces.
import { z } from "zod";

export type Language = "en" | "de" | "fr";

export type CodedMessage = { code: string; params?: Record<string, unknown> };

export type RunMessage =
  | CodedMessage
  | { text: string }
  | { texts: Partial<Record<Language, string>> };

export const runMessageSchema: z.ZodType<RunMessage> = z.union([
  z.object({ code: z.string(), params: z.record(z.string(), z.unknown()).optional() }),
  z.object({ text: z.string() }),
  z.object({ texts: z.record(z.string(), z.string()) }),
]);

export type MessageTranslate = (key: string, options?: Record<string, unknown>) => string;

export const isMessage = (value: unknown): value is RunMessage =>
  typeof value === "object" && value !== null && ("code" in value || "text" in value || "texts" in value);

export const message = (code: string, params?: Record<string, unknown>): CodedMessage => (params ? { code, params } : { code });
export const plainText = (text: string): RunMessage => ({ text });

/** The message in the reader's language; anything unreadable shows as an empty string. */
export function renderMessage(t: MessageTranslate, language: string, value: unknown): string {
  if (typeof value === "string") return value;
  if (!isMessage(value)) return "";
  if ("code" in value) {
    const params = Object.fromEntries(Object.entries(value.params ?? {}).map(([key, param]) => [key, renderParam(t, language, param)]));
    return t(value.code, params);
  }
  if ("texts" in value) {
    const texts = value.texts as Record<string, string | undefined>;
    return texts[language] ?? texts.en ?? Object.values(texts).find(Boolean) ?? "";
  }
  return value.text;
}

function renderParam(t: MessageTranslate, language: string, param: unknown): unknown {
  if (isMessage(param)) return renderMessage(t, language, param);
  if (Array.isArray(param) && param.length > 0 && param.every(isMessage)) return param.map((item) => renderMessage(t, language, item)).join("; ");
  return param;
}

/** A stored row's message: its code when it has one (D114), else the text it was written with (older rows, data). */
export function renderStored(t: MessageTranslate, language: string, code: unknown, text: string | null | undefined): string {
  return isMessage(code) ? renderMessage(t, language, code) : (text ?? "");
}
