// What a vendor file queues to go out with it (Process Ship Responses): the
// AS400 copy of an 810 or 846, and the 997 and TA1 we answer with.
import { logMessage } from "~/i18n/english.server";
import { message } from "~/i18n/messages";
import { echoableGroup } from "@edi/documents";
import { ta1Interchanges, planTa1 } from "@edi/documents";
import { addControlNumber, reserveControlNumbers, type SqlQuery } from "@edi/control-numbers";
import { joinRemote, remoteEntryPath } from "@edi/transport";
import { PathError } from "@edi/transport";
import { as400CopyFolder } from "~/as400/copy-folders";
import type { TradingProfile } from "@edi/vendor-profile";
import { type Fault } from "@edi/x12";
import { type ReadResult } from "@edi/x12";
import { as400ConnectionSettings } from "~/as400/connection.server";
import { recordGroupAcks } from "./ack-997.server";
import { type ApplyContext } from "./apply-responses.server";
import { vendorLog } from "./context.server";
import { storePreparedFile } from "~/transfers/outgoing-files.server";
import { storedBytes } from "./stored-content.server";

/** The copy of the vendor's file for the AS400, queued with the file (sent after the transaction). */
export async function queueAs400Copy(context: ApplyContext & { content?: Buffer }, set: "810" | "846", folder: string | null) {
  if (!folder) return;
  const base = { ...vendorLog(context.vendor), action: "as400_copy" as const, file_name: context.fileName, transmission_id: context.transmissionId };
  if (!as400ConnectionSettings()) {
    context.logs.push({ ...base, status: "warning", ...logMessage("logs.dropship.copy_not_configured", { set, folder }) });
    return;
  }
  let remotePath: string;
  try {
    // The vendor's folder inside the set's AS400 root (D196), and its file name, from its listing: a name
    // that is a path would land in another AS400 folder (D61).
    remotePath = remoteEntryPath(as400CopyFolder(set, folder), context.fileName);
  } catch (error) {
    if (!(error instanceof PathError)) throw error;
    context.logs.push({ ...base, status: "error", ...logMessage("logs.dropship.copy_bad_path", { set, folder, error: error.message }) });
    return;
  }
  // The copy goes out as it came, whatever the invoice check found; the log says when lines do not match their PO (D242).
  const mismatches = set === "810" ? (context.batch.invoiceMismatches.get(context.transmissionId) ?? 0) : 0;
  if (mismatches)
    context.logs.push({ ...base, status: "warning", ...logMessage("logs.dropship.copy_with_mismatches", { file: context.fileName, count: mismatches }) });
  const original = { content: await storedBytes(context.tx, context.transmissionId) };
  await storePreparedFile(
    {
      vendorId: context.vendor.id,
      partner: "as400",
      remotePath,
      transactionSet: set,
      content: original.content,
      replyToId: context.transmissionId,
    },
    context.tx,
  );
}

/**
 * What answers the file (D73): a 997 for every group a 997 can name (never for
 * FA groups: a 997 or 999 is not acknowledged), recorded per group and written
 * once per vendor and run (D100, ack-997.server.ts), and a TA1 for each
 * interchange that asked for one (ISA14 = 1) or whose envelope is at fault and
 * cannot carry a 997, queued with the file. Both under the vendor's `997_enabled`.
 */
export async function queueAck997(
  context: ApplyContext,
  profile: TradingProfile,
  result: Pick<ReadResult, "interchanges" | "faults" | "warnings" | "segments">,
  extraFaults: Fault[],
) {
  if (context.vendor.edi997_enabled !== 1) return;
  const answers = planTa1(result, { delimiters: profile.output });
  const groups = result.interchanges.flatMap((interchange) => interchange.groups.filter((group) => group.functionalId !== "FA" && echoableGroup(group)));
  if (groups.length === 0 && answers.length === 0) return; // never acknowledge an acknowledgement
  const folder = context.vendor.sftp_outcoming_folder;
  if (!folder) {
    context.logs.push({
      ...vendorLog(context.vendor),
      action: "ack_997",
      status: "warning",
      file_name: context.fileName,
      transmission_id: context.transmissionId,
      ...logMessage("logs.dropship.no_outcoming_folder", { set: groups.length ? "997" : "TA1" }),
    });
    return;
  }
  if (groups.length) {
    const acknowledged = recordGroupAcks(context, profile, result, extraFaults);
    if (acknowledged.length) {
      const rejected = acknowledged.some((group) => group.status === "rejected" || group.status === "partially_accepted");
      context.logs.push({
        ...vendorLog(context.vendor),
        action: "ack_997",
        status: rejected ? "warning" : "info",
        file_name: context.fileName,
        transmission_id: context.transmissionId,
        ...logMessage("logs.dropship.file_997", {
          file: context.fileName,
          vendor: context.vendor.name,
          groups: acknowledged.map((group) => message(`logs.dropship.group_status.${group.status}`, { group: group.controlNumber })),
        }),
      });
    }
  }
  if (answers.length) {
    const query: SqlQuery = (sql, params) => context.tx.$queryRawUnsafe(sql, ...params);
    // One number per TA1; consecutive (a wrap from 999999999 to 1 counts as consecutive).
    let numbers = await reserveControlNumbers(query, context.vendor.id, answers.length);
    while (numbers.some((n, i) => i > 0 && n !== addControlNumber(numbers[i - 1])))
      numbers = await reserveControlNumbers(query, context.vendor.id, answers.length);
    const first = numbers[0];
    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const ta1 = ta1Interchanges(result, {
      delimiters: profile.output,
      sender: profile.sender,
      receiver: profile.receiver,
      usage: profile.usage,
      controlNumber: first,
    });
    const name = `TA1_${context.vendor.store_id}_${stamp}_${String(first).padStart(9, "0")}.edi`;
    await storePreparedFile(
      {
        vendorId: context.vendor.id,
        partner: "vendor",
        remotePath: joinRemote(folder, name),
        transactionSet: "TA1",
        content: Buffer.from(ta1.text),
        interchangeControlNumber: String(first).padStart(9, "0"),
        replyToId: context.transmissionId,
      },
      context.tx,
    );
    const rejected = ta1.answers.some((answer) => answer.code !== "A");
    context.logs.push({
      ...vendorLog(context.vendor),
      action: "ack_997",
      status: rejected ? "warning" : "info",
      file_name: name,
      transmission_id: context.transmissionId,
      ...logMessage("logs.dropship.ta1_queued", {
        name,
        file: context.fileName,
        answers: ta1.answers.map((answer) =>
          message(`logs.dropship.ta1_answer.${answer.code === "A" || answer.code === "E" ? answer.code : "R"}`, {
            number: answer.controlNumber,
            note: answer.note,
          }),
        ),
      }),
    });
  }
}
