// Every vendor field of spec 000 §3, grouped as the form shows them, with the
// required markers of §5. Shared by the form, the validation and the API.

import type { EdiStrictness } from "@edi/documents";

export type VendorFieldKind = "text" | "password" | "port" | "yesno" | "mechanism" | "format" | "segments" | "regex" | "whole" | "choice";

export interface VendorFieldSpec {
  name: string;
  kind: VendorFieldKind;
  /** Marked required (spec 000 §5). */
  required?: boolean;
  /** What a blank value saves (columns that cannot be empty). */
  defaultValue?: number | string;
  /** The values a "choice" takes, each shown as vendor.choices.<name>.<value>. */
  choices?: readonly string[];
  /** Bounds of a whole number ("whole"). */
  min?: number;
  max?: number;
  /** Shows vendor.help.<name> under the field. */
  help?: boolean;
  /** A "choice" that may be left blank: offered first as vendor.choices.<name>.blank, saved as null. */
  blankChoice?: boolean;
}

/** Vendor.cancellation_format: the X12 860, the X12 850 with BEG01 01, or the cancellation CSV. */
export const CANCELLATION_FORMATS = ["860", "850", "csv"] as const;
/** The formats each edi_format (1 X12, 0 CSV) can take. */
export const CANCELLATION_FORMATS_FOR: Record<0 | 1, readonly string[]> = { 1: ["860", "850"], 0: ["csv"] };

const text = (name: string, required = false): VendorFieldSpec => ({ name, kind: "text", required });
const yesno = (name: string): VendorFieldSpec => ({ name, kind: "yesno", required: true });
const regex = (name: string): VendorFieldSpec => ({ name, kind: "regex" });
const segments = (name: string): VendorFieldSpec => ({ name, kind: "segments" });
/** A vendor's folder for its AS400 copies, relative to the set's root (D196): the form says so. */
const as400Folder = (name: string): VendorFieldSpec => ({ name, kind: "text", help: true });

export const VENDOR_FIELD_GROUPS: Array<{ key: string; fields: VendorFieldSpec[] }> = [
  { key: "general", fields: [text("name", true), text("store_id", true), yesno("enabled"), yesno("test_mode"), yesno("is_legacy")] },
  {
    key: "connection",
    fields: [
      { name: "transfer_mechanism_id", kind: "mechanism", required: true },
      text("sftp_host"),
      { name: "sftp_port", kind: "port" },
      text("sftp_user"),
      { name: "sftp_pass", kind: "password" },
      { name: "ftp_tls", kind: "yesno", defaultValue: 0, help: true },
    ],
  },
  {
    key: "folders",
    fields: [
      text("sftp_incoming_folder"),
      text("sftp_outcoming_folder"),
      text("sftp_cancellation_put_folder"),
      text("sftp_cancellation_pull_folder"),
      yesno("is_archiving_files"),
      // Used by the incoming-file handling: a younger file is taken only when two listings agree.
      { name: "incoming_min_age_seconds", kind: "whole", defaultValue: 60, min: 0, max: 86_400, help: true },
      // A file not whole yet (no IEA, still growing) waits this long at most, then is taken and refused (D181).
      { name: "incoming_max_wait_minutes", kind: "whole", defaultValue: 60, min: 1, max: 10_080, help: true },
    ],
  },
  {
    key: "identity",
    fields: [
      { name: "edi_format", kind: "format", required: true },
      text("edi_identifier"),
      text("edi_qualifier"),
      text("test_identifier"),
      text("test_qualifier"),
    ],
  },
  { key: "delimiters", fields: [text("input_delimiter"), text("input_segmenter"), text("output_delimiter"), text("output_segmenter")] },
  {
    key: "files",
    fields: [
      regex("regex_format"),
      yesno("sort_files_by_file_contents"),
      yesno("use_cost"),
      // D219: lenient applies a set whose only faults are in elements the app does not use.
      { name: "edi_strictness", kind: "choice", choices: ["lenient", "strict"] satisfies EdiStrictness[], defaultValue: "lenient", help: true },
    ],
  },
  { key: "doc850", fields: [text("850_format"), segments("850_segments")] },
  { key: "doc855", fields: [text("855_format"), segments("855_segments")] },
  { key: "doc856", fields: [text("856_format"), segments("856_segments"), regex("856_file_contents_regex")] },
  {
    key: "doc810",
    fields: [yesno("810_enabled"), text("810_format"), segments("810_segments"), as400Folder("810_as400_filepath"), regex("810_file_contents_regex")],
  },
  {
    key: "doc846",
    fields: [yesno("846_enabled"), yesno("unwrap_846"), text("846_format"), as400Folder("846_as400_filepath"), regex("846_file_contents_regex")],
  },
  { key: "doc997", fields: [yesno("997_enabled"), text("997_format"), segments("997_segments"), regex("997_file_contents_regex")] },
  {
    // How a cancellation reaches the vendor, and whether it answers (D225, D230); blank: 860 for X12, csv for CSV.
    key: "cancellations",
    fields: [
      { name: "cancellation_format", kind: "choice", choices: CANCELLATION_FORMATS, blankChoice: true, help: true },
      { name: "answers_cancellations", kind: "yesno", defaultValue: 1, help: true },
    ],
  },
  {
    // Service levels (D238): blank takes the default of Settings; the invoice check's tolerance (D242); the customer's e-mail (D243).
    key: "service",
    fields: [
      { name: "sla_997_hours", kind: "whole", min: 1, max: 8760, help: true },
      { name: "sla_855_hours", kind: "whole", min: 1, max: 8760, help: true },
      { name: "sla_856_hours", kind: "whole", min: 1, max: 8760, help: true },
      { name: "invoice_tolerance_percent", kind: "whole", defaultValue: 0, min: 0, max: 100, help: true },
      { name: "notify_customer", kind: "yesno", defaultValue: 1, help: true },
    ],
  },
];

export const VENDOR_FIELDS: VendorFieldSpec[] = VENDOR_FIELD_GROUPS.flatMap((group) => group.fields);

/** Prisma's name of a spec field: fields starting with a digit are stored as `edi<field>`. */
export const prismaField = (name: string) => (/^\d/.test(name) ? `edi${name}` : name);

/** Transfer mechanisms (spec 000 §3). */
export const TRANSFER_MECHANISMS = { 1: "SFTP", 2: "FTP", 3: "Passive FTP" } as const;

/** Connection fields whose change needs the password typed again (D64): the password must not follow the vendor to another server. */
export const PASSWORD_BOUND_FIELDS = ["sftp_host", "sftp_port", "sftp_user", "transfer_mechanism_id", "ftp_tls"] as const;

/** The vendor's folders on its server. */
export const VENDOR_FOLDER_FIELDS = ["sftp_incoming_folder", "sftp_outcoming_folder", "sftp_cancellation_put_folder", "sftp_cancellation_pull_folder"] as const;

/** The fields Test Connection on the vendor form sends and reads: the connection and the folders it lists. */
export const CONNECTION_TEST_FIELDS = [...PASSWORD_BOUND_FIELDS, "sftp_pass", ...VENDOR_FOLDER_FIELDS] as const;

/** A vendor as the API answers it: spec field names, never the password; the pinned SFTP host key (not a secret). */
export interface VendorApi {
  id: number;
  sftp_pass_set: boolean;
  sftp_host_key: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
  [field: string]: string | number | boolean | null;
}
