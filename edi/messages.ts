// A message for people as edi/ hands it to the app: an i18n key with its
// parameters (a parameter may itself be such a message), or words that are
// data and are shown as they are. edi/ uses no i18n library; the app renders
// these in the reader's language (app/runs/messages.ts, D117).
export type CodedMessage = { code: string; params?: Record<string, unknown> } | { text: string };

export const coded = (code: string, params?: Record<string, unknown>): CodedMessage => (params ? { code, params } : { code });

/**
 * One of our own sentences in edi/ (a fault of an X12 file, an error of a CSV
 * row): its English text, as the readers have always written it (the 997/TA1
 * logic, the stored text columns, filters and tests read it), and the same as
 * a code with parameters for the reader's language (D124). The English comes
 * from EDI_TEXTS (edi/texts.ts), which public/locales/en has word for word
 * under `edi.` (a test checks it). A parameter may itself be a Phrase.
 */
export interface Phrase {
  text: string;
  coded: CodedMessage;
}

type PhraseParam = string | number | Phrase;

const isPhrase = (value: unknown): value is Phrase => typeof value === "object" && value !== null && "coded" in value && "text" in value;

export function phraseFrom(table: Record<string, unknown>, key: string, params: Record<string, PhraseParam | PhraseParam[]> = {}): Phrase {
  const template = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], table);
  if (typeof template !== "string") throw new Error(`no EDI text ${key}`);
  const english = (value: PhraseParam | PhraseParam[]): string =>
    Array.isArray(value) ? value.map(english).join("; ") : isPhrase(value) ? value.text : String(value);
  const asParam = (value: PhraseParam | PhraseParam[]): unknown =>
    Array.isArray(value) ? value.map((item) => (isPhrase(item) ? item.coded : { text: String(item) })) : isPhrase(value) ? value.coded : value;
  const text = template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => (name in params ? english(params[name]) : ""));
  const codedParams = Object.fromEntries(Object.entries(params).map(([name, value]) => [name, asParam(value)]));
  return { text, coded: coded(`edi.${key}`, Object.keys(codedParams).length ? codedParams : undefined) };
}
