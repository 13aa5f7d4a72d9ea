// The vendor's answer to our cancellations (D225), whatever carried it: an
// 865, an 855 that acknowledges the change, the cancellation-answer CSV, or a
// 997 that rejects our cancellation file. Each answer settles the cancellation
// it names (by PO and change number, else the PO's oldest one awaiting an
// answer) through app/sales, so the request and the assignment move together,
// in the transaction that marks the vendor's file processed; a slice of
// answers costs a few statements, not a few per answer.
import { logMessage } from "~/i18n/english.server";
import type { CancellationAnswer } from "@edi/cancellations";
import { settleCancellations } from "~/sales/vendor-cancellations.server";
import { fileLogLine, type ApplyContext } from "./apply-responses.server";

/** The response row's type for each carrier of answers (Drop Shipping Responses). */
export type AnswerCarrier = "865" | "855" | "csv";

interface SentCancellation {
  id: number;
  vendor_id: number;
  po_number: string;
  change_number: number;
  qty: number;
  request_id: number;
  assignment_id: number;
  order_increment_id: string;
  item_sku: string;
}

/** The cancellations awaiting an answer of these POs, oldest change first: one statement for a slice of answers. */
async function sentCancellations(context: ApplyContext, poNumbers: string[]) {
  const rows = await context.tx.$queryRaw<SentCancellation[]>`
    SELECT c.id, c.vendor_id, c.po_number, c.change_number, c.qty, r.request_id, r.assignment_id, r.order_increment_id, r.item_sku
      FROM dropship_cancellation c JOIN dropship_request r ON r.request_id = c.request_id
     WHERE c.po_number = ANY(${[...new Set(poNumbers)]}::text[]) AND c.status = 'sent'
     ORDER BY c.po_number, c.change_number`;
  const byPo = new Map<string, SentCancellation[]>();
  for (const row of rows) byPo.set(row.po_number, [...(byPo.get(row.po_number) ?? []), row]);
  return byPo;
}

/**
 * Settles what the answers name, a slice at a time (an 865 file may carry thousands of sets): the
 * cancellations looked up in one statement, settled in a few (settleCancellations), their request
 * statuses handed to the batch so later lines of the run see them.
 */
export async function applyCancellationAnswers(context: ApplyContext, answers: CancellationAnswer[], carrier: AnswerCarrier) {
  if (answers.length === 0) return;
  // Settling writes requests directly: the batch's own moves go first.
  await context.batch.flush();
  const waiting = await sentCancellations(
    context,
    answers.map((answer) => answer.poNumber),
  );
  const file = { name: context.fileName, transmissionId: context.transmissionId };
  const matched: Array<{ answer: CancellationAnswer; cancellation: SentCancellation; note: string | null }> = [];
  const taken = new Set<number>();
  for (const answer of answers) {
    const cancellation = (waiting.get(answer.poNumber) ?? []).find(
      (each) => !taken.has(each.id) && (answer.changeNumber === undefined || each.change_number === answer.changeNumber),
    );
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
    taken.add(cancellation.id);
    matched.push({ answer, cancellation, note: [answer.reason, ...answer.lines.map((line) => line.reason)].filter(Boolean).join("; ") || null });
  }
  const { logs } = await settleCancellations(
    context.tx,
    matched.map(({ answer, cancellation, note }) => ({ cancellationId: cancellation.id, outcome: answer.outcome, file, codes: answer.codes, note })),
  );
  context.logs.push(...logs);
  const statuses = await context.tx.dropshipRequest.findMany({
    where: { request_id: { in: matched.map((each) => each.cancellation.request_id) } },
    select: { po_number: true, status: true },
  });
  for (const request of statuses) context.batch.statusWritten(request.po_number, request.status);
  for (const { answer, cancellation, note } of matched) {
    context.batch.addResponse({
      request_id: cancellation.request_id,
      vendor_id: context.vendor.id,
      vendor_name: context.vendor.name,
      assignment_id: cancellation.assignment_id,
      po_number: answer.poNumber,
      order_increment_id: cancellation.order_increment_id,
      response_type: carrier,
      transmission_id: context.transmissionId,
      item_sku: cancellation.item_sku,
      qty: cancellation.qty,
      line_status: answer.outcome === "accepted" ? "cancel_accepted" : "cancel_refused",
      detail: [answer.codes.join(" "), note].filter(Boolean).join(": ") || null,
      status: "processed",
      needs_processing: false,
      processed: true,
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
  const refused = cancellations.filter(
    (cancellation, i) => cancellation.status === "sent" && (rejectedSets === "all" || rejectedSets.has(sent.transaction_control_numbers[i] ?? "")),
  );
  const { logs } = await settleCancellations(
    context.tx,
    refused.map((cancellation) => ({
      cancellationId: cancellation.id,
      outcome: "refused" as const,
      file: { name: context.fileName, transmissionId: context.transmissionId },
      codes: ["997"],
      note: `the vendor's 997 rejected ${fileName}`,
    })),
  );
  context.logs.push(...logs);
  const statuses = await context.tx.dropshipRequest.findMany({
    where: { request_id: { in: refused.map((cancellation) => cancellation.request_id) } },
    select: { po_number: true, status: true },
  });
  for (const request of statuses) context.batch.statusWritten(request.po_number, request.status);
  return true;
}
