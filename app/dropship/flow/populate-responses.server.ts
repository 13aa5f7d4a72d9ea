// Step 3, Populate Ship Responses: every file in each vendor's incoming folder
// is downloaded and stored whole (content and sha256) before anything else;
// only then is it archived or deleted on the vendor's server. A file stored
// before (same vendor, same hash) is not stored or processed again, just
// released. One vendor that is down fails alone.
import prisma from "~/db.server";
import type { Vendor } from "~/db/generated/client";
import { recogniseIncomingFile } from "../../../edi/incoming";
import { isTemporaryUploadName, TransportError } from "../../../edi/transport";
import type { VendorTransport } from "../../../edi/transport/types";
import { releaseIncomingFile, withVendorTransport } from "../vendor-connection.server";
import { errorMessage, plural, sha256, StepReport, vendorLog, vendorProfile, writeLogs, type StepResult } from "./context.server";

/** Stores the file unless it is already stored; answers the transmission id and whether it is new. */
export async function storeIncomingFile(vendor: Vendor, file: { name: string; path: string; content: Buffer; transactionSet: string | null }) {
  const hash = sha256(file.content);
  const [inserted] = await prisma.$queryRaw<Array<{ id: number }>>`
    INSERT INTO transmission (vendor_id, partner, direction, file_name, remote_path, transaction_set, content_hash, content, size, status, transaction_control_numbers, updated_at)
    VALUES (${vendor.id}, 'vendor', 'in', ${file.name}, ${file.path}, ${file.transactionSet}, ${hash}, ${file.content}, ${file.content.length}, 'received', '{}', now())
    ON CONFLICT (vendor_id, direction, content_hash) DO NOTHING
    RETURNING id`;
  if (inserted) return { id: inserted.id, isNew: true };
  const existing = await prisma.transmission.findFirstOrThrow({ where: { vendor_id: vendor.id, direction: "in", content_hash: hash }, select: { id: true } });
  return { id: existing.id, isNew: false };
}

async function collectFromVendor(vendor: Vendor, transport: VendorTransport, report: StepReport) {
  const { profile } = vendorProfile(vendor);
  const folder = vendor.sftp_incoming_folder!;
  const listed = (await transport.list(folder)).filter((file) => file.type === "file" && !isTemporaryUploadName(file.name));
  const wanted = listed.filter((file) => !profile.fileNamePattern || profile.fileNamePattern.test(file.name)).sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }));
  if (listed.length > wanted.length) report.count("left_by_regex_format", listed.length - wanted.length);
  for (const file of wanted) {
    let stored: { id: number; isNew: boolean };
    let storedMessage: string;
    try {
      const content = await transport.download(file.path, file.size);
      const recognised = recogniseIncomingFile(file.name, content.subarray(0, 4096), vendor as never, profile);
      stored = await storeIncomingFile(vendor, { name: file.name, path: file.path, content, transactionSet: recognised.type });
      storedMessage = stored.isNew
        ? `Stored ${file.name} (${content.length} bytes, ${recognised.type ? `a ${recognised.type}` : "type not recognised"}: ${recognised.reason})`
        : `${file.name} has the same content as transmission ${stored.id}, stored before; it is not processed again`;
      report.count(stored.isNew ? "files_stored" : "duplicates");
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      report.problem(`${vendor.name}: ${file.name} not downloaded (${error.message})`);
      await writeLogs([{ ...vendorLog(vendor), action: "receive_file", status: "error", file_name: file.name, message: `Could not download ${file.path}: ${error.message}. It stays on the vendor's server for the next run.` }]);
      if (error.isConnectionFault) throw error;
      continue;
    }
    // Only now, with the file safely stored, is it moved or removed remotely. One log line per file.
    const log = { ...vendorLog(vendor), action: "receive_file" as const, file_name: file.name, transmission_id: stored.id };
    try {
      const { archivedTo } = await releaseIncomingFile(transport, vendor, file.path);
      await writeLogs([{ ...log, status: stored.isNew ? "info" : "warning", message: `${storedMessage}; ${archivedTo ? `archived to ${archivedTo}` : "deleted"} on the vendor's server.` }]);
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      report.problem(`${vendor.name}: ${file.name} stored but not released (${error.message})`);
      await writeLogs([{ ...log, status: "warning", message: `${storedMessage}. It could not be ${vendor.is_archiving_files === 1 ? "archived" : "deleted"} on the vendor's server: ${error.message}. The next run sees it is stored and tries again.` }]);
      if (error.isConnectionFault) throw error;
    }
  }
}

export async function populateShipResponses(options: { vendorId?: number } = {}): Promise<StepResult> {
  const report = new StepReport();
  const vendors = await prisma.vendor.findMany({
    where: { enabled: 1, archived_at: null, sftp_host: { not: null }, sftp_incoming_folder: { not: null }, ...(options.vendorId ? { id: options.vendorId } : {}) },
    orderBy: { id: "asc" },
  });
  for (const vendor of vendors) {
    try {
      await withVendorTransport(vendor, (transport) => collectFromVendor(vendor, transport, report));
      report.count("vendors_read");
    } catch (error) {
      const message = errorMessage(error);
      report.problem(`${vendor.name}: ${message}`);
      await writeLogs([{ ...vendorLog(vendor), action: "populate_responses", status: "error", message: `Could not read ${vendor.name}'s incoming folder: ${message}. The other vendors were read; this one is tried again at the next run.` }]);
    }
  }
  const stored = report.counts.files_stored ?? 0;
  const duplicates = report.counts.duplicates ?? 0;
  const summary = `${plural(stored, "new file")} stored from ${plural(report.counts.vendors_read ?? 0, "vendor")}${duplicates ? `, ${plural(duplicates, "file")} already stored before` : ""}.`;
  return report.result(summary);
}
