// Our 997s (D100): one interchange per vendor per run, holding a 997 set for
// every group received since the last one. The idempotency key is the
// acknowledged group, not the reply file:
// - while a file is applied, each group a 997 answers is recorded in
//   `x12_group_ack` (unique on the received file and the group's place in it),
//   in the transaction that marks the file processed: a crash leaves the file
//   and its groups both undone, or both done;
// - after the files, one transaction per vendor takes the groups no 997 carries
//   yet (FOR UPDATE SKIP LOCKED), stores the 997 as a prepared file and stamps
//   the groups with it: a group is in exactly one 997, and a crash before the
//   upload leaves a prepared file the next run uploads (D69).
import { logMessage } from "~/i18n/english.server";
import { message } from "~/i18n/messages";
import prisma from "~/db.server";
import type { Prisma, Vendor } from "~/db/generated/client";
import { answerDelimiters, build997, ack997Interchange, type AckGroup } from "@edi/documents";
import { reserveControlNumbers, type SqlQuery } from "@edi/control-numbers";
import { joinRemote } from "@edi/transport";
import type { TradingProfile } from "@edi/vendor-profile";
import { faultMessage, type Fault } from "@edi/x12";
import type { ReadResult } from "@edi/x12";
import { writeInterchange, x12DateTime } from "@edi/x12";
import { fileLogLine, type ApplyContext } from "./apply-responses.server";
import { ensureVendorSequence, StepReport, vendorLog, vendorProfile, writeLogs, type LogEntry } from "./context.server";
import { storePreparedFile } from "~/transfers/outgoing-files.server";

/** Groups per 997 interchange; more go in the next one of the same run. */
const GROUPS_PER_997 = 5000;

/** What a group's row keeps besides its acknowledgement: the received GS02/GS03, echoed back swapped. */
interface StoredAck {
  group: AckGroup;
  gsSender: string | null;
  gsReceiver: string | null;
}

/**
 * Records the acknowledgement of each group of a received file that a 997
 * answers (the same groups ack997Interchange answers, D73), inside the file's
 * transaction. Answers the acknowledgements, for the file's log line.
 */
export function recordGroupAcks(
  context: ApplyContext,
  profile: TradingProfile,
  result: Pick<ReadResult, "interchanges" | "faults" | "warnings" | "segments">,
  extraFaults: Fault[],
): AckGroup[] {
  // Control numbers are placeholders here: the 997 that carries the groups is numbered when it is written.
  const built = ack997Interchange(result, {
    extraFaults,
    supportedSets: ["997", "855", "856", "810", "846", "865"],
    sender: profile.sender,
    receiver: profile.receiver,
    delimiters: profile.output,
    usage: profile.usage,
    controlNumbers: { interchange: 1, group: 1, transaction: 1 },
  });
  if (built.acknowledgements.length === 0) return [];
  const rows = built.acknowledgements.map((group, k) => {
    const place = built.places[k];
    const gs = result.interchanges[place.interchange].groups[place.group].gs;
    const stored: StoredAck = { group, gsSender: gs?.[2] ?? null, gsReceiver: gs?.[3] ?? null };
    return {
      interchange_index: place.interchange,
      group_index: place.group,
      interchange_control_number: result.interchanges[place.interchange].controlNumber ?? "",
      group_control_number: group.controlNumber,
      functional_id: group.functionalId,
      version: place.version ?? "",
      status: group.status,
      ack: stored,
    };
  });
  // Inserted with the batch's other rows (ApplyBatch.flush); a group recorded before (a re-run of the same file) is kept as it was.
  context.batch.groupAcks.push(...rows.map((row) => ({ ...row, vendor_id: context.vendor.id, received_id: context.transmissionId })));
  return built.acknowledgements;
}

/** Noted faults listed in a file's warning; the 997 carries them all. */
const NOTED_LISTED = 5;

/**
 * The warning for a file applied with faults noted, not refused (D215, D219):
 * a repeated ST02 or GS06, an end-of-file mark, an element a lenient vendor got
 * wrong where the app does not look. The 997 answers those sets E.
 */
export function logNotedFaults(context: ApplyContext, noted: Fault[]) {
  if (noted.length === 0) return;
  context.logs.push({
    ...fileLogLine(context, "warning"),
    ...logMessage("logs.dropship.faults_noted", { file: context.fileName, count: noted.length, faults: noted.slice(0, NOTED_LISTED).map(faultMessage) }),
  });
}

/** GS02/GS03 are AN 2/15: the received ones (swapped) only when they fit, else our IDs. */
const gsId = (value: string | null, fallback: string) =>
  value && /^[A-Za-z0-9][A-Za-z0-9 ._-]{1,14}$/.test(value) && value.trim() === value ? value : fallback;

/**
 * Writes the vendor's 997s for the groups no 997 carries yet: one interchange
 * of GROUPS_PER_997 groups at most, stored as prepared (uploaded by
 * deliverAnswers). Answers how many 997 files were stored.
 */
export async function prepareVendor997s(vendor: Vendor, report?: StepReport): Promise<number> {
  const { profile } = vendorProfile(vendor);
  const folder = vendor.sftp_outcoming_folder;
  if (!folder) return 0;
  const delimiters = answerDelimiters(profile.output);
  if (!delimiters) return 0;
  await ensureVendorSequence(vendor.id);
  let files = 0;
  for (;;) {
    const stored = await prisma.$transaction(
      async (tx) => {
        const waiting = await tx.$queryRaw<Array<{ id: number; received_id: number; version: string; ack: StoredAck }>>`
          SELECT id, received_id, version, ack FROM x12_group_ack
           WHERE vendor_id = ${vendor.id} AND ack_transmission_id IS NULL
           ORDER BY id LIMIT ${GROUPS_PER_997}
           FOR UPDATE SKIP LOCKED`;
        if (waiting.length === 0) return false;
        return write997(tx as Prisma.TransactionClient, vendor, profile, folder, delimiters, waiting);
      },
      { timeout: 120_000 },
    );
    if (!stored) return files;
    files++;
    report?.count("acks_997_prepared");
  }
}

async function write997(
  tx: Prisma.TransactionClient,
  vendor: Vendor,
  profile: TradingProfile,
  folder: string,
  delimiters: NonNullable<ReturnType<typeof answerDelimiters>>,
  waiting: Array<{ id: number; received_id: number; version: string; ack: StoredAck }>,
): Promise<boolean> {
  // One FA group per version family and GS02/GS03 pair: a 005010 group is answered in 005010 (as before, D73).
  const families = new Map<string, typeof waiting>();
  for (const row of waiting) {
    const five = row.version.startsWith("00501");
    const key = `${five ? 5 : 4}\u0000${gsId(row.ack.gsReceiver, profile.sender.id)}\u0000${gsId(row.ack.gsSender, profile.receiver.id)}`;
    families.set(key, [...(families.get(key) ?? []), row]);
  }
  const query: SqlQuery = (sql, params) => tx.$queryRawUnsafe(sql, ...params);
  // ISA13 and each GS06 from the vendor's sequence; ST02 counts within its group.
  const numbers = await reserveControlNumbers(query, vendor.id, 1 + families.size);
  const isa13 = String(numbers[0]).padStart(9, "0");
  const { date6, date8, time } = x12DateTime(new Date());
  const allFive = [...families.keys()].every((key) => key.startsWith("5"));
  const groups = [...families.entries()].map(([key, rows], k) => {
    const [family, sender, receiver] = key.split("\u0000");
    return {
      functionalId: "FA",
      sender,
      receiver,
      date: date8,
      time,
      controlNumber: String(numbers[1 + k]),
      version: family === "5" ? "005010" : "004010",
      transactions: rows.map((row, i) => build997(row.ack.group, String(i + 1).padStart(4, "0"), delimiters)),
    };
  });
  const written = writeInterchange({
    delimiters,
    sender: profile.sender,
    receiver: profile.receiver,
    date: date6,
    time,
    controlNumber: isa13,
    version: allFive ? "00501" : "00401",
    usage: profile.usage,
    groups,
  });
  const name = `997_${vendor.store_id}_${new Date().toISOString().replace(/\D/g, "").slice(0, 14)}_${isa13}.edi`;
  const file = await storePreparedFile(
    {
      vendorId: vendor.id,
      partner: "vendor",
      remotePath: joinRemote(folder, name),
      transactionSet: "997",
      content: Buffer.from(written.text),
      interchangeControlNumber: isa13,
      groupControlNumber: groups[0].controlNumber,
      transactionControlNumbers: groups.flatMap((group) => group.transactions.map((t) => t.controlNumber)),
    },
    tx,
  );
  if (!file) throw new Error(`the 997 ${name} could not be stored (the same file is stored already)`);
  await tx.$executeRaw`UPDATE x12_group_ack SET ack_transmission_id = ${file.id} WHERE id = ANY(${waiting.map((row) => row.id)}::int[])`;
  const rejected = waiting.filter((row) => row.ack.group.status === "rejected" || row.ack.group.status === "partially_accepted").length;
  const received = new Set(waiting.map((row) => row.received_id)).size;
  const logs: LogEntry[] = [
    {
      ...vendorLog(vendor),
      action: "ack_997",
      status: rejected ? "warning" : "info",
      file_name: name,
      transmission_id: file.id,
      ...logMessage("logs.dropship.ack997_queued", {
        name,
        groups: message("logs.n.group", { count: waiting.length }),
        files: message("logs.n.received_file", { count: received }),
        rejected: rejected ? message("logs.dropship.ack997_rejected", { count: rejected }) : "",
      }),
    },
  ];
  await writeLogs(logs, tx);
  return true;
}

/** Prepares the 997s of every vendor with groups waiting (after a run's files are applied). */
export async function prepareWaiting997s(report: StepReport, vendorIds?: number[]) {
  const rows = await prisma.$queryRaw<Array<{ vendor_id: number }>>`SELECT DISTINCT vendor_id FROM x12_group_ack WHERE ack_transmission_id IS NULL`;
  const ids = rows.map((row) => row.vendor_id).filter((id) => !vendorIds || vendorIds.includes(id));
  if (ids.length === 0) return;
  for (const vendor of await prisma.vendor.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } })) {
    try {
      await prepareVendor997s(vendor, report);
    } catch (error) {
      // The groups stay waiting: the next run writes their 997.
      report.problem(message("logs.dropship.ack997_not_written", { vendor: vendor.name, error: (error as Error).message }));
    }
  }
}
