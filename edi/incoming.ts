// Incoming vendor files before they are read: which to pick up (regex_format),
// what each one is (contents regexes, then ST01 or the CSV header), and in
// which order to process a run's files (sort_files_by_file_contents).
import { recogniseCsvFile } from "./csv/recognise";
import type { CodedMessage } from "./messages";
import { recognisePhrase } from "./texts";
import { DOCUMENT_TYPES, type DocumentType, type TradingProfile, type VendorEdiFields } from "./vendor-profile";

export const RECOGNISE_BYTES = 4096;
/** Contents regexes are tried in this order: the most specific documents first. */
const CONTENTS_ORDER: DocumentType[] = ["997", "856", "810", "846", "855", "850"];

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

/** What an incoming file is, from its name and its first bytes. */
export function recogniseIncomingFile(fileName: string, firstBytes: Buffer | string, vendor: VendorEdiFields, profile: TradingProfile): Recognition {
  if (profile.format === "csv") {
    const csv = recogniseCsvFile(fileName, firstBytes, vendor as Parameters<typeof recogniseCsvFile>[2]);
    return { accept: csv.accept, type: csv.type, reason: csv.reason, reasonCoded: csv.reasonCoded };
  }
  if (profile.fileNamePattern && !profile.fileNamePattern.test(fileName)) {
    return because(false, null, recognisePhrase("name_not_matching", { name: JSON.stringify(fileName) }));
  }
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
