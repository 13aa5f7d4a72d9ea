// Drop Ship Tools for cancellations (issue 29 item 5, D234): Send Cancellation
// asks the vendor to cancel a PO it has and sends the file now; Vendor Testing's
// Send Cancellation Answer plays the vendor, answering our latest cancellation
// of a PO as cancellation-answers.ts would (accepted, or refused when shipped)
// into the vendor's Cancellation Pull Folder. Parse (and Process) Cancellation
// Answer is manual.server.ts's parseFile with the answer's reader.
import prisma from "~/db.server";
import type { DropshipRequest, Vendor } from "~/db/generated/client";
import { ValidationError } from "~/lib/validation.server";
import { joined, message, type RunMessage } from "~/runs/messages";
import { askVendorToCancel } from "~/sales/assignment-changes.server";
import { reserveControlNumbers, type SqlQuery } from "@edi/control-numbers";
import { ensureVendorSequence, ourIdentity, vendorProfile } from "../flow/context.server";
import { sendShipRequests } from "../flow/send-requests.server";
import { withVendorTransport } from "../vendor-connection.server";
import { answerCancellationFile } from "./cancellation-answers";
import { assertConnectable, refuse, requestOf, type Outcome } from "./outcome.server";

const query: SqlQuery = (sql, params) => prisma.$queryRawUnsafe(sql, ...params);

/** Request statuses past which a vendor cannot be asked any more: it shipped. */
const SHIPPED = ["shipped", "invoiced", "completed", "archived"];

/** Where a vendor's answers to our cancellations arrive: its Cancellation Pull Folder, else its Incoming Folder. */
export const cancellationPullFolder = (vendor: Pick<Vendor, "sftp_cancellation_pull_folder" | "sftp_incoming_folder">) =>
  vendor.sftp_cancellation_pull_folder?.trim() || vendor.sftp_incoming_folder?.trim() || null;

/**
 * Asks the vendor that has this request to cancel it (unless a cancellation of it waits to go already):
 * the rules of Send Cancellation, refused with its words (ToolRefusal). Nothing is sent here: Send
 * Cancellation sends the file at once, the requests grid's bulk Cancel at vendor leaves it to the next
 * Send Ship Requests (D271). Answers whether this call queued it.
 */
export async function queueCancellation(request: DropshipRequest): Promise<{ queuedNow: boolean }> {
  const po = request.po_number;
  const name = request.vendor_name;
  const queued = await prisma.dropshipCancellation.count({ where: { request_id: request.request_id, status: "pending" } });
  if (queued) return { queuedNow: false };
  if (request.status === "pending" && request.transmission_id === null) refuse("tools.cancellations.not_sent", { po }, { po });
  if (request.status === "rejected") refuse("tools.cancellations.rejected", { po, name }, { po });
  if (SHIPPED.includes(request.status)) refuse("tools.cancellations.shipped", { po, name, status: message(`requests.statuses.${request.status}`) }, { po });
  if (["cancel_requested", "cancelled", "cancel_refused"].includes(request.status))
    refuse("tools.cancellations.already", { po, status: message(`requests.statuses.${request.status}`) }, { po });
  try {
    await askVendorToCancel(request.assignment_id);
  } catch (error) {
    // The assignment's own rules (a DNH, Complete…): the same words staff see on Awaiting Assignment.
    if (error instanceof ValidationError)
      refuse("tools.cancellations.refused", { po, reason: joined(Object.values(error.errors).flat() as RunMessage[], " ") }, { po });
    throw error;
  }
  return { queuedNow: true };
}

export async function sendCancellation(vendor: Vendor, po: string): Promise<Outcome> {
  assertConnectable(vendor);
  if (vendor.enabled !== 1) refuse("tools.messages.disabled", { name: vendor.name });
  const request = await requestOf(vendor, po);
  await queueCancellation(request);
  const result = await sendShipRequests({ vendorId: vendor.id });
  return {
    error: result.error,
    text: message("tools.cancellations.sent", { po, name: vendor.name, result: result.summary ?? result.message }),
    po,
    sku: request.item_sku,
  };
}

export async function answerCancellation(vendor: Vendor, po: string): Promise<Outcome> {
  assertConnectable(vendor);
  const folder = cancellationPullFolder(vendor);
  if (!folder) refuse("tools.messages.no_incoming", { name: vendor.name });
  const { problemCodes: problems } = vendorProfile(vendor);
  if (problems.length) refuse("tools.messages.vendor_settings", { name: vendor.name, problems: joined(problems, "; ") });
  const request = await requestOf(vendor, po);
  const cancellation = await prisma.dropshipCancellation.findFirst({
    where: { request_id: request.request_id, status: "sent", transmission_id: { not: null } },
    orderBy: { change_number: "desc" },
    include: { transmission: true },
  });
  if (!cancellation?.transmission) return refuse("tools.cancellations.none_sent", { po, name: vendor.name }, { po });
  await ensureVendorSequence(vendor.id);
  const [start] = await reserveControlNumbers(query, vendor.id, 8);
  const shipped = SHIPPED.includes(request.status);
  const answer = answerCancellationFile(vendor as never, cancellation.transmission.file_name, Buffer.from(cancellation.transmission.content), {
    now: new Date(),
    controlNumberStart: start,
    ours: ourIdentity(),
    refusal: (each) => (each === po && shipped ? "shipped" : null),
  });
  if ("error" in answer) return refuse("tools.messages.answer_failed", { reason: answer.error }, { po });
  // The file may hold other POs' cancellations: only this PO's answer goes up, as Send 855 answers one PO.
  const index = answer.answered.findIndex((each) => each.poNumber === po);
  const file = answer.files.length === answer.answered.length ? answer.files[index] : answer.files[0];
  if (!file) return refuse("tools.messages.answer_failed", { reason: `no answer for ${po} was built` }, { po });
  const path = await withVendorTransport(vendor, (transport) => transport.upload(folder!, file.name, Buffer.from(file.content)));
  return {
    error: false,
    text: message(shipped ? "tools.cancellations.answered_refused" : "tools.cancellations.answered", { file: file.name, path, po, name: vendor.name }),
    po,
    sku: request.item_sku,
    file: file.name,
  };
}
