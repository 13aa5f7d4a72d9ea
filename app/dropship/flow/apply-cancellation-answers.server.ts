// The vendor's answer to our cancellations (D225), whatever carried it: an
// 865, an 855 that acknowledges the change, the cancellation-answer CSV, or a
// 997 that rejects our cancellation file. Each answer settles the cancellation
// it names (by PO and change number, else the PO's oldest one awaiting an
// answer) through app/sales, so the request and the assignment move together,
// in the transaction that marks the vendor's file processed.
import { logMessage } from "~/i18n/english.server";
import type { CancellationAnswer } from "@edi/cancellations";
import { settleCancellation } from "~/sales/vendor-cancellations.server";
import { fileLogLine, type ApplyContext } from "./apply-responses.server";

/** The response row's type for each carrier of answers (Drop Shipping Responses). */
export type AnswerCarrier = "865" | "855" | "csv";

async function cancellationFor(context: ApplyContext, answer: CancellationAnswer) {
  return context.tx.dropshipCancellation.findFirst({
    where: {
      po_number: answer.poNumber,
      status: "sent",
      ...(answer.changeNumber !== undefined ? { change_number: answer.changeNumber } : {}),
    },
    orderBy: { change_number: "asc" },
    select: { id: true, vendor_id: true, qty: true, request: { select: { request_id: true, assignment_id: true, order_increment_id: true, item_sku: true } } },
  });
}

export async function applyCancellationAnswers(context: ApplyContext, answers: CancellationAnswer[], carrier: AnswerCarrier) {
  // Settling writes requests directly: the batch's own moves go first, and later files see what settling wrote.
  await context.batch.flush();
  for (const answer of answers) {
    const cancellation = await cancellationFor(context, answer);
    const codes = answer.codes.join(" ");
    if (!cancellation || cancellation.vendor_id !== context.vendor.id) {
      context.logs.push({
        ...fileLogLine(context, "warning"),
        po_number: answer.poNumber,
        ...logMessage("cancellations.log.answer_unmatched", {
          po: answer.poNumber,
          change: answer.changeNumber ?? "",
          outcome: answer.outcome,
          file: context.fileName,
        }),
      });
      continue;
    }
    const note = [answer.reason, ...answer.lines.map((line) => line.reason)].filter(Boolean).join("; ") || null;
    const settled = await settleCancellation(context.tx, {
      cancellationId: cancellation.id,
      outcome: answer.outcome,
      file: { name: context.fileName, transmissionId: context.transmissionId },
      codes: answer.codes,
      note,
    });
    const request = await context.tx.dropshipRequest.findUniqueOrThrow({ where: { request_id: cancellation.request.request_id }, select: { status: true } });
    context.batch.statusWritten(answer.poNumber, request.status);
    context.batch.addResponse({
      request_id: cancellation.request.request_id,
      vendor_id: context.vendor.id,
      vendor_name: context.vendor.name,
      assignment_id: cancellation.request.assignment_id,
      po_number: answer.poNumber,
      order_increment_id: cancellation.request.order_increment_id,
      response_type: carrier,
      transmission_id: context.transmissionId,
      item_sku: cancellation.request.item_sku,
      qty: cancellation.qty,
      line_status: answer.outcome === "accepted" ? "cancel_accepted" : "cancel_refused",
      detail: [codes, note].filter(Boolean).join(": ") || null,
      status: "processed",
      needs_processing: false,
      processed: true,
    });
    if (settled.already)
      context.logs.push({
        ...fileLogLine(context, "info"),
        po_number: answer.poNumber,
        ...logMessage("cancellations.log.answer_again", { po: answer.poNumber, file: context.fileName }),
      });
  }
}

/** A 997 that rejects our cancellation file, or some of its sets: those cancellations are refused (D225). */
export async function refuseRejectedCancellations(context: ApplyContext, transmissionId: number, rejectedSets: Set<string> | "all", fileName: string) {
  const sent = await context.tx.transmission.findUniqueOrThrow({ where: { id: transmissionId }, select: { transaction_control_numbers: true } });
  const cancellations = await context.tx.dropshipCancellation.findMany({ where: { transmission_id: transmissionId }, orderBy: { id: "asc" } });
  if (cancellations.length === 0) return false;
  await context.batch.flush();
  // The file's sets were written in cancellation order: ST02 i is cancellation i (a CSV has no sets: all or nothing).
  for (const [i, cancellation] of cancellations.entries()) {
    if (rejectedSets !== "all" && !rejectedSets.has(sent.transaction_control_numbers[i] ?? "")) continue;
    if (cancellation.status !== "sent") continue;
    await settleCancellation(context.tx, {
      cancellationId: cancellation.id,
      outcome: "refused",
      file: { name: context.fileName, transmissionId: context.transmissionId },
      codes: ["997"],
      note: `the vendor's 997 rejected ${fileName}`,
    });
    const request = await context.tx.dropshipRequest.findUniqueOrThrow({ where: { request_id: cancellation.request_id }, select: { status: true } });
    context.batch.statusWritten(cancellation.po_number, request.status);
  }
  return true;
}
