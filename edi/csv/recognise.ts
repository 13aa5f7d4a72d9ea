// Decides whether an incoming file of a CSV vendor is picked up (regex_format
// on its name) and which document it is: the vendor's contents regexes first,
// then the header row. Vendor regexes are typed by staff and may be broken;
// a broken one never throws, it is skipped and named in the reason.
import { parse as parseCsvSync } from "csv-parse/sync";
import { columnNames, normaliseHeaderName, requiredColumnNames, type CsvDocumentType } from "./headers";
import type { CodedMessage, Phrase } from "../messages";
import { csvPhrase, recognisePhrase } from "../texts";

export type CsvRecognisedType = "997" | "855" | "856" | "846" | "810" | "cancel_answer";

/** The vendor fields used, under their database names or the Prisma model's. */
export interface CsvRecognitionVendor {
  regex_format?: string | null;
  "997_file_contents_regex"?: string | null;
  "856_file_contents_regex"?: string | null;
  "846_file_contents_regex"?: string | null;
  "810_file_contents_regex"?: string | null;
  edi997_file_contents_regex?: string | null;
  edi856_file_contents_regex?: string | null;
  edi846_file_contents_regex?: string | null;
  edi810_file_contents_regex?: string | null;
}

export interface CsvRecognition {
  /** The name matches regex_format (or there is none). */
  accept: boolean;
  /** null when not accepted, or when nothing identifies the document. */
  type: CsvRecognisedType | null;
  /** Why, in English (the stored text), and as a code for the reader's language (D124). */
  reason: string;
  reasonCoded: CodedMessage;
}

/** How much of the file recognition looks at; read at least this many bytes. */
export const RECOGNISE_BYTES = 4096;

/**
 * Contents regexes are tried in this order, the first match wins. 997s first:
 * short, with distinctive wording. Inventory last: its regex is the likeliest
 * to be loose (say "sku,quantity") and would also match the other documents.
 */
export const CONTENTS_REGEX_ORDER = ["997", "856", "810", "846"] as const;

/** Documents a header row can identify (850 is our own purchase order, never an incoming document). */
const HEADER_TYPES: CsvDocumentType[] = ["855", "856", "846", "810", "cancel_answer", "850"];

/**
 * A vendor's regular expression as a RegExp. Accepts a plain pattern
 * (^ACK_.*\.csv$) or one in delimiters with flags as the legacy system wrote
 * them (/^ack_.*\.csv$/i, #...#, ~...~); flags i, m, s and u are supported.
 * Empty means no regex (null).
 */
export function compileVendorRegex(pattern: string | null | undefined): RegExp | null | { error: string } {
  const source = pattern?.trim();
  if (!source) return null;
  const delimited = /^([/#~!%@|])(.*)\1([a-zA-Z]*)$/s.exec(source);
  let body = source;
  let flags = "";
  if (delimited) {
    body = delimited[2];
    // D (dollar at the very end only) is what JavaScript's $ already does.
    const unsupported = [...delimited[3]].filter((flag) => !"imsuD".includes(flag));
    if (unsupported.length) return { error: `flag ${unsupported.join("")} is not supported (use i, m, s or u)` };
    flags = [...new Set(delimited[3].replace(/D/g, ""))].join("");
  }
  try {
    return new RegExp(body, flags);
  } catch (error) {
    const hint = /^\*/.test(body) ? ` (a wildcard like *.csv is written .*\\.csv$ as a regular expression)` : "";
    return { error: `${(error as Error).message}${hint}` };
  }
}

const describeRegex = (field: string, pattern: string) => `${field} ${JSON.stringify(pattern)}`;

function decodeStart(firstBytes: string | Uint8Array): string {
  const text = typeof firstBytes === "string" ? firstBytes.slice(0, RECOGNISE_BYTES) : new TextDecoder("utf-8").decode(firstBytes.subarray(0, RECOGNISE_BYTES));
  return text.replace(/^\uFEFF/, "");
}

/** The header cells of the first line that has any (header names never span lines). */
function firstHeaderRow(text: string): string[] | null {
  for (const line of text.split(/\r\n|\n|\r/)) {
    if (line.replace(/[\s,]/g, "") === "") continue;
    try {
      const [cells] = parseCsvSync(line, { relax_quotes: true, trim: true, relax_column_count: true });
      return cells ?? null;
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * The document a header row belongs to: it has all of the document's
 * required columns and no column that only other documents have (so an
 * acknowledgement with a misspelt "status" is not taken for inventory).
 */
export function documentTypeOfHeader(headerCells: readonly string[]): { type: CsvDocumentType | null; reason: Phrase } {
  const names = new Set(headerCells.map(normaliseHeaderName));
  // cancel_status is the answer's own column: a vendor may answer on a copy of our cancellation file, its other columns kept.
  if (requiredColumnNames("cancel_answer").every((name) => names.has(name)))
    return { type: "cancel_answer", reason: recognisePhrase("header_is", { document: describeType("cancel_answer") }) };
  const checks = HEADER_TYPES.map((type) => {
    const own = new Set(columnNames(type));
    const othersRequired = new Set(HEADER_TYPES.filter((other) => other !== type).flatMap(requiredColumnNames));
    return {
      type,
      required: requiredColumnNames(type).length,
      missing: requiredColumnNames(type).filter((name) => !names.has(name)),
      foreign: [...names].filter((name) => othersRequired.has(name) && !own.has(name)),
    };
  });
  const fits = checks.filter((check) => !check.missing.length && !check.foreign.length).map((check) => check.type);
  if (fits.length === 1) return { type: fits[0], reason: recognisePhrase("header_is", { document: describeType(fits[0]) }) };
  if (fits.length > 1) return { type: null, reason: recognisePhrase("header_fits_several", { types: fits.join(", ") }) };
  // None fits: name the closest (fewest differences, then the most specific) to show what is wrong.
  const [closest] = checks.sort((a, b) => a.missing.length + a.foreign.length - (b.missing.length + b.foreign.length) || b.required - a.required);
  const differences = [
    ...(closest.missing.length ? [recognisePhrase("header_missing", { columns: closest.missing.join(", ") })] : []),
    ...(closest.foreign.length ? [recognisePhrase("header_foreign", { columns: closest.foreign.join(", ") })] : []),
  ];
  const shown = headerCells
    .map((cell) => cell.trim())
    .filter(Boolean)
    .join(", ");
  const [difference, other] = differences;
  const fitsNone = other
    ? recognisePhrase("header_fits_none_both", { shown, document: describeType(closest.type), difference, other })
    : recognisePhrase("header_fits_none", { shown, document: describeType(closest.type), difference });
  return { type: null, reason: fitsNone };
}

const describeType = (type: CsvDocumentType) => recognisePhrase("document_typed", { document: csvPhrase(`document.${type}`), type });

/** The reason: notes on what was skipped, then what decided. */
const recognition = (accept: boolean, type: CsvRecognisedType | null, parts: Phrase[]): CsvRecognition => {
  const reason = parts.length === 1 ? parts[0] : recognisePhrase("parts", { parts });
  return { accept, type, reason: reason.text, reasonCoded: reason.coded };
};

/**
 * Is the file picked up, and which document is it? regex_format is matched
 * against fileName; the contents regexes (CONTENTS_REGEX_ORDER) against the
 * first RECOGNISE_BYTES of the file; then the header row decides.
 */
export function recogniseCsvFile(fileName: string, firstBytes: string | Uint8Array, vendor: CsvRecognitionVendor): CsvRecognition {
  const nameRegex = compileVendorRegex(vendor.regex_format);
  if (nameRegex && "error" in nameRegex) {
    return recognition(false, null, [
      recognisePhrase("name_regex_invalid", { regex: describeRegex("regex_format", vendor.regex_format!.trim()), error: nameRegex.error }),
    ]);
  }
  if (nameRegex && !nameRegex.test(fileName)) {
    return recognition(false, null, [
      recognisePhrase("name_not_matching_regex", { name: JSON.stringify(fileName), regex: describeRegex("regex_format", vendor.regex_format!.trim()) }),
    ]);
  }

  const notes: Phrase[] = [];
  let tried = 0;
  const text = decodeStart(firstBytes);
  for (const type of CONTENTS_REGEX_ORDER) {
    const field = `${type}_file_contents_regex` as const;
    const pattern = vendor[field] ?? vendor[`edi${field}`];
    const regex = compileVendorRegex(pattern);
    if (regex === null) continue;
    if ("error" in regex) {
      notes.push(recognisePhrase("contents_regex_invalid", { regex: describeRegex(field, pattern!.trim()), error: regex.error }));
      continue;
    }
    tried++;
    if (regex.test(text)) return recognition(true, type, [...notes, recognisePhrase("contents_match", { regex: describeRegex(field, pattern!.trim()) })]);
  }

  if (tried) notes.push(recognisePhrase("no_contents_regex_matched"));
  const cells = firstHeaderRow(text);
  if (!cells) return recognition(true, null, [...notes, recognisePhrase("no_header_row")]);
  const byHeader = documentTypeOfHeader(cells);
  if (byHeader.type === "850" || byHeader.type === "cancel") {
    return recognition(true, null, [...notes, recognisePhrase("own_purchase_order")]);
  }
  return recognition(true, byHeader.type, [...notes, byHeader.reason]);
}
