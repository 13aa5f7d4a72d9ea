// Incoming vendor files before they are read: which to pick up (regex_format),
// what each one is (contents regexes, then ST01 or the CSV header), and in
// which order to process a run's files (sort_files_by_file_contents).
import { recogniseCsvFile } from "./csv/recognise";
import type { CodedMessage, Phrase } from "./messages";
import { recognisePhrase } from "./texts";
import { DOCUMENT_TYPES, type DocumentType, type TradingProfile, type VendorEdiFields } from "./vendor-profile";

export const RECOGNISE_BYTES = 4096;
/** Contents regexes are tried in this order: the most specific documents first. */
const CONTENTS_ORDER: DocumentType[] = ["997", "856", "810", "846", "865", "855", "850"];

export interface Recognition {
  accept: boolean;
  type: DocumentType | null;
  /** Why, in English (the stored text), and as a code for the reader's language (D124). */
  reason: string;
  reasonCoded: CodedMessage;
}

const because = (accept: boolean, type: DocumentType | null, phrase: ReturnType<typeof recognisePhrase>): Recognition => ({
  accept,
  type,
  reason: phrase.text,
  reasonCoded: phrase.coded,
});

const startsWith = (bytes: Uint8Array, at: number, prefix: number[]) => prefix.every((byte, i) => bytes[at + i] === byte);
/** EBCDIC's space, letters and digits: most of an EBCDIC text's bytes. */
const isEbcdicText = (byte: number) =>
  byte === 0x40 || (byte >= 0x81 && byte <= 0xa9) || (byte >= 0xc1 && byte <= 0xe9) || (byte >= 0xf0 && byte <= 0xf9) || byte === 0x4b || byte === 0x6b;

/**
 * A file that is neither X12 nor CSV, said as such (D218): EBCDIC text (an
 * AS400 file not converted), a PDF, a ZIP archive, or other binary data,
 * from its first bytes. Null when it is text. A file beginning with ISA is
 * X12 whatever bytes follow (X12 may use control characters as delimiters).
 */
export function notX12OrCsv(firstBytes: Buffer | string): Phrase | null {
  const bytes = typeof firstBytes === "string" ? Buffer.from(firstBytes.slice(0, RECOGNISE_BYTES), "utf8") : firstBytes.subarray(0, RECOGNISE_BYTES);
  let at = startsWith(bytes, 0, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  while (at < bytes.length && (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0a || bytes[at] === 0x0d)) at++;
  if (at >= bytes.length || startsWith(bytes, at, [0x49, 0x53, 0x41])) return null;
  const kind = (key: "kind_ebcdic" | "kind_pdf" | "kind_zip" | "kind_binary") => recognisePhrase("not_x12_or_csv", { kind: recognisePhrase(key) });
  if (startsWith(bytes, at, [0x25, 0x50, 0x44, 0x46, 0x2d])) return kind("kind_pdf");
  if (startsWith(bytes, at, [0x50, 0x4b, 0x03, 0x04])) return kind("kind_zip");
  const text = new TextDecoder("utf-8").decode(bytes.subarray(at));
  let odd = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A control character other than tab, line breaks, form feed and Ctrl-Z (an end-of-file mark), or a byte that was not UTF-8.
    if (code === 0 || code === 0xfffd || (code < 0x20 && code !== 9 && code !== 10 && code !== 12 && code !== 13 && code !== 0x1a) || code === 0x7f) odd++;
  }
  if (odd === 0 || odd < Math.max(8, text.length / 10)) return null;
  let ebcdic = 0;
  for (const byte of bytes.subarray(at)) if (isEbcdicText(byte)) ebcdic++;
  return kind(ebcdic > (bytes.length - at) * 0.6 ? "kind_ebcdic" : "kind_binary");
}

/** What an incoming file is, from its name and its first bytes. */
export function recogniseIncomingFile(fileName: string, firstBytes: Buffer | string, vendor: VendorEdiFields, profile: TradingProfile): Recognition {
  if (profile.format === "csv") {
    const csv = recogniseCsvFile(fileName, firstBytes, vendor as Parameters<typeof recogniseCsvFile>[2]);
    // Not "closest to an 846": a file that is not text says so.
    const notText = csv.accept && !csv.type ? notX12OrCsv(firstBytes) : null;
    if (notText) return because(true, null, notText);
    // A cancellation answer is the 865's place, as the other CSV documents are their X12 sets'.
    const type = csv.type === "cancel_answer" ? "865" : csv.type;
    return { accept: csv.accept, type, reason: csv.reason, reasonCoded: csv.reasonCoded };
  }
  if (profile.fileNamePattern && !profile.fileNamePattern.test(fileName)) {
    return because(false, null, recognisePhrase("name_not_matching", { name: JSON.stringify(fileName) }));
  }
  const notText = notX12OrCsv(firstBytes);
  if (notText) return because(true, null, notText);
  const raw = (typeof firstBytes === "string" ? firstBytes : firstBytes.subarray(0, RECOGNISE_BYTES).toString("utf8")).slice(0, RECOGNISE_BYTES);
  // A hard-wrapped file (unwrap_846) may have a line break inside "ST*846".
  const text = profile.unwrap846 ? raw.replace(/[\r\n]+/g, "") : raw;
  for (const type of CONTENTS_ORDER) {
    const pattern = profile.documents[type].contentsPattern;
    if (pattern?.test(text)) return because(true, type, recognisePhrase("contents_regex_matches", { type }));
  }
  const start = text.indexOf("ISA");
  if (start === -1) return because(true, null, recognisePhrase("no_isa"));
  const separator = text[start + 3];
  const escaped = separator.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const st = new RegExp(`(?:^|[^A-Z0-9])ST${escaped}\\s*(\\d{3})`).exec(text.slice(start + 106));
  const setId = st?.[1];
  if (setId && (DOCUMENT_TYPES as readonly string[]).includes(setId)) return because(true, setId as DocumentType, recognisePhrase("st01_is", { type: setId }));
  return because(true, null, setId ? recognisePhrase("st01_not_exchanged", { type: setId }) : recognisePhrase("no_st"));
}

export interface IncomingFile {
  name: string;
  firstBytes: Buffer | string;
}

/**
 * The order in which to process a run's files. By name, unless the vendor asks
 * for the order of the contents: then by the date and time inside each file
 * (ISA09/ISA10 and ISA13 for X12; the first date of a CSV), files without one
 * last, by name.
 */
export function sortIncomingFiles<T extends IncomingFile>(files: readonly T[], profile: Pick<TradingProfile, "sortByContents">): T[] {
  const byName = (a: T, b: T) => a.name.localeCompare(b.name, "en", { numeric: true });
  if (!profile.sortByContents) return [...files].sort(byName);
  const keyed = files.map((file) => ({ file, key: contentsSortKey(file.firstBytes) }));
  return keyed
    .sort((a, b) => {
      if (a.key && b.key) return a.key < b.key ? -1 : a.key > b.key ? 1 : byName(a.file, b.file);
      if (a.key) return -1;
      if (b.key) return 1;
      return byName(a.file, b.file);
    })
    .map(({ file }) => file);
}

/** "yyyymmddhhmm|control" of the first interchange, or of the first date in a CSV; null when none. */
export function contentsSortKey(firstBytes: Buffer | string): string | null {
  const text = typeof firstBytes === "string" ? firstBytes.slice(0, RECOGNISE_BYTES) : firstBytes.subarray(0, RECOGNISE_BYTES).toString("utf8");
  const start = text.indexOf("ISA");
  if (start !== -1) {
    const separator = text[start + 3];
    const elements = text
      .slice(start, start + 200)
      .replace(/[\r\n]/g, "")
      .split(separator);
    const [date, time, control] = [elements[9], elements[10], elements[13]];
    if (/^\d{6}$/.test(date ?? "") && /^\d{4}$/.test(time ?? "")) {
      const century = Number(date.slice(0, 2)) > 70 ? "19" : "20";
      return `${century}${date}${time}|${(control ?? "").padStart(9, "0")}`;
    }
    return null;
  }
  const csvDate = /(\d{4})-(\d{2})-(\d{2})|(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(text.split(/\r?\n/).slice(1).join("\n"));
  if (!csvDate) return null;
  return csvDate[1] ? `${csvDate[1]}${csvDate[2]}${csvDate[3]}0000|` : `${csvDate[6]}${csvDate[4].padStart(2, "0")}${csvDate[5].padStart(2, "0")}0000|`;
}
