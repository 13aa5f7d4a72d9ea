// What a vendor's EDI fields (spec 000 §3) mean, in one place. docs/edi.md
// describes each with an example. The vendor object uses the spec's field
// names ("850_segments", "997_enabled", ...).
import type { Delimiters } from "./x12/isa";
import { coded, type CodedMessage } from "./messages";
import { delimiterIssues } from "./x12/delimiters";
import { vendorDelimiters, type SegmentData } from "./x12/writer";
import type { EdiStrictness } from "./documents/strictness";

export const DOCUMENT_TYPES = ["850", "855", "856", "810", "846", "997", "865"] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export interface VendorEdiFields {
  id: number;
  name: string;
  test_mode?: number | null;
  edi_format?: number | null;
  edi_identifier?: string | null;
  edi_qualifier?: string | null;
  test_identifier?: string | null;
  test_qualifier?: string | null;
  input_segmenter?: string | null;
  input_delimiter?: string | null;
  output_segmenter?: string | null;
  output_delimiter?: string | null;
  regex_format?: string | null;
  sort_files_by_file_contents?: number | null;
  use_cost?: number | null;
  unwrap_846?: number | null;
  edi_strictness?: string | null;
  [field: string]: unknown;
}

/** Our own identity in the ISA and GS. */
export interface OurIdentity {
  qualifier: string;
  id: string;
  testQualifier?: string;
  testId?: string;
}

export interface TemplateSegment {
  line: number;
  /** Elements ([0] = ID); each element a list of components; placeholders kept as "{name}". */
  elements: string[][];
}

export interface DocumentSettings {
  /** GS08 version written (and expected) for this document: `<n>_format`, default 004010. */
  version: string;
  /** Extra segments from `<n>_segments`, placed after the document's beginning segment. */
  template: TemplateSegment[];
  /** `<n>_file_contents_regex`: recognises this document among incoming files. */
  contentsPattern: RegExp | null;
  /** `<n>_enabled` where the vendor has one (997, 846, 810); always true otherwise. */
  enabled: boolean;
}

export interface TradingProfile {
  vendorId: number;
  vendorName: string;
  format: "x12" | "csv";
  /** ISA15: T when the vendor is in test mode. */
  usage: "P" | "T";
  sender: { qualifier: string; id: string };
  receiver: { qualifier: string; id: string };
  output: Delimiters;
  /** input_segmenter / input_delimiter: only compared with each file's ISA, which wins. */
  inputHints: { segment: string | null; element: string | null };
  /** regex_format: incoming files whose names do not match are left on the server. */
  fileNamePattern: RegExp | null;
  /** sort_files_by_file_contents: process a run's files by the date inside them, not by name. */
  sortByContents: boolean;
  /** use_cost: the 850 carries our cost as unit price, not the selling price. */
  useCost: boolean;
  /** unwrap_846: the vendor's 846 is hard-wrapped; every line break in it is wrapping. */
  unwrap846: boolean;
  /** edi_strictness (D219): lenient applies a set whose only faults are in elements the app does not use; strict refuses it. */
  strictness: EdiStrictness;
  documents: Record<DocumentType, DocumentSettings>;
}

/** Placeholders a template may use, per document. */
export const TEMPLATE_PLACEHOLDERS: Record<DocumentType, string[]> = {
  "850": ["po_number", "order_number", "date", "vendor_name", "vendor_store_id", "ship_to_name"],
  "855": ["po_number", "date", "vendor_name"],
  "865": ["po_number", "date", "vendor_name"],
  "856": ["po_number", "shipment_id", "date", "vendor_name"],
  "810": ["invoice_number", "po_number", "date", "vendor_name"],
  "846": ["date", "vendor_name"],
  "997": ["date", "vendor_name"],
};

const flag = (value: unknown) => value === 1 || value === "1" || value === true;
const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value : null);

export function compileRegex(source: string | null | undefined): { pattern: RegExp | null; error?: string; coded?: CodedMessage } {
  if (!source || !source.trim()) return { pattern: null };
  try {
    return { pattern: new RegExp(source) };
  } catch (error) {
    const reason = (error as Error).message;
    return { pattern: null, error: `is not a valid regular expression: ${reason}`, coded: coded("edi_profile.regex_invalid", { reason }) };
  }
}

/**
 * Reads a segment template: one segment per line, written with "*" between
 * elements and ">" between components whatever the vendor's delimiters, and
 * {placeholders} filled when the document is built. Blank lines and lines
 * starting with "#" are ignored; a trailing "~" is allowed.
 */
export function parseSegmentTemplate(
  source: string | null | undefined,
  type: DocumentType,
): { segments: TemplateSegment[]; errors: string[]; problems: CodedMessage[] } {
  const segments: TemplateSegment[] = [];
  const errors: string[] = [];
  const problems: CodedMessage[] = [];
  const problem = (message: string, code: string, params: Record<string, unknown>) => {
    errors.push(message);
    problems.push(coded(`edi_profile.template.${code}`, params));
  };
  if (!source) return { segments, errors, problems };
  const allowed = TEMPLATE_PLACEHOLDERS[type];
  source.split(/\r?\n/).forEach((rawLine, i) => {
    const line = rawLine.trim().replace(/~$/, "");
    if (!line || line.startsWith("#")) return;
    const elements = line.split("*").map((element) => element.split(">"));
    const id = elements[0][0];
    if (!/^[A-Z][A-Z0-9]{1,2}$/.test(id)) {
      problem(`line ${i + 1}: "${id}" is not a segment ID (two or three capitals and digits)`, "not_segment_id", { line: i + 1, id: `"${id}"` });
      return;
    }
    if (["ISA", "IEA", "GS", "GE", "ST", "SE"].includes(id)) {
      problem(`line ${i + 1}: ${id} is written by the envelope, not by a template`, "envelope", { line: i + 1, id });
      return;
    }
    for (const [name] of line.matchAll(/\{([^}]*)\}/g)) {
      const key = name.slice(1, -1);
      const list = allowed.map((p) => `{${p}}`).join(", ");
      if (!allowed.includes(key))
        problem(`line ${i + 1}: unknown placeholder ${name} (allowed: ${list})`, "unknown_placeholder", { line: i + 1, name, allowed: list });
    }
    if (/[{}]/.test(line.replace(/\{[^{}]*\}/g, ""))) problem(`line ${i + 1}: unbalanced braces`, "unbalanced", { line: i + 1 });
    segments.push({ line: i + 1, elements });
  });
  return { segments, errors, problems };
}

/** The template's segments with placeholders filled in. */
export function fillTemplate(segments: TemplateSegment[], values: Record<string, string | number | null | undefined>): SegmentData[] {
  const fill = (value: string) => value.replace(/\{([^}]+)\}/g, (_, key: string) => String(values[key] ?? ""));
  return segments.map((segment) => segment.elements.map((components) => (components.length === 1 ? fill(components[0]) : components.map(fill))));
}

/**
 * The vendor's trading profile, and the problems of its fields (per field, as
 * the vendor form shows them): `errors` in English (logs), `problems` the same
 * as codes for the reader's language (D117), each to follow the field's name.
 * A profile with errors must not be used to send.
 */
export function tradingProfile(
  vendor: VendorEdiFields,
  ours: OurIdentity,
): { profile: TradingProfile; errors: Record<string, string[]>; problems: Record<string, CodedMessage[]> } {
  const errors: Record<string, string[]> = {};
  const problems: Record<string, CodedMessage[]> = {};
  const problem = (field: string, message: string, code: CodedMessage) => {
    (errors[field] ??= []).push(message);
    (problems[field] ??= []).push(code);
  };
  const testMode = flag(vendor.test_mode);

  const themId = text(testMode ? (vendor.test_identifier ?? vendor.edi_identifier) : vendor.edi_identifier);
  const themQualifier = text(testMode ? (vendor.test_qualifier ?? vendor.edi_qualifier) : vendor.edi_qualifier);
  const isX12 = vendor.edi_format === undefined || vendor.edi_format === null || flag(vendor.edi_format);
  if (isX12) {
    const idField = testMode ? "test_identifier" : "edi_identifier";
    const qualifierField = testMode ? "test_qualifier" : "edi_qualifier";
    if (!themId) problem(idField, "is required to exchange X12 with this vendor", coded("edi_profile.required_x12"));
    else if (themId.length > 15) problem(idField, "is longer than the 15 characters of ISA08", coded("edi_profile.isa08_too_long"));
    if (!themQualifier) problem(qualifierField, "is required to exchange X12 with this vendor", coded("edi_profile.required_x12"));
    else if (themQualifier.length > 2) problem(qualifierField, "is longer than the 2 characters of ISA07", coded("edi_profile.isa07_too_long"));
  }

  const output = vendorDelimiters(vendor);
  // The writer's rule (D72): what the reader would refuse is refused here, per field.
  for (const { message, coded: issue } of delimiterIssues(output)) {
    const field = /element separator/.test(message) && !/segment terminator/.test(message) ? "output_delimiter" : "output_segmenter";
    problem(field, `cannot be used: ${message}`, coded("edi_profile.delimiters_unusable", { problem: issue }));
  }

  const fileName = compileRegex(vendor.regex_format);
  if (fileName.error) problem("regex_format", fileName.error, fileName.coded!);

  const documents = {} as Record<DocumentType, DocumentSettings>;
  for (const type of DOCUMENT_TYPES) {
    const template = parseSegmentTemplate(text(vendor[`${type}_segments`]), type);
    template.errors.forEach((message, i) => problem(`${type}_segments`, message, template.problems[i]));
    const contents = compileRegex(text(vendor[`${type}_file_contents_regex`]));
    if (contents.error) problem(`${type}_file_contents_regex`, contents.error, contents.coded!);
    const version = text(vendor[`${type}_format`]) ?? "004010";
    if (!/^\d{6}[A-Z0-9]{0,6}$/.test(version))
      problem(`${type}_format`, "must be an X12 version such as 004010 or 004010VICS", coded("edi_profile.x12_version"));
    const enabledField = `${type}_enabled`;
    documents[type] = {
      version,
      template: template.segments,
      contentsPattern: contents.pattern,
      enabled: enabledField in vendor ? flag(vendor[enabledField]) : true,
    };
  }

  const profile: TradingProfile = {
    vendorId: vendor.id,
    vendorName: vendor.name,
    format: isX12 ? "x12" : "csv",
    usage: testMode ? "T" : "P",
    sender: testMode && ours.testId ? { qualifier: ours.testQualifier ?? ours.qualifier, id: ours.testId } : { qualifier: ours.qualifier, id: ours.id },
    receiver: { qualifier: themQualifier ?? "ZZ", id: themId ?? "" },
    output,
    inputHints: { segment: text(vendor.input_segmenter), element: text(vendor.input_delimiter) },
    fileNamePattern: fileName.pattern,
    sortByContents: flag(vendor.sort_files_by_file_contents),
    useCost: flag(vendor.use_cost),
    unwrap846: flag(vendor.unwrap_846),
    // Lenient unless the vendor says strict: the column's default (D219).
    strictness: vendor.edi_strictness === "strict" ? "strict" : "lenient",
    documents,
  };
  return { profile, errors, problems };
}
