// The realtime_as400_export feed (D26): the realtime log rows pending for the
// AS400 go out as files (docs/as400-files.md). Each run:
// 1. packs the pending rows that are in no file yet into files, one kind per
//    file (sales/refunds, shipments), at most FILE_ROWS rows each. A file is
//    stored as a prepared transmission (content and hash) in the transaction
//    that ties its rows to it, so a row is in exactly one file, forever;
// 2. uploads every prepared realtime file, oldest first. Uploaded: the file is
//    sent and its rows are sent, with the file name and time. Not uploaded
//    (the AS400 down, a folder refused): the rows are failed with the error,
//    and the same file (same name, same content) is uploaded at the next run.
// A row that is sent is never packed or uploaded again. A crash between the
// upload and recording it leaves the file prepared: the next run uploads it
// again under the same name, replacing the copy the AS400 has not taken yet
// (the AS400 treats a file name it has read before as read: docs/as400-files.md).
import prisma from "~/db.server";
import type { Prisma, Transmission } from "~/db/generated/client";
import { storePreparedFile } from "~/transfers/outgoing-files.server";
import { claimUpload, type UploadLease, type UploadLeaseOptions } from "~/transfers/upload-lease.server";
import { as400ConnectionSettings, withAs400Transport } from "~/as400/connection.server";
import type { FeedOutcome, FeedRunContext } from "~/feeds/runner.server";
import { TransportError } from "@edi/transport";
import { englishText } from "~/i18n/english.server";
import { message, type RunMessage } from "~/i18n/messages";
import { REALTIME_SALES_FILE, REALTIME_SHIPPING_FILE, realtimeCsv, realtimeFileName, type PendingRow, type RealtimeFileKind } from "./realtime-files";

/** Rows per file: a day's burst fits in a few files, and a file stays small enough to look at. */
export const FILE_ROWS = 2000;

interface LogKind extends RealtimeFileKind {
  table: "realtime_sales_log" | "realtime_shipping_log";
  /** Both logs have the same outbox columns. */
  model(tx: Prisma.TransactionClient): OutboxTable;
}

interface OutboxTable {
  updateMany(args: {
    where: Record<string, unknown>;
    data: Partial<{
      as400_status: string;
      as400_error: string | null;
      as400_attempts: { increment: number };
      as400_sent_at: Date;
      as400_transmission_id: number;
      as400_file_name: string;
    }>;
  }): Promise<{ count: number }>;
}

const SALES: LogKind = {
  ...REALTIME_SALES_FILE,
  table: "realtime_sales_log",
  model: (tx) => tx.realtimeSalesLog as unknown as OutboxTable,
};

const SHIPPING: LogKind = {
  ...REALTIME_SHIPPING_FILE,
  table: "realtime_shipping_log",
  model: (tx) => tx.realtimeShippingLog as unknown as OutboxTable,
};

const KINDS = [SALES, SHIPPING];

/** Packs pending rows that are in no file into files; returns how many files were made. */
async function packPendingRows(kind: LogKind, now: Date): Promise<{ files: number; rows: number; unreadable: number }> {
  const made = { files: 0, rows: 0, unreadable: 0 };
  for (;;) {
    const packed = await prisma.$transaction(
      async (tx) => {
        // Locked and skipped: two runs at once (the feed's lock allows one, but a direct call may race it) never pack a row twice.
        const rows = await tx.$queryRawUnsafe<PendingRow[]>(
          `SELECT id, payload, created_at FROM ${kind.table}
          WHERE as400_status = 'pending' AND as400_transmission_id IS NULL
          ORDER BY id LIMIT ${FILE_ROWS} FOR UPDATE SKIP LOCKED`,
        );
        if (rows.length === 0) return null;
        const lines: string[][] = [];
        const good: number[] = [];
        for (const row of rows) {
          const out = kind.lines(row);
          if ("error" in out) {
            // Nothing sensible to send: set aside with the reason, never blocking the others.
            await kind.model(tx).updateMany({
              where: { id: row.id },
              data: { as400_status: "failed", as400_error: `Not sent: ${out.error}.`, as400_attempts: { increment: 1 } },
            });
            made.unreadable++;
            continue;
          }
          lines.push(...out);
          good.push(row.id);
        }
        if (good.length === 0) return { rows: 0 };
        const fileName = realtimeFileName(kind.prefix, now, good[0], good[good.length - 1]);
        const stored = await storePreparedFile(
          { vendorId: null, partner: "as400", remotePath: `${kind.folder}/${fileName}`, transactionSet: kind.set, content: realtimeCsv(kind.header, lines) },
          tx,
        );
        if (!stored) throw new Error(`${fileName} was stored before: the rows ${good[0]}-${good[good.length - 1]} would be sent twice.`);
        await kind.model(tx).updateMany({ where: { id: { in: good } }, data: { as400_transmission_id: stored.id, as400_file_name: fileName } });
        return { rows: good.length };
      },
      { timeout: 60_000 },
    );
    if (!packed) return made;
    if (packed.rows) {
      made.files++;
      made.rows += packed.rows;
    }
  }
}

const kindOf = (transmission: Pick<Transmission, "transaction_set">) => KINDS.find((kind) => kind.set === transmission.transaction_set)!;

/** Null when another run took the file over while this one uploaded it (its outcome is that run's). */
async function markFileSent(transmission: Transmission, lease: UploadLease): Promise<number | null> {
  return prisma.$transaction(async (tx) => {
    const now = new Date();
    const { count: claimed } = await tx.transmission.updateMany({
      where: { id: transmission.id, status: "prepared", processed_at: lease.claimedAt },
      data: { status: "sent", error: null, attempts: { increment: 1 }, processed_at: now },
    });
    if (claimed === 0) return null;
    const { count } = await kindOf(transmission)
      .model(tx)
      .updateMany({
        where: { as400_transmission_id: transmission.id },
        data: { as400_status: "sent", as400_sent_at: now, as400_error: null, as400_attempts: { increment: 1 } },
      });
    return count;
  });
}

async function markFileFailed(transmission: Transmission, message: string, lease?: UploadLease): Promise<number> {
  return prisma.$transaction(async (tx) => {
    // The lease ends: the next run uploads it again (unless another run has taken the file over).
    const { count: claimed } = await tx.transmission.updateMany({
      where: { id: transmission.id, ...(lease ? { status: "prepared", processed_at: lease.claimedAt } : {}) },
      data: { error: message, attempts: { increment: 1 }, processed_at: null },
    });
    if (claimed === 0) return 0;
    const { count } = await kindOf(transmission)
      .model(tx)
      .updateMany({
        where: { as400_transmission_id: transmission.id, as400_status: { not: "sent" } },
        data: { as400_status: "failed", as400_error: `${message}. Sent again at the next run.`, as400_attempts: { increment: 1 } },
      });
    return count;
  });
}

/** Rows still to send: pending, or failed in a file that is uploaded again. */
const WAITING = { OR: [{ as400_status: "pending" }, { as400_status: "failed", as400_transmission_id: { not: null } }] };
const waitingRows = async () => (await prisma.realtimeSalesLog.count({ where: WAITING })) + (await prisma.realtimeShippingLog.count({ where: WAITING }));

/** A run's message: its English text and its code (D116). */
const coded = (value: RunMessage) => ({ message: englishText(value), messageCode: value });

/** The feed: pack, then upload every prepared realtime file. */
export async function exportRealtimeLogs(_context?: FeedRunContext, options: UploadLeaseOptions = {}): Promise<FeedOutcome> {
  const settings = as400ConnectionSettings();
  if (!settings) {
    const waiting = await waitingRows();
    if (waiting === 0) return { ...coded(message("logs.realtime_export.nothing")), meta: { rows_sent: 0 } };
    return { ...coded(message("logs.realtime_export.not_configured", { rows: waiting })), error: true, meta: { waiting_rows: waiting } };
  }

  const now = new Date();
  const packed = { files: 0, rows: 0, unreadable: 0 };
  for (const kind of KINDS) {
    const made = await packPendingRows(kind, now);
    packed.files += made.files;
    packed.rows += made.rows;
    packed.unreadable += made.unreadable;
  }

  const files = await prisma.transmission.findMany({
    where: { partner: "as400", direction: "out", status: "prepared", transaction_set: { in: KINDS.map((kind) => kind.set) } },
    orderBy: { id: "asc" },
  });
  const result = { files_sent: 0, rows_sent: 0, files_failed: 0, rows_failed: 0, files_new: packed.files, rows_unreadable: packed.unreadable };
  // As codes (D116); the file and its rows keep the English text of the failure.
  const problems: RunMessage[] = [];
  const fileProblem = (file: Transmission, problem: RunMessage) => message("logs.realtime_export.file_problem", { file: file.file_name, problem });
  const fail = async (file: Transmission, problem: RunMessage, lease?: UploadLease) => {
    result.files_failed++;
    result.rows_failed += await markFileFailed(file, englishText(problem), lease);
    problems.push(fileProblem(file, problem));
  };

  if (files.length) {
    let done = 0;
    try {
      await withAs400Transport(settings, async (transport) => {
        for (const file of files) {
          // Claimed under a lease renewed while it uploads (processed_at, as outbound.server.ts does, D69):
          // runs are one at a time through the feed's lock, but a direct call must not upload a file twice either.
          const lease = await claimUpload(file.id, options);
          if (!lease) {
            done++;
            continue;
          }
          try {
            await lease.hold(async () => {
              await transport.makeFolder(kindOf(file).folder);
              await transport.upload(kindOf(file).folder, file.file_name, Buffer.from(file.content));
            });
          } catch (error) {
            if (!(error instanceof TransportError)) throw error;
            await fail(file, message("logs.realtime_export.upload_failed", { file: file.file_name, error: error.message }), lease);
            done++;
            // A lost connection fails the rest too (caught below); a refused folder may be one file's problem.
            if (error.isConnectionFault) throw error;
            continue;
          }
          const sent = await markFileSent(file, lease);
          done++;
          if (sent === null) {
            problems.push(fileProblem(file, message("logs.realtime_export.claimed_elsewhere")));
            continue;
          }
          result.files_sent++;
          result.rows_sent += sent;
        }
      });
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      for (const file of files.slice(done)) await fail(file, message("logs.realtime_export.unreachable", { error: error.message }));
    }
  }

  if (files.length === 0 && result.rows_unreadable === 0) return { ...coded(message("logs.realtime_export.nothing")), meta: result };
  const parts: RunMessage[] = [message("logs.realtime_export.sent", { rows: result.rows_sent, files: result.files_sent })];
  if (result.rows_failed)
    parts.push(message("logs.realtime_export.not_sent", { rows: result.rows_failed, files: result.files_failed, problems: problems.slice(0, 3) }));
  if (result.rows_unreadable) parts.push(message("logs.realtime_export.set_aside", { rows: result.rows_unreadable }));
  const listed = problems.slice(0, 20);
  return {
    ...coded(message("logs.list", { items: parts })),
    error: result.files_failed > 0 || result.rows_unreadable > 0,
    meta: { ...result, problems: listed.map(englishText), ...(listed.length ? { problem_codes: listed } : {}) },
  };
}
