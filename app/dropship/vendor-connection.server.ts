// Connecting to a vendor: the only place a stored password is
// decrypted, and where an SFTP host key (or an FTPS certificate no CA vouches
// for) is pinned on the first successful connection. Everything that moves vendor files goes through withVendorTransport.
// The AS400's connection is app/as400/connection.server.ts.
import prisma from "~/db.server";
import type { Vendor } from "~/db/generated/client";
import { env } from "~/env.server";
import { decryptSecret, vendorPasswordBinding } from "~/lib/secrets.server";
import { appOutboundPolicy } from "~/transfers/outbound-policy.server";
import { vendorPartner, withPartnerTransport } from "~/transfers/partner-contact.server";
import { vendorLog, writeLogs } from "./flow/context.server";
import { VENDOR_FOLDER_FIELDS } from "./vendor-fields";
import type { ConnectionSettings, TransferMechanism, VendorTransport } from "@edi/transport";

/** `password`: one typed on the vendor form and not stored (Test Connection before Save); otherwise the stored one. */
export function vendorConnectionSettings(vendor: Vendor, password?: string): ConnectionSettings {
  return {
    mechanism: (vendor.transfer_mechanism_id as TransferMechanism) ?? 1,
    host: vendor.sftp_host ?? "",
    port: vendor.sftp_port ?? undefined,
    user: vendor.sftp_user ?? "",
    password: password ?? (vendor.sftp_pass ? decryptSecret(vendor.sftp_pass, vendorPasswordBinding(vendor.id)) : ""),
    hostKey: vendor.sftp_host_key,
    tls: vendor.ftp_tls === 1,
    label: vendor.name,
    maxDownloadBytes: env().MAX_DOWNLOAD_MB * 1024 * 1024,
    outbound: appOutboundPolicy(),
  };
}

/**
 * One connection for the whole piece of work, always closed; pins the SFTP host key (or FTPS
 * certificate) the first time: at once, or with `pinOnlyIf`, only once the work ended and
 * passed it (a Transmission Test that failed pins nothing).
 */
export async function withVendorTransport<T>(
  vendor: Vendor,
  work: (transport: VendorTransport) => Promise<T>,
  options: { pinOnlyIf?: (result: T) => boolean } = {},
): Promise<T> {
  return withPartnerTransport(vendorPartner(vendor.id), vendorConnectionSettings(vendor), async (transport) => {
    const firstKey = !vendor.sftp_host_key && transport.hostKey ? transport.hostKey : null;
    if (firstKey && !options.pinOnlyIf) await pinFirstKey(vendor, firstKey);
    const result = await work(transport);
    if (firstKey && options.pinOnlyIf?.(result)) await pinFirstKey(vendor, firstKey);
    return result;
  });
}

/**
 * Trust on first use: the key seen on the first connection is pinned, and the
 * vendor's log says so with the fingerprint (D64). Only while nothing is pinned
 * and the server is still the one connected to: a save or reset meanwhile wins.
 */
async function pinFirstKey(vendor: Vendor, hostKey: string) {
  const pinned = await prisma.$transaction(async (tx) => {
    const { count } = await tx.vendor.updateMany({
      where: {
        id: vendor.id,
        sftp_host_key: null,
        sftp_host: vendor.sftp_host,
        sftp_port: vendor.sftp_port,
        transfer_mechanism_id: vendor.transfer_mechanism_id,
      },
      data: { sftp_host_key: hostKey },
    });
    if (count === 1) {
      const where = `${vendor.sftp_host}${vendor.sftp_port ? `:${vendor.sftp_port}` : ""}`;
      await writeLogs(
        [
          {
            ...vendorLog(vendor),
            action: "host_key_pinned",
            status: "warning",
            message:
              `Host key ${hostKey} of ${where} trusted on first use and pinned: a server showing ` +
              `another key is refused. Compare it with the fingerprint the vendor gives you.`,
          },
        ],
        tx,
      );
    }
    return count === 1;
  });
  if (pinned) vendor.sftp_host_key = hostKey;
}

/** The vendor's folders that are set, with their field names (for messages). */
export function vendorFolders(vendor: Vendor): Array<{ field: string; path: string }> {
  return VENDOR_FOLDER_FIELDS.filter((field) => vendor[field]).map((field) => ({ field, path: vendor[field]! }));
}

/**
 * After an incoming file is safely stored: moved into the folder's archive/
 * subfolder when the vendor archives files (`is_archiving_files`), deleted
 * otherwise. Never call it before the file is stored: nothing remote is
 * removed before that.
 */
export async function releaseIncomingFile(
  transport: VendorTransport,
  vendor: Pick<Vendor, "is_archiving_files">,
  path: string,
): Promise<{ archivedTo: string | null }> {
  if (vendor.is_archiving_files === 1) return { archivedTo: await transport.archive(path) };
  await transport.delete(path);
  return { archivedTo: null };
}
