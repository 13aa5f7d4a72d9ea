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

// ASCII's names of the control characters (D218): a message shows `<SUB>`, never the raw byte.
const CONTROL_NAMES = "NUL SOH STX ETX EOT ENQ ACK BEL BS TAB LF VT FF CR SO SI DLE DC1 DC2 DC3 DC4 NAK SYN ETB CAN EM SUB ESC FS GS RS US".split(" ");
const controlName = (code: number) => `<${code === 0x7f ? "DEL" : CONTROL_NAMES[code]}>`;
// eslint-disable-next-line no-control-regex -- control characters are what is named
const RAW_CONTROL = /[\u0000-\u001f\u007f]/g;
// The same characters as JSON.stringify escapes them (\u001a), an escaped backslash before them excepted.
const ESCAPED_CONTROL = /(?<!\\)((?:\\\\)*)\\u00([01][0-9a-fA-F]|7[fF])/g;

/** `value` with every control character named (`<SUB>`, `<NUL>`), raw or as JSON.stringify escapes it. */
export function nameControls(value: string): string {
  return value
    .replace(RAW_CONTROL, (char) => controlName(char.charCodeAt(0)))
    .replace(ESCAPED_CONTROL, (_, slashes: string, hex: string) => slashes + controlName(parseInt(hex, 16)));
}

export function phraseFrom(table: Record<string, unknown>, key: string, params: Record<string, PhraseParam | PhraseParam[]> = {}): Phrase {
  const template = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], table);
  if (typeof template !== "string") throw new Error(`no EDI text ${key}`);
  // A file's values inside our sentences: control characters named (D218).
  const shown = (value: string | number) => (typeof value === "string" ? nameControls(value) : value);
  const english = (value: PhraseParam | PhraseParam[]): string =>
    Array.isArray(value) ? value.map(english).join("; ") : isPhrase(value) ? value.text : String(shown(value));
  const asParam = (value: PhraseParam | PhraseParam[]): unknown =>
    Array.isArray(value) ? value.map((item) => (isPhrase(item) ? item.coded : { text: String(shown(item)) })) : isPhrase(value) ? value.coded : shown(value);
  const text = template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => (name in params ? english(params[name]) : ""));
  const codedParams = Object.fromEntries(Object.entries(params).map(([name, value]) => [name, asParam(value)]));
  return { text, coded: coded(`edi.${key}`, Object.keys(codedParams).length ? codedParams : undefined) };
}
