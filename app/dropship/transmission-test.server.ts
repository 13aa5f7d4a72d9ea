// Transmission Test on the Tools page: connect to the chosen vendor and list one
// folder over a data connection (test-connection), list each configured folder,
// and upload a probe file, read it back and remove it (verify-upload). Each
// answers { error, message } in words a person follows, as codes with their
// parameters (D117): shown in the reader's language, whoever started the test.
import { createHash, randomBytes } from "node:crypto";
import { SecretError } from "~/lib/secrets.server";
import { errorRunMessage } from "~/runs/error-messages.server";
import { joined, message, type RunMessage } from "~/runs/messages";
import { TransportError, withTransport } from "@edi/transport";
import type { VendorTransport } from "@edi/transport";
import type { Vendor } from "~/db/generated/client";
import { TRANSFER_MECHANISMS } from "./vendor-fields";
import { vendorConnectionSettings, vendorFolders, withVendorTransport } from "./vendor-connection.server";
import { loadVendorRecord, type ConnectionToTest } from "./vendors.server";

export { TRANSMISSION_TEST_ACTIONS, type TransmissionTestAction } from "./transmission-test-actions";
import type { TransmissionTestAction } from "./transmission-test-actions";

export interface ToolAnswer {
  error: boolean;
  message: string;
}

export interface TransmissionTestAnswer {
  error: boolean;
  message: RunMessage;
}

const MAX_NAMES = 5;

/** "Incoming Folder (/in)": the field's translated name and its path. */
const folderName = (field: string, path: string) => message("transport.test.folder_named", { field: message(`vendor.fields.${field}`), path });

export async function runTransmissionTest(vendorId: number, action: TransmissionTestAction): Promise<TransmissionTestAnswer> {
  const vendor = await loadVendorRecord(vendorId);
  const mechanism = TRANSFER_MECHANISMS[vendor.transfer_mechanism_id as 1 | 2 | 3] ?? "?";
  const where = `${mechanism} ${vendor.sftp_host ?? "?"}${vendor.sftp_port ? `:${vendor.sftp_port}` : ""}`;
  if (!vendor.sftp_host || !vendor.sftp_user) return { error: true, message: message("tools.not_configured", { name: vendor.name }) };
  const pinnedBefore = vendor.sftp_host_key;
  // A first key or certificate is pinned only by a check that passed as a whole (login, listing, upload).
  const passed = { pinOnlyIf: (answer: TransmissionTestAnswer) => !answer.error };
  try {
    switch (action) {
      case "test-connection":
        return await withVendorTransport(vendor, (transport) => testConnection(vendor, transport, where, pinnedBefore), passed);
      case "list-folders": {
        const folders = vendorFolders(vendor);
        if (!folders.length) return { error: true, message: message("tools.no_folders") };
        return await withVendorTransport(vendor, (transport) => listFolders(transport, folders), passed);
      }
      case "verify-upload": {
        const folder = vendor.sftp_outcoming_folder;
        if (!folder) return { error: true, message: message("tools.no_outcoming") };
        return await withVendorTransport(vendor, (transport) => verifyUpload(transport, folder), passed);
      }
    }
  } catch (error) {
    if (error instanceof TransportError || error instanceof SecretError) return { error: true, message: errorRunMessage(error) };
    throw error;
  }
}

/**
 * Test Connection on the vendor form (issue 32): the same check as the Tools button, with the form's connection as
 * typed. Unchanged, it is exactly Tools' test of the stored vendor (its contact noted, a first key pinned when it
 * passes). Changed (a typed password, another server or user), nothing is stored: neither the contact, which says
 * nothing of the saved settings, nor a key, which Save and the next connection decide (D64).
 */
export async function testVendorConnection(test: ConnectionToTest): Promise<TransmissionTestAnswer> {
  if (!test.unsaved) return runTransmissionTest(test.vendor.id, "test-connection");
  const { vendor } = test;
  const mechanism = TRANSFER_MECHANISMS[vendor.transfer_mechanism_id as 1 | 2 | 3] ?? "?";
  const where = `${mechanism} ${vendor.sftp_host ?? "?"}${vendor.sftp_port ? `:${vendor.sftp_port}` : ""}`;
  try {
    return await withTransport(vendorConnectionSettings(vendor, test.password ?? undefined), (transport) =>
      testConnection(vendor, transport, where, vendor.sftp_host_key, { unsaved: true }),
    );
  } catch (error) {
    if (error instanceof TransportError || error instanceof SecretError) return { error: true, message: errorRunMessage(error) };
    throw error;
  }
}

/** Lists each configured folder: a missing or refused one fails the check, naming it. */
async function listFolders(transport: VendorTransport, folders: Array<{ field: string; path: string }>): Promise<TransmissionTestAnswer> {
  let failed = false;
  const lines: RunMessage[] = [];
  for (const { field, path } of folders) {
    const folder = folderName(field, path);
    try {
      const files = (await transport.list(path)).filter((file) => file.type === "file");
      const names = files
        .slice(0, MAX_NAMES)
        .map((file) => file.name)
        .join(", ");
      const more = files.length > MAX_NAMES ? message("tools.and_more", { count: files.length - MAX_NAMES }) : "";
      lines.push(
        files.length
          ? message("transport.test.folder_files", { folder, files: message("tools.files", { count: files.length }), names, more })
          : message("transport.test.folder_empty", { folder }),
      );
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      failed = true;
      lines.push(message("transport.test.folder_failed", { folder, error: errorRunMessage(error) }));
    }
  }
  return { error: failed, message: joined(lines, "; ") };
}

/** Uploads a probe file to the Outcoming Folder, reads it back and removes it. */
async function verifyUpload(transport: VendorTransport, folder: string): Promise<TransmissionTestAnswer> {
  const name = `probe-${Date.now()}-${randomBytes(3).toString("hex")}.txt`;
  const content = Buffer.from(`Transmission test from the operations back-office, ${new Date().toISOString()}\n`);
  const path = await transport.upload(folder, name, content);
  try {
    const back = await transport.download(path, content.length);
    const same = createHash("sha256").update(back).digest("hex") === createHash("sha256").update(content).digest("hex");
    if (!same) return { error: true, message: message("tools.probe_differs", { path }) };
  } finally {
    await transport.delete(path);
  }
  return { error: false, message: message("tools.probe_ok", { path, bytes: content.length }) };
}

/**
 * Logs in and lists the Incoming Folder (or the first folder configured): over FTP a listing
 * travels on a data connection opened the vendor's way (active or passive, TLS when set),
 * the very thing a login alone does not prove. Nothing is written or downloaded: a vendor's
 * system may take any file in its folders, and some FTP mailboxes count a download as a
 * delivery; Verify Upload is the button that writes (D63).
 */
async function testConnection(
  vendor: Vendor,
  transport: VendorTransport,
  where: string,
  pinnedBefore: string | null,
  options: { unsaved?: boolean } = {},
): Promise<TransmissionTestAnswer> {
  const certificate = transport.mechanism !== 1;
  // A first key is pinned only when the whole check passes (withVendorTransport's pinOnlyIf); never for settings not saved.
  const key = (passed: boolean) =>
    transport.hostKey
      ? pinnedBefore
        ? message(certificate ? "tools.certificate_matches" : "tools.host_key_matches")
        : options.unsaved
          ? message("vendor.test_connection.key_seen", { key: transport.hostKey })
          : message(
              passed
                ? certificate
                  ? "tools.certificate_pinned"
                  : "tools.host_key_pinned"
                : certificate
                  ? "tools.certificate_not_pinned"
                  : "tools.host_key_not_pinned",
              { key: transport.hostKey },
            )
      : null;
  const encrypted = certificate && vendor.ftp_tls === 1 ? message("tools.encrypted") : null;
  const connected = (passed: boolean) => [message("tools.connected", { where, user: vendor.sftp_user }), encrypted, key(passed)];
  const folders = vendorFolders(vendor);
  const first = folders.find((folder) => folder.field === "sftp_incoming_folder") ?? folders[0];
  if (!first) return { error: true, message: joined([...connected(false), message("tools.nothing_listed")]) };
  const folder = folderName(first.field, first.path);
  try {
    const files = (await transport.list(first.path)).filter((file) => file.type === "file");
    const count = files.length ? message("tools.files", { count: files.length }) : message("tools.empty");
    const listed = transport.mechanism === 1 ? "tools.listed" : transport.mechanism === 2 ? "tools.listed_active" : "tools.listed_passive";
    return { error: false, message: joined([...connected(true), message(listed, { folder, files: count })]) };
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    return { error: true, message: joined([...connected(false), message("tools.list_failed", { folder, error: errorRunMessage(error) })]) };
  }
}
