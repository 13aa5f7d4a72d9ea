// Outbound files (850s, purchase-order CSVs, 997s, AS400 copies) are stored as
// a `prepared` transmission first and uploaded after: a crash or a vendor that
// is down leaves a prepared file that the next run uploads, under the same name
// and with the same control numbers, so a vendor never gets two different
// files for one claim of requests.
import { englishText, logMessage } from "~/i18n/english.server";
import { message } from "~/i18n/messages";
import prisma from "~/db.server";
import type { Prisma, Transmission, Vendor } from "~/db/generated/client";
import { errorRunMessage } from "~/runs/error-messages.server";
import { message as runMessage } from "~/runs/messages";
import { PathError, TransportError } from "@edi/transport";
import { parentOf } from "@edi/transport";
import type { VendorTransport } from "@edi/transport";
import { as400ConnectionSettings, withAs400Transport } from "~/as400/connection.server";
import { AS400_COPY_ROOTS, insideAs400CopyRoot } from "~/as400/copy-folders";
import { StepReport, vendorLog, writeLogs, type LogEntry } from "./context.server";
import { claimUpload, type UploadLease, type UploadLeaseOptions, uploadHolder } from "~/transfers/upload-lease.server";
import { logger } from "~/observability/logger.server";

const log = logger("upload");
import { crashPoint } from "./crash-hook.server";
import { settleCancellations } from "~/sales/vendor-cancellations.server";
import { errorMessage } from "~/lib/error-message";

/** What a sent file means beyond itself: the requests of an 850 or CSV are now Sent. */
async function markSent(transmission: Transmission, vendor: Pick<Vendor, "id" | "name"> | null, lease: UploadLease): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const now = new Date();
    // Only while this run's claim holds: a run that took the file over writes its own outcome.
    const { count } = await tx.transmission.updateMany({
      where: { id: transmission.id, status: "prepared", processed_at: lease.claimedAt },
      data: { status: "sent", error: null, attempts: { increment: 1 }, processed_at: now },
    });
    if (count === 0) return false;
    const logs: LogEntry[] = [];
    if (vendor && (await markCancellationsSent(tx, transmission, vendor, now))) {
      // A cancellation file (D225): its cancellations are sent, and settled at once for a vendor that does not answer them.
    } else if (vendor && (transmission.transaction_set === "850" || transmission.transaction_set === "csv")) {
      const requests = await tx.dropshipRequest.updateManyAndReturn({
        where: { transmission_id: transmission.id, status: "pending" },
        data: { status: "sent", sent_at: now },
        select: { assignment_id: true, po_number: true, order_increment_id: true, item_sku: true, qty: true },
      });
      // The ids as one array, not a list of parameters: Prisma keeps a model call's plan, every id in it, among its debug entries (D140).
      await tx.$executeRaw`
        UPDATE assignment SET assign_status = 3, update_time = ${now}
         WHERE id = ANY(${requests.map((r) => r.assignment_id)}::int[]) AND assign_status IN (1, 2)`;
      for (const r of requests) {
        logs.push({
          ...vendorLog(vendor),
          action: "send_requests",
          status: "success",
          po_number: r.po_number,
          order_increment_id: r.order_increment_id,
          item_sku: r.item_sku,
          qty: r.qty,
          file_name: transmission.file_name,
          transmission_id: transmission.id,
          ...logMessage("logs.dropship.sent_in", {
            file: transmission.file_name,
            interchange: transmission.interchange_control_number
              ? message("logs.dropship.interchange", { number: transmission.interchange_control_number })
              : "",
          }),
        });
      }
    } else {
      logs.push({
        ...(vendor ? vendorLog(vendor) : {}),
        action: transmission.partner === "as400" ? "as400_copy" : transmission.transaction_set === "997" ? "ack_997" : "send_file",
        status: "success",
        file_name: transmission.file_name,
        transmission_id: transmission.id,
        ...(transmission.partner === "as400"
          ? logMessage("logs.dropship.copied_as400", { file: transmission.file_name, path: transmission.remote_path, bytes: transmission.size })
          : logMessage("logs.dropship.sent_file", { set: transmission.transaction_set ?? "file", file: transmission.file_name, bytes: transmission.size })),
      });
    }
    await writeLogs(logs, tx);
    return true;
  });
}

/** The cancellations a file carried are sent; a vendor that does not answer cancellations has them done. */
async function markCancellationsSent(tx: Prisma.TransactionClient, transmission: Transmission, vendor: Pick<Vendor, "id" | "name">, now: Date) {
  const sent = await tx.dropshipCancellation.updateManyAndReturn({
    where: { transmission_id: transmission.id, status: "pending" },
    data: { status: "sent", sent_at: now },
    select: { id: true, po_number: true, qty: true, change_number: true, request: { select: { order_increment_id: true, item_sku: true } } },
  });
  if (sent.length === 0) return false;
  await writeLogs(
    sent.map((c) => ({
      ...vendorLog(vendor),
      action: "cancel_requests",
      status: "success",
      po_number: c.po_number,
      order_increment_id: c.request.order_increment_id,
      item_sku: c.request.item_sku,
      qty: c.qty,
      file_name: transmission.file_name,
      transmission_id: transmission.id,
      ...logMessage("cancellations.log.sent", { change: c.change_number, po: c.po_number, qty: c.qty, file: transmission.file_name }),
    })),
    tx,
  );
  const { answers_cancellations } = await tx.vendor.findUniqueOrThrow({ where: { id: vendor.id }, select: { answers_cancellations: true } });
  if (answers_cancellations !== 1) {
    const { logs } = await settleCancellations(
      tx,
      sent.map((c) => ({ cancellationId: c.id, outcome: "done" as const })),
    );
    await writeLogs(logs, tx);
  }
  return true;
}

async function markFailedAttempt(
  transmission: Transmission,
  vendor: Pick<Vendor, "id" | "name"> | null,
  error: unknown,
  report: StepReport,
  lease: UploadLease,
) {
  const reason = errorMessage(error);
  // The lease ends (the next run uploads it again), unless another run has taken the file over.
  const { count } = await prisma.transmission.updateMany({
    where: { id: transmission.id, status: "prepared", processed_at: lease.claimedAt },
    data: { error: reason, attempts: { increment: 1 }, processed_at: null },
  });
  if (count === 0) return takenOver(transmission, vendor, report);
  await writeLogs([
    {
      ...(vendor ? vendorLog(vendor) : {}),
      action: transmission.partner === "as400" ? "as400_copy" : "send_file",
      status: "error",
      file_name: transmission.file_name,
      transmission_id: transmission.id,
      ...logMessage("logs.dropship.upload_failed", { file: transmission.file_name, path: transmission.remote_path, error: reason }),
    },
  ]);
  report.problem(message("logs.dropship.not_uploaded", { partner: vendor?.name ?? "AS400", file: transmission.file_name, error: errorRunMessage(error) }));
}

/** Another run claimed the file while this one uploaded it (this one's lease lapsed): its outcome is that run's to write. */
async function takenOver(transmission: Transmission, vendor: Pick<Vendor, "id" | "name"> | null, report: StepReport) {
  const problem = message("logs.dropship.taken_over", { partner: vendor?.name ?? "AS400", file: transmission.file_name });
  log.error(englishText(problem));
  report.problem(problem);
}

/** A file another live run is uploading: the summary and the log say which run (D184), instead of a silent "0 files sent". */
async function reportHeld(transmission: Transmission, vendor: Pick<Vendor, "id" | "name"> | null, report: StepReport) {
  const holder = await uploadHolder(transmission.id);
  if (!holder) return; // sent or given up meanwhile: nothing to say
  report.count("files_held");
  const params = {
    file: transmission.file_name,
    run: holder.runId ?? "?",
    feed: holder.feed ?? "?",
    started: (holder.runStartedAt ?? holder.claimedAt).toISOString(),
  };
  report.note(message("dropship_test.results.send_requests_held", params));
  await writeLogs([
    {
      ...(vendor ? vendorLog(vendor) : {}),
      action: transmission.partner === "as400" ? "as400_copy" : "send_requests",
      status: "info",
      file_name: transmission.file_name,
      transmission_id: transmission.id,
      ...logMessage("logs.dropship.upload_held", params),
    },
  ]);
}

async function uploadEach(
  transmissions: Transmission[],
  transport: VendorTransport,
  vendor: Pick<Vendor, "id" | "name"> | null,
  report: StepReport,
  options: UploadLeaseOptions = {},
) {
  // One after another, in the order they were prepared, not several in flight (D131): a vendor (or the AS400) may
  // take files as they appear, and a replacing 850 or a later stock file must never appear before the one it follows.
  for (const transmission of transmissions) {
    // Claimed under a lease (processed_at, ten minutes, renewed while the upload runs): two runs never
    // upload the same file at once, and one that died mid-upload is picked up again after the lease (D69).
    const lease = await claimUpload(transmission.id, options);
    if (!lease) {
      await reportHeld(transmission, vendor, report);
      continue;
    }
    try {
      // A copy queued before AS400 paths were confined (D196) may point anywhere: only its set's root is written.
      if (transmission.partner === "as400" && !insideAs400CopyRoot(transmission.transaction_set, transmission.remote_path)) {
        const root = AS400_COPY_ROOTS[transmission.transaction_set as "810" | "846"] ?? "/as400";
        throw new PathError(transmission.remote_path ?? "", `it is outside ${root}`, { code: "outside_root", params: { folder: root } });
      }
      await lease.hold(async () => {
        // The AS400's folders are ours to lay out; a vendor's must exist (a typo should not create one).
        if (transmission.partner === "as400") await transport.makeFolder(parentOf(transmission.remote_path!));
        await transport.upload(parentOf(transmission.remote_path!), transmission.file_name, Buffer.from(transmission.content));
      });
      crashPoint("after-upload");
    } catch (error) {
      if (!(error instanceof TransportError) && !(error instanceof PathError)) throw error;
      await markFailedAttempt(transmission, vendor, error, report, lease);
      if (error instanceof PathError) continue;
      // A lost connection fails the rest too; a refused folder may be one file's problem.
      if (!["not_found", "permission", "incomplete", "protocol"].includes(error.kind)) return;
      continue;
    }
    if (!(await markSent(transmission, vendor, lease))) {
      await takenOver(transmission, vendor, report);
      continue;
    }
    report.count(transmission.partner === "as400" ? "as400_copies" : "files_sent");
  }
}

const preparedFor = (where: Prisma.TransmissionWhereInput) =>
  prisma.transmission.findMany({ where: { ...where, direction: "out", status: "prepared" }, orderBy: { id: "asc" } });

/** Uploads the vendor's prepared files over an open connection. */
export async function deliverVendorFiles(vendor: Vendor, transport: VendorTransport, report: StepReport, options: UploadLeaseOptions = {}) {
  await uploadEach(await preparedFor({ vendor_id: vendor.id, partner: "vendor" }), transport, vendor, report, options);
}

export async function hasPreparedVendorFiles(vendorId: number) {
  return (await prisma.transmission.count({ where: { vendor_id: vendorId, partner: "vendor", direction: "out", status: "prepared" } })) > 0;
}

/** Uploads the prepared AS400 copies (810 and 846), when the AS400 is configured. */
export async function deliverAs400Copies(report: StepReport, onlySet?: "810" | "846", options: UploadLeaseOptions = {}) {
  // Only the copies: the realtime sales and shipping files have their own feed (realtime_as400_export).
  const pending = await preparedFor({ partner: "as400", transaction_set: onlySet ?? { in: ["810", "846"] } });
  if (pending.length === 0) return;
  const settings = as400ConnectionSettings();
  if (!settings) {
    report.problem(message("logs.dropship.as400_not_configured", { copies: message("logs.n.as400_copy", { count: pending.length }) }));
    return;
  }
  const vendors = new Map(
    (await prisma.vendor.findMany({ where: { id: { in: pending.map((t) => t.vendor_id!).filter(Boolean) } }, select: { id: true, name: true } })).map((v) => [
      v.id,
      v,
    ]),
  );
  try {
    await withAs400Transport(settings, async (transport) => {
      for (const transmission of pending) {
        await uploadEach([transmission], transport, transmission.vendor_id ? (vendors.get(transmission.vendor_id) ?? null) : null, report, options);
      }
    });
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    report.problem(`AS400: ${error.message}`, runMessage("transport.problems.vendor_error", { vendor: "AS400", error: errorRunMessage(error) }));
    await writeLogs([
      {
        action: "as400_copy",
        status: "error",
        ...logMessage("logs.dropship.as400_unreachable", { error: error.message, copies: message("logs.n.copy", { count: pending.length }) }),
      },
    ]);
  }
}
