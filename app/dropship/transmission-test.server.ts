// Transmission Test on the Tools page: connect to the chosen vendor and list one
// folder over a data connection (test-connection), list each configured folder,
// and upload a probe file, read it back and remove it (verify-upload). Each
// answers { error, message } in words a person follows.
import { createHash, randomBytes } from "node:crypto";
import type { Translate } from "~/i18n/i18n.server";
import { SecretError } from "~/lib/secrets.server";
import { TransportError } from "../../edi/transport/errors";
import type { VendorTransport } from "../../edi/transport/types";
import type { Vendor } from "~/db/generated/client";
import { TRANSFER_MECHANISMS } from "./vendor-fields";
import { vendorFolders, withVendorTransport } from "./vendor-connection.server";
import { loadVendorRecord } from "./vendors.server";

export { TRANSMISSION_TEST_ACTIONS, type TransmissionTestAction } from "./transmission-test-actions";
import type { TransmissionTestAction } from "./transmission-test-actions";

export interface ToolAnswer {
  error: boolean;
  message: string;
}

const MAX_NAMES = 5;

export async function runTransmissionTest(vendorId: number, action: TransmissionTestAction, t: Translate): Promise<ToolAnswer> {
  const vendor = await loadVendorRecord(vendorId);
  const where = `${TRANSFER_MECHANISMS[vendor.transfer_mechanism_id as 1 | 2 | 3] ?? "?"} ${vendor.sftp_host ?? "?"}${vendor.sftp_port ? `:${vendor.sftp_port}` : ""}`;
  if (!vendor.sftp_host || !vendor.sftp_user) return { error: true, message: t("tools.not_configured", { name: vendor.name }) };
  const pinnedBefore = vendor.sftp_host_key;
  try {
    switch (action) {
      case "test-connection":
        return await withVendorTransport(vendor, (transport) => testConnection(vendor, transport, where, pinnedBefore, t));
      case "list-folders": {
        const folders = vendorFolders(vendor);
        if (!folders.length) return { error: true, message: t("tools.no_folders") };
        return await withVendorTransport(vendor, async (transport) => {
          let failed = false;
          const lines: string[] = [];
          for (const { field, path } of folders) {
            const label = `${t(`vendor.fields.${field}`)} (${path})`;
            try {
              const files = (await transport.list(path)).filter((file) => file.type === "file");
              const names = files.slice(0, MAX_NAMES).map((file) => file.name).join(", ");
              const more = files.length > MAX_NAMES ? t("tools.and_more", { count: files.length - MAX_NAMES }) : "";
              lines.push(files.length ? `${label}: ${t("tools.files", { count: files.length })}: ${names}${more}` : `${label}: ${t("tools.empty")}`);
            } catch (error) {
              if (!(error instanceof TransportError)) throw error;
              failed = true;
              lines.push(`${label}: ${error.message}`);
            }
          }
          return { error: failed, message: lines.join("; ") };
        });
      }
      case "verify-upload": {
        const folder = vendor.sftp_outcoming_folder;
        if (!folder) return { error: true, message: t("tools.no_outcoming") };
        return await withVendorTransport(vendor, async (transport) => {
          const name = `probe-${Date.now()}-${randomBytes(3).toString("hex")}.txt`;
          const content = Buffer.from(`Transmission test from the operations back-office, ${new Date().toISOString()}\n`);
          const path = await transport.upload(folder, name, content);
          try {
            const back = await transport.download(path, content.length);
            const same = createHash("sha256").update(back).digest("hex") === createHash("sha256").update(content).digest("hex");
            if (!same) return { error: true, message: t("tools.probe_differs", { path }) };
          } finally {
            await transport.delete(path);
          }
          return { error: false, message: t("tools.probe_ok", { path, bytes: content.length }) };
        });
      }
    }
  } catch (error) {
    if (error instanceof TransportError || error instanceof SecretError) return { error: true, message: error.message };
    throw error;
  }
}

/**
 * Logs in and lists the Incoming Folder (or the first folder configured): over FTP a listing
 * travels on a data connection opened the vendor's way (active or passive, TLS when set),
 * the very thing a login alone does not prove. Nothing is written or downloaded: a vendor's
 * system may take any file in its folders, and some FTP mailboxes count a download as a
 * delivery; Verify Upload is the button that writes (D63).
 */
async function testConnection(vendor: Vendor, transport: VendorTransport, where: string, pinnedBefore: string | null, t: Translate): Promise<ToolAnswer> {
  const certificate = transport.mechanism !== 1;
  const key = transport.hostKey
    ? pinnedBefore
      ? t(certificate ? "tools.certificate_matches" : "tools.host_key_matches")
      : t(certificate ? "tools.certificate_pinned" : "tools.host_key_pinned", { key: transport.hostKey })
    : "";
  const encrypted = certificate && vendor.ftp_tls === 1 ? t("tools.encrypted") : "";
  const connected = [t("tools.connected", { where, user: vendor.sftp_user }), encrypted, key].filter(Boolean).join(" ");
  const folders = vendorFolders(vendor);
  const first = folders.find((folder) => folder.field === "sftp_incoming_folder") ?? folders[0];
  if (!first) return { error: true, message: `${connected} ${t("tools.nothing_listed")}` };
  const folder = `${t(`vendor.fields.${first.field}`)} (${first.path})`;
  try {
    const files = (await transport.list(first.path)).filter((file) => file.type === "file");
    const count = files.length ? t("tools.files", { count: files.length }) : t("tools.empty");
    const listed = transport.mechanism === 1 ? "tools.listed" : transport.mechanism === 2 ? "tools.listed_active" : "tools.listed_passive";
    return { error: false, message: `${connected} ${t(listed, { folder, files: count })}` };
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    return { error: true, message: `${connected} ${t("tools.list_failed", { folder, error: error.message })}` };
  }
}
