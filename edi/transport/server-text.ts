// What a foreign server says, as the app shows it (D197), and secrets kept out of
// messages without telling which guess matched (D198).

/** The most of a server's own words a message shows. */
export const SERVER_EXCERPT_CHARS = 80;

const CONTROL_NAMES: Record<number, string> = { 0: "NUL", 9: "TAB", 10: "LF", 13: "CR", 27: "ESC", 127: "DEL" };

/**
 * A server's greeting or reply as a short, clean excerpt: printable ASCII only, each
 * control character named ("<CR>", "<ESC>", "<0x07>"), any other character "?", and
 * at most SERVER_EXCERPT_CHARS characters ("..." when cut). A server may say anything:
 * a terminal escape, a page of text, or the banner of a service that is not a vendor's.
 */
export function serverExcerpt(text: string, max = SERVER_EXCERPT_CHARS): string {
  // Each character shows as one or more: max + 1 of them tell whether the excerpt is cut.
  const cleaned = [...text.trim()]
    .slice(0, max + 1)
    .map(shownCharacter)
    .join("");
  // Cut with "..." inside the limit, so an excerpt of an excerpt is the same text.
  return cleaned.length <= max ? cleaned : `${cleaned.slice(0, max - 3)}...`;
}

function shownCharacter(character: string): string {
  const code = character.codePointAt(0)!;
  if (code >= 0x20 && code < 0x7f) return character;
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return `<${CONTROL_NAMES[code] ?? `0x${code.toString(16).padStart(2, "0").toUpperCase()}`}>`;
  return "?";
}

/**
 * Replaces every secret in `text` by "***", except where it lies wholly inside one of the
 * `known` values (the host, user and folders staff typed, shown as they are). So a folder
 * that holds the password reads the same whether or not it does: the redaction cannot be
 * used to try guesses (D198). A secret anywhere else (a library's message) is hidden.
 */
export function redactAround(text: string, secrets: readonly string[], known: readonly string[] = []): string {
  const forms = [...new Set(secrets.filter(Boolean).flatMap((secret) => [secret, encodeURIComponent(secret)]))];
  if (!forms.length) return text;
  const shown = occurrences(
    text,
    known.filter((value) => value.length > 0),
  );
  const hidden = occurrences(text, forms).filter(([start, end]) => !shown.some(([from, to]) => from <= start && end <= to));
  if (!hidden.length) return text;
  // Overlapping secrets are hidden as one stretch.
  hidden.sort((a, b) => a[0] - b[0]);
  let out = "";
  let at = 0;
  for (const [start, end] of hidden) {
    if (start >= at) out += `${text.slice(at, start)}***`;
    at = Math.max(at, end);
  }
  return out + text.slice(at);
}

/** Every [start, end) where one of `values` occurs in `text`. */
function occurrences(text: string, values: readonly string[]): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (const value of values) {
    for (let index = text.indexOf(value); index !== -1; index = text.indexOf(value, index + 1)) found.push([index, index + value.length]);
  }
  return found;
}
