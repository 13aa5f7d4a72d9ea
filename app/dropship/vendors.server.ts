// Drop-ship vendors: the grid, the form's load and save, delete (or archive,
// when the vendor has history), and the Tools page's vendor list. The API
// speaks the spec's field names ("997_enabled"); the password is stored
// encrypted and never leaves the server.
import { z } from "zod";
import prisma from "~/db.server";
import type { Prisma, Vendor } from "~/db/generated/client";
import { defineGrid, gridSourceFrom, runGrid, type GridSource } from "~/grid/grid.server";
import { encryptSecret, vendorPasswordBinding } from "~/lib/secrets.server";
import { fieldProblem } from "~/runs/error-messages.server";
import { joined, message, ReaderText, type CodedMessage } from "~/i18n/messages";
import { NotFoundError, ValidationError, type FieldProblems, type Problem } from "~/lib/validation.server";
import { storeWithCode, syncVendorSources } from "~/sales/vendor-sources.server";
import { checkStaffRegex } from "@edi/staff-regex";
import { tradingProfile } from "@edi/vendor-profile";
import { delimiterProblems } from "@edi/x12";
import { vendorDelimiters } from "@edi/x12";
import { defaultPort, literalRefusal, normaliseFingerprint, PathError } from "@edi/transport";
import { appOutboundPolicy } from "~/transfers/outbound-policy.server";
import { AS400_COPY_FIELDS, AS400_COPY_ROOTS, as400CopyFolder } from "~/as400/copy-folders";
import { vendorLog, writeLogs, type LogEntry } from "./flow/context.server";
import { scorecardOf } from "./scorecards.server";
import {
  CANCELLATION_FORMATS_FOR,
  CONNECTION_TEST_FIELDS,
  PASSWORD_BOUND_FIELDS,
  prismaField,
  VENDOR_FIELDS,
  VENDOR_FOLDER_FIELDS,
  type VendorApi,
  type VendorFieldSpec,
} from "./vendor-fields";

const YES_NO = { "1": "grid.yes", "0": "grid.no" };

/** Dropship Vendors (spec 000 §2): id ascending; archived vendors are not listed. */
export const vendorGrid = defineGrid({
  id: "dropship_vendor",
  rowLink: { path: "/dropship/vendor/edit?id={id}" },
  rowKey: "id",
  defaultSort: { key: "id", dir: "asc" },
  source: () => withScorecards(gridSourceFrom(prisma.vendor)),
  baseWhere: { archived_at: null },
  columns: [
    { key: "id", label: "vendor.columns.id", dataType: "text", valueType: "int", filter: "none" },
    { key: "name", label: "vendor.columns.name", dataType: "text" },
    { key: "enabled", label: "vendor.columns.enabled", dataType: "select", valueType: "int", options: YES_NO, tones: { "1": "success", "0": null } },
    { key: "test_mode", label: "vendor.columns.test_mode", dataType: "select", valueType: "int", options: YES_NO },
    { key: "created_at", label: "vendor.columns.created_at", dataType: "datetime" },
    { key: "updated_at", label: "vendor.columns.updated_at", dataType: "datetime" },
    // The 30-day scorecard (D244), read beside the page's vendors.
    { key: "on_time_30", label: "vendor.columns.on_time_30", dataType: "textOnly", field: null },
    { key: "acknowledged_30", label: "vendor.columns.acknowledged_30", dataType: "textOnly", field: null },
    { key: "median_hours_30", label: "vendor.columns.median_hours_30", dataType: "textOnly", field: null },
    {
      key: "actions",
      label: "vendor.columns.actions",
      dataType: "links",
      field: null,
      links: [{ path: "/dropship/vendor/edit", field: "id", field_request_name: "id", label: "vendor.edit", target: "_self" }],
    },
  ],
});

/** The page's vendors with their 30-day scorecards, in one more statement (the keys-only read of a filter needs none). */
function withScorecards(source: GridSource): GridSource {
  return {
    count: (args) => source.count(args),
    async findMany(args) {
      const rows = await source.findMany(args);
      if (Object.keys(args.select).length <= 1 || rows.length === 0) return rows;
      const cards = await prisma.vendorScorecard.findMany({ where: { window_days: 30, vendor_id: { in: rows.map((row) => Number(row.id)) } } });
      const byVendor = new Map(cards.map((card) => [card.vendor_id, scorecardOf(card)]));
      const percent = (value: number | null | undefined) =>
        value === null || value === undefined ? "" : new ReaderText(message("vendor.scorecard.percent", { value: Math.round(value) }));
      return rows.map((row) => {
        const card = byVendor.get(Number(row.id));
        return {
          ...row,
          on_time_30: percent(card?.on_time_pct),
          acknowledged_30: percent(card?.acknowledged_pct),
          median_hours_30:
            card?.median_hours_to_ship === null || card?.median_hours_to_ship === undefined
              ? ""
              : new ReaderText(message("vendor.scorecard.hours", { value: Math.round(card.median_hours_to_ship) })),
        };
      });
    },
  };
}

/** The vendor grid for the page loader. */
export function vendorGridAnswer(params: URLSearchParams) {
  return runGrid(vendorGrid, params);
}

/** GET /api/dropship_vendor: data, last_page, total at the top level (spec 000 §7). */
export async function listVendors(params: URLSearchParams) {
  const answer = await vendorGridAnswer(params);
  return { ...answer.data, columns: answer.columns };
}

export function vendorToApi(vendor: Vendor): VendorApi {
  const out: VendorApi = {
    id: vendor.id,
    sftp_pass_set: Boolean(vendor.sftp_pass),
    sftp_host_key: vendor.sftp_host_key,
    archived_at: vendor.archived_at?.toISOString() ?? null,
    created_at: vendor.created_at.toISOString(),
    updated_at: vendor.updated_at.toISOString(),
  };
  const row = vendor as unknown as Record<string, unknown>;
  for (const field of VENDOR_FIELDS) {
    if (field.kind === "password") continue; // never sent back
    out[field.name] = (row[prismaField(field.name)] as string | number | null) ?? null;
  }
  return out;
}

async function findVendor(id: number): Promise<Vendor> {
  const vendor = Number.isSafeInteger(id) && id > 0 ? await prisma.vendor.findUnique({ where: { id } }) : null;
  if (!vendor) throw new NotFoundError(`Vendor ${id} does not exist`);
  return vendor;
}

/** The vendor as stored, for the server's own use (transport, jobs): includes the encrypted password. */
export const loadVendorRecord = findVendor;

export async function getVendor(id: number): Promise<VendorApi> {
  return vendorToApi(await findVendor(id));
}

// --- validation -----------------------------------------------------------------

const HOST = /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IPV6 = /^[0-9A-Fa-f:]+$/;
// eslint-disable-next-line no-control-regex -- control characters are what a folder may not hold
const FOLDER = (value: string) => !/\.\.|\\|[\u0000-\u001f]/.test(value) && !value.split("/").includes("..");
const DELIMITER_ESCAPES = ["\\n", "\\r\\n", "\\r", "\\t"];

type Rule = (value: string, label: CodedMessage) => CodedMessage | null;

/** Fields shown in messages and logs as they are: a password typed into one of them is refused (D198). */
const PASSWORD_FREE_FIELDS = [
  "sftp_host",
  "sftp_user",
  "sftp_incoming_folder",
  "sftp_outcoming_folder",
  "sftp_cancellation_put_folder",
  "sftp_cancellation_pull_folder",
  "810_as400_filepath",
  "846_as400_filepath",
] as const;

const rules: Record<string, Rule> = {
  name: (v, label) => (v.length > 100 ? message("vendor.errors.too_long", { field: label, max: 100 }) : null),
  store_id: (v, label) => (!/^[A-Za-z0-9_-]{1,20}$/.test(v) ? message("vendor.errors.store_id", { field: label }) : null),
  sftp_host: (v, label) => (!HOST.test(v) && !(v.includes(":") && IPV6.test(v)) ? message("vendor.errors.host", { field: label }) : null),
  sftp_user: (v, label) => (v.length > 100 ? message("vendor.errors.too_long", { field: label, max: 100 }) : null),
};
const folderRule: Rule = (v, label) => (!FOLDER(v) || v.length > 255 ? message("vendor.errors.path", { field: label }) : null);
for (const name of ["sftp_incoming_folder", "sftp_outcoming_folder", "sftp_cancellation_put_folder", "sftp_cancellation_pull_folder"]) {
  rules[name] = folderRule;
}
// A folder inside the set's AS400 root, relative to it: never an AS400 folder of the app's own (D196).
for (const [name, set] of Object.entries(AS400_COPY_FIELDS)) {
  rules[name] = (v, label) => {
    try {
      as400CopyFolder(set, v);
      return null;
    } catch (error) {
      if (!(error instanceof PathError)) throw error;
      return message("vendor.errors.as400_folder", { field: label, root: AS400_COPY_ROOTS[set] });
    }
  };
}
const delimiterRule: Rule = (v, label) =>
  (v.length === 1 && !/[A-Za-z0-9 ]/.test(v)) || DELIMITER_ESCAPES.includes(v) ? null : message("vendor.errors.delimiter", { field: label });
for (const name of ["input_delimiter", "input_segmenter", "output_delimiter", "output_segmenter"]) rules[name] = delimiterRule;
for (const name of ["edi_identifier", "test_identifier"]) {
  rules[name] = (v, label) => (!/^[A-Za-z0-9 ]{1,15}$/.test(v) ? message("vendor.errors.identifier", { field: label }) : null);
}
for (const name of ["edi_qualifier", "test_qualifier"]) {
  rules[name] = (v, label) => (!/^[A-Za-z0-9]{2}$/.test(v) ? message("vendor.errors.qualifier", { field: label }) : null);
}

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]).optional();
const VendorBody = z.record(z.string(), scalar);

export type VendorData = Prisma.VendorUncheckedCreateInput;

/**
 * Checks a vendor body (spec field names) and turns it into database fields.
 * `existing` is the stored vendor when updating: an empty password keeps its.
 * `newId` is the id a new vendor will have: its password is bound to it (D208).
 */
export function validateVendor(body: unknown, existing?: Vendor, newId?: number): VendorData {
  const { errors, data, password, moved } = examineVendor(body, existing);
  if (Object.keys(errors).length) throw new ValidationError(errors);

  const result = data as unknown as VendorData;
  // An empty password keeps the stored one; a new one is stored encrypted.
  if (password !== "") result.sftp_pass = encryptSecret(password, vendorPasswordBinding(existing?.id ?? newId!));
  else if (!existing) result.sftp_pass = null;
  else delete result.sftp_pass;
  // A new host, port or mechanism is a new server, with a key of its own: pinned again on the next connection (D64).
  if (moved.some((name) => KEY_BOUND_FIELDS.has(name))) result.sftp_host_key = null;
  return result;
}

/** Every field's problems and the database fields of a vendor body, the typed password and the connection fields it changes. */
function examineVendor(body: unknown, existing?: Vendor) {
  const parsed = VendorBody.safeParse(body);
  if (!parsed.success) throw new ValidationError({ _: [message("vendor.errors.body")] });
  const input = parsed.data;
  const errors: FieldProblems = {};
  const fail = (field: string, problem: Problem) => (errors[field] ??= []).push(problem);
  const data: Record<string, string | number | null> = {};
  const label = (field: VendorFieldSpec) => message(`vendor.fields.${field.name}`);

  for (const field of VENDOR_FIELDS) {
    const raw = input[field.name];
    const value = raw === null || raw === undefined ? "" : String(raw).trim();
    if (field.kind === "password") continue;
    if (value === "") {
      if (field.defaultValue !== undefined) {
        data[prismaField(field.name)] = field.defaultValue;
        continue;
      }
      if (field.required) fail(field.name, message("vendor.errors.required", { field: label(field) }));
      data[prismaField(field.name)] = null;
      continue;
    }
    switch (field.kind) {
      case "yesno":
        if (value === "1" || value === "true" || value === "0" || value === "false") data[prismaField(field.name)] = value === "1" || value === "true" ? 1 : 0;
        else fail(field.name, message("vendor.errors.yesno", { field: label(field) }));
        break;
      case "format":
        if (value === "1" || value === "0") data[field.name] = Number(value);
        else fail(field.name, message("vendor.errors.format", { field: label(field) }));
        break;
      case "choice":
        if (z.enum(field.choices as [string, ...string[]]).safeParse(value).success) data[prismaField(field.name)] = value;
        else fail(field.name, message("vendor.errors.choice", { field: label(field), choices: field.choices!.join(", ") }));
        break;
      case "mechanism":
        if (["1", "2", "3"].includes(value)) data[field.name] = Number(value);
        else fail(field.name, message("vendor.errors.mechanism", { field: label(field) }));
        break;
      case "whole":
        if (/^\d{1,9}$/.test(value) && Number(value) >= (field.min ?? 0) && Number(value) <= (field.max ?? 1e9)) data[prismaField(field.name)] = Number(value);
        else fail(field.name, message("vendor.errors.whole", { field: label(field), min: field.min ?? 0, max: field.max ?? 1e9 }));
        break;
      case "port":
        if (/^\d{1,5}$/.test(value) && Number(value) >= 1 && Number(value) <= 65535) data[field.name] = Number(value);
        else fail(field.name, message("vendor.errors.port", { field: label(field) }));
        break;
      default: {
        const problem =
          (field.kind === "regex" ? regexProblem(value, label(field)) : null) ??
          rules[field.name]?.(value, label(field)) ??
          (value.length > 10_000 ? message("vendor.errors.too_long", { field: label(field), max: 10_000 }) : null);
        if (problem) fail(field.name, problem);
        else data[prismaField(field.name)] = field.kind === "segments" || field.kind === "regex" ? String(raw) : value;
      }
    }
  }

  // The outgoing delimiters as a set (D72): what the reader would refuse is refused here, with the writer's rule.
  if (!errors.output_delimiter && !errors.output_segmenter) {
    const output = vendorDelimiters({
      output_delimiter: (data.output_delimiter as string | null) ?? null,
      output_segmenter: (data.output_segmenter as string | null) ?? null,
    });
    const problems = delimiterProblems(output);
    if (problems.length) {
      const elementAlone = problems.every((problem) => /element separator/.test(problem) && !/segment terminator/.test(problem));
      const field = elementAlone ? "output_delimiter" : "output_segmenter";
      fail(
        field,
        message("vendor.errors.output_delimiters", {
          field: message(`vendor.fields.${field}`),
          delimiter: message("vendor.fields.output_delimiter"),
          segmenter: message("vendor.fields.output_segmenter"),
        }),
      );
    }
  }

  // The cancellation's format must be one the vendor's EDI format can carry (D230).
  if (typeof data.cancellation_format === "string" && !errors.cancellation_format && (data.edi_format === 0 || data.edi_format === 1)) {
    if (!CANCELLATION_FORMATS_FOR[data.edi_format].includes(data.cancellation_format))
      fail(
        "cancellation_format",
        message(data.edi_format === 1 ? "vendor.errors.cancellation_csv_for_x12" : "vendor.errors.cancellation_x12_for_csv", {
          field: message("vendor.fields.cancellation_format"),
        }),
      );
  }

  // An enabled vendor must be reachable.
  if (data.enabled === 1) {
    for (const name of ["sftp_host", "sftp_user"]) {
      if (data[name] === null && !errors[name]) fail(name, message("vendor.errors.needs_connection", { field: message(`vendor.fields.${name}`) }));
    }
  }

  // EDI-level meaning (identities, templates, regexes, versions): the same checks the exchange uses.
  const fields = Object.fromEntries(VENDOR_FIELDS.map((field) => [field.name, data[prismaField(field.name)] ?? null]));
  const { problems: profileProblems } = tradingProfile({ id: existing?.id ?? 0, name: String(data.name ?? ""), ...fields }, { qualifier: "ZZ", id: "US" });
  for (const [field, problems] of Object.entries(profileProblems)) {
    if (errors[field]) continue; // the field's own rule already said what is wrong
    for (const problem of problems) fail(field, fieldProblem(field, problem));
  }

  // A host typed as an address the outbound policy refuses (D195): said here rather than at the first connection.
  if (typeof data.sftp_host === "string" && !errors.sftp_host) {
    const port = typeof data.sftp_port === "number" ? data.sftp_port : defaultPort(data.transfer_mechanism_id === 1 ? 1 : 2);
    const refusal = literalRefusal(appOutboundPolicy(), data.sftp_host, port);
    if (refusal)
      fail("sftp_host", message("vendor.errors.host_refused", { field: message("vendor.fields.sftp_host"), reason: message(`transport.outbound.${refusal}`) }));
  }

  // FTPS is FTP over TLS: SFTP is SSH, already encrypted.
  if (data.ftp_tls === 1 && data.transfer_mechanism_id === 1 && !errors.ftp_tls)
    fail("ftp_tls", message("vendor.errors.ftp_tls_sftp", { field: message("vendor.fields.ftp_tls") }));

  const password = typeof input.sftp_pass === "string" ? input.sftp_pass : "";
  if (password.length > 200) fail("sftp_pass", message("vendor.errors.too_long", { field: message("vendor.fields.sftp_pass"), max: 200 }));
  // A typed password inside the host, user or a folder would travel in messages and logs (D198). Only the
  // password typed now is compared: comparing the stored one would tell whoever saves a guess whether it matched.
  if (password !== "") {
    for (const name of PASSWORD_FREE_FIELDS) {
      const value = data[prismaField(name)];
      if (typeof value === "string" && value.includes(password) && !errors[name])
        fail(name, message("vendor.errors.contains_password", { field: message(`vendor.fields.${name}`) }));
    }
  }
  // The stored password goes only to the server it was given for (D64).
  const moved = existing ? changedConnection(existing, data) : [];
  if (existing?.sftp_pass && password === "" && moved.length && !errors.sftp_pass) {
    fail(
      "sftp_pass",
      message("vendor.errors.password_again", {
        field: message("vendor.fields.sftp_pass"),
        fields: joined(
          moved.map((name) => message(`vendor.fields.${name}`)),
          ", ",
        ),
      }),
    );
  }

  return { errors, data, password, moved };
}

const CONNECTION_TESTED = new Set<string>(CONNECTION_TEST_FIELDS);

/** A vendor as the form's connection fields would make it, to test before saving, and the password typed (if any). */
export interface ConnectionToTest {
  vendor: Vendor;
  /** The password typed: tried as it is, never stored. Null: the stored one. */
  password: string | null;
  /** Whether the connection differs from the stored vendor's (a typed password, or another server or user). */
  unsaved: boolean;
}

/**
 * The vendor form's values for Test Connection: the connection fields checked with the same rules as a save (the host
 * typed, the outbound policy, the stored password only for the server it was given for, D64), the other fields' problems
 * left to Save. `existing` is the stored vendor (null for a new one).
 */
export function connectionToTest(body: unknown, existing: Vendor | null): ConnectionToTest {
  const { errors, data, password, moved } = examineVendor(body, existing ?? undefined);
  const problems: FieldProblems = Object.fromEntries(Object.entries(errors).filter(([field]) => CONNECTION_TESTED.has(field)));
  for (const name of ["sftp_host", "sftp_user"])
    if (!data[name] && !problems[name]) problems[name] = [message("vendor.errors.needs_connection", { field: message(`vendor.fields.${name}`) })];
  if (Object.keys(problems).length) throw new ValidationError(problems);
  const connection = Object.fromEntries(
    CONNECTION_TEST_FIELDS.filter((name) => name !== "sftp_pass").map((name) => [prismaField(name), data[prismaField(name)] ?? null]),
  );
  const base = existing ?? ({ id: 0, name: String(data.name ?? "") || "?", sftp_pass: null, sftp_host_key: null } as unknown as Vendor);
  const vendor = {
    ...base,
    ...connection,
    sftp_host_key: moved.some((name) => KEY_BOUND_FIELDS.has(name)) ? null : base.sftp_host_key,
  } as Vendor;
  return {
    vendor,
    password: password !== "" ? password : null,
    unsaved: !existing || password !== "" || moved.length > 0 || VENDOR_FOLDER_FIELDS.some((name) => (existing[name] ?? null) !== (data[name] ?? null)),
  };
}

/** Why a staff-typed regular expression cannot be saved (D65). */
function regexProblem(value: string, label: CodedMessage): CodedMessage | null {
  const problem = checkStaffRegex(value);
  if (!problem) return null;
  if (problem.problem === "too_long") return message("vendor.errors.too_long", { field: label, max: problem.max });
  if (problem.problem === "invalid") return message("vendor.errors.regex_invalid", { field: label, reason: problem.detail });
  return message("vendor.errors.regex_unsafe", { field: label });
}

const KEY_BOUND_FIELDS = new Set<string>(["sftp_host", "sftp_port", "transfer_mechanism_id"]);

/** The connection fields that differ from the stored vendor; a blank port is the mechanism's default, host names ignore case. */
function changedConnection(existing: Vendor, data: Record<string, string | number | null>): Array<(typeof PASSWORD_BOUND_FIELDS)[number]> {
  const mechanism = (value: unknown) => Number(value ?? 1);
  const port = (value: unknown, mech: number) => (value === null || value === undefined ? (mech === 1 ? 22 : 21) : Number(value));
  const before = {
    sftp_host: (existing.sftp_host ?? "").trim().toLowerCase(),
    sftp_port: port(existing.sftp_port, mechanism(existing.transfer_mechanism_id)),
    sftp_user: existing.sftp_user ?? "",
    transfer_mechanism_id: mechanism(existing.transfer_mechanism_id),
    ftp_tls: existing.ftp_tls ?? 0,
  };
  const after = {
    sftp_host: String(data.sftp_host ?? "")
      .trim()
      .toLowerCase(),
    sftp_port: port(data.sftp_port, mechanism(data.transfer_mechanism_id)),
    sftp_user: String(data.sftp_user ?? ""),
    transfer_mechanism_id: mechanism(data.transfer_mechanism_id),
    ftp_tls: Number(data.ftp_tls ?? 0),
  };
  return PASSWORD_BOUND_FIELDS.filter((name) => before[name] !== after[name]);
}

/** A vendor's code must not be a store's (the two would be one source). */
async function refuseStoreCode(tx: Prisma.TransactionClient, code: string) {
  const store = await storeWithCode(tx, code);
  if (store) throw new ValidationError({ store_id: [message("vendor.errors.store_id_is_store", { code, name: store.name })] });
}

// The vendor and its dropshipper source are saved together: it can be assigned to at once (D51).
export async function createVendor(body: unknown): Promise<VendorApi> {
  // The id is taken first: the password is encrypted bound to the row it goes in (D208).
  const [{ id }] = await prisma.$queryRaw<Array<{ id: number }>>`SELECT nextval(pg_get_serial_sequence('dropship_vendor', 'id'))::int AS id`;
  const data = validateVendor(body, undefined, id);
  return prisma.$transaction(async (tx) => {
    await refuseStoreCode(tx, data.store_id);
    const vendor = await tx.vendor.create({ data: { ...data, id } });
    await syncVendorSources(tx, [vendor.store_id]);
    return vendorToApi(vendor);
  });
}

export async function updateVendor(id: number, body: unknown): Promise<VendorApi> {
  const existing = await findVendor(id);
  const data = validateVendor(body, existing);
  return prisma.$transaction(async (tx) => {
    await refuseStoreCode(tx, data.store_id);
    const vendor = await tx.vendor.update({ where: { id }, data });
    if (existing.sftp_host_key && vendor.sftp_host_key === null) {
      const why = "the host, port or transfer mechanism changed. The next connection trusts and pins the key it sees.";
      await logHostKey(tx, vendor, "host_key_reset", "warning", `Host key ${existing.sftp_host_key} unpinned: ${why}`);
    }
    // A changed store_id: the new code is offered, the old one no more unless another vendor has it.
    await syncVendorSources(tx, [existing.store_id, vendor.store_id]);
    return vendorToApi(vendor);
  });
}

const OPEN_REQUEST_STATUSES = ["pending", "sent", "acknowledged", "backordered", "shipped", "invoiced"];

/**
 * Deletes a vendor without history; archives one with history (its requests,
 * files and logs stay); refuses while it has open requests. Nothing is lost.
 */
export async function deleteVendor(id: number): Promise<{ deleted: boolean; archived: boolean; name: string }> {
  const vendor = await findVendor(id);
  return prisma.$transaction(async (tx) => {
    const open = await tx.dropshipRequest.count({ where: { vendor_id: id, status: { in: OPEN_REQUEST_STATUSES } } });
    if (open > 0) throw new ValidationError({ vendor: [message("vendor.errors.open_requests", { name: vendor.name, count: open })] });
    const [requests, responses, transmissions, logs] = await Promise.all([
      tx.dropshipRequest.count({ where: { vendor_id: id } }),
      tx.dropshipResponse.count({ where: { vendor_id: id } }),
      tx.transmission.count({ where: { vendor_id: id } }),
      tx.dropshipLog.count({ where: { vendor_id: id } }),
    ]);
    if (requests + responses + transmissions + logs > 0) {
      await tx.vendor.update({ where: { id }, data: { archived_at: new Date(), enabled: 0 } });
      await syncVendorSources(tx, [vendor.store_id]);
      return { deleted: false, archived: true, name: vendor.name };
    }
    await tx.vendor.delete({ where: { id } });
    // Its source stays, no longer offered: an assignment may name it.
    await syncVendorSources(tx, [vendor.store_id]);
    return { deleted: true, archived: false, name: vendor.name };
  });
}

type HostKeyAction = "host_key_pinned" | "host_key_reset";

/** Logs a change of the vendor's pinned host key (D64), in the transaction that makes it. */
const logHostKey = (tx: Prisma.TransactionClient, vendor: Pick<Vendor, "id" | "name">, action: HostKeyAction, status: LogEntry["status"], text: string) =>
  writeLogs([{ ...vendorLog(vendor), action, status, message: text }], tx);

/** Pins `hostKey` (null: none) for the vendor and logs it, in one transaction. */
async function setHostKey(id: number, hostKey: string | null, action: HostKeyAction, status: LogEntry["status"], text: string) {
  const updated = await prisma.$transaction(async (tx) => {
    const row = await tx.vendor.update({ where: { id }, data: { sftp_host_key: hostKey } });
    await logHostKey(tx, row, action, status, text);
    return row;
  });
  return vendorToApi(updated);
}

/**
 * POST /api/dropship_vendor/{id}/host_key: `{ action: "reset" }` forgets the
 * pinned SFTP host key (the next connection trusts and pins the key it sees);
 * `{ action: "pin", fingerprint }` pins the one staff typed ("SHA256:" and the
 * base64 of 32 bytes, as ssh-keygen -lf prints it). Both are logged (D64).
 */
export async function changeVendorHostKey(id: number, body: Record<string, unknown>): Promise<VendorApi> {
  const vendor = await findVendor(id);
  const action = body.action;
  if (action !== "reset" && action !== "pin") throw new ValidationError({ action: [message("vendor.host_key.errors.action")] });
  const before = vendor.sftp_host_key;
  if (action === "reset") {
    const text = before
      ? `Host key ${before} unpinned by staff. The next connection trusts and pins the key it sees.`
      : "Host key reset by staff: none was pinned. The next connection trusts and pins the key it sees.";
    return setHostKey(id, null, "host_key_reset", "warning", text);
  }
  // SFTP pins a host key, FTPS a certificate (D62); plain FTP has nothing to pin.
  if (vendor.transfer_mechanism_id !== 1 && vendor.ftp_tls !== 1) throw new ValidationError({ fingerprint: [message("vendor.host_key.errors.not_sftp")] });
  const fingerprint = typeof body.fingerprint === "string" ? normaliseFingerprint(body.fingerprint) : null;
  if (!fingerprint) throw new ValidationError({ fingerprint: [message("vendor.host_key.errors.fingerprint")] });
  const was = before && before !== fingerprint ? ` (was ${before})` : "";
  return setHostKey(id, fingerprint, "host_key_pinned", "info", `Host key ${fingerprint} pinned by staff${was}: a server showing another key is refused.`);
}

/** GET /api/dropship_tools: vendors to choose on the Tools page; test_mode tells the page which may use Vendor Testing (D66). */
export async function toolsVendorList(): Promise<Array<{ id: number; name: string; test_mode: number }>> {
  return prisma.vendor.findMany({ where: { archived_at: null }, orderBy: { name: "asc" }, select: { id: true, name: true, test_mode: true } });
}
