// Send Ship Requests, second half (D225): the vendor's cancellations waiting to
// go (app/sales/vendor-cancellations.server.ts queues them) are claimed and
// written into one file in the vendor's cancellation format (an 860, an 850
// with BEG01 01/05, or the cancellation CSV), stored as a prepared
// transmission in the same transaction, and uploaded with the vendor's other
// prepared files, after them: a cancellation never reaches a vendor before the
// PO it cancels. The upload marks them sent (outbound.server.ts).
import { englishText, logMessage } from "~/i18n/english.server";
import prisma from "~/db.server";
import { message } from "~/i18n/messages";
import { Prisma, type Vendor } from "~/db/generated/client";
import { reserveControlNumbers, reserveInterchangeNumbers, type SqlQuery } from "@edi/control-numbers";
import { cancellationInterchange, writeCancellationCsv, type CancellationFormat, type CancellationOrder } from "@edi/cancellations";
import { CsvWriteError } from "@edi/csv";
import { joinRemote } from "@edi/transport";
import type { TradingProfile } from "@edi/vendor-profile";
import { settleCancellations } from "~/sales/vendor-cancellations.server";
import { storePreparedFile } from "~/transfers/outgoing-files.server";
import { StepReport, vendorLog, writeLogs, type LogEntry } from "./context.server";
import { shipToOf } from "./ship-to";

type Tx = Prisma.TransactionClient;

/** Cancellations per file; more wait for the next run. */
const MAX_PER_FILE = 5000;

/** Request statuses in which the vendor no longer needs telling: it never took the PO, or shipped it. */
const NOT_THEIRS = ["rejected"];
const SHIPPED = ["shipped", "invoiced", "completed", "archived"];

interface Claimed {
  id: number;
  po_number: string;
  qty: number;
  whole: boolean;
  change_number: number;
  cause: string;
  request_id: number;
  request_status: string;
  order_increment_id: string;
  item_sku: string;
  request_qty: number;
  qty_cancelled: number;
  unit_cost: string | null;
  sent_at: Date | null;
  created_at: Date;
  ship_name_first: string;
  ship_name_last: string;
  ship_address: string;
  ship_city: string;
  ship_state: string;
  ship_zip: string;
  country_id: string;
  /** Units of the PO other cancellations already asked for and the vendor has not refused. */
  asked_before: number;
}

/** The vendor's cancellation format: its own setting when it fits its EDI format, else 860 (X12) or the CSV. */
export function cancellationFormatOf(vendor: Pick<Vendor, "cancellation_format">, profile: Pick<TradingProfile, "format">): CancellationFormat {
  const chosen = vendor.cancellation_format;
  if (profile.format === "csv") return "csv";
  return chosen === "850" || chosen === "860" ? chosen : "860";
}

/** Where cancellations go: the Cancellation Put Folder, or the Outcoming Folder when it is empty. */
export const cancellationPutFolder = (vendor: Pick<Vendor, "sftp_cancellation_put_folder" | "sftp_outcoming_folder">) =>
  vendor.sftp_cancellation_put_folder?.trim() || vendor.sftp_outcoming_folder?.trim() || null;

/** SQL: the vendor `v` has cancellations to write (Send Ship Requests' "has work" test). */
export const HAS_CANCELLATIONS_TO_SEND = Prisma.sql`EXISTS (
  SELECT 1 FROM dropship_cancellation c JOIN dropship_request r ON r.request_id = c.request_id
   WHERE c.vendor_id = v.id AND c.status = 'pending' AND c.transmission_id IS NULL AND r.status <> 'pending')`;

function orderOf(vendor: Vendor, row: Claimed, now: Date): CancellationOrder {
  const ordered = row.request_qty - row.qty_cancelled - row.asked_before;
  return {
    poNumber: row.po_number,
    orderNumber: row.order_increment_id,
    poDate: row.sent_at ?? row.created_at,
    changeNumber: row.change_number,
    changeDate: now,
    // Words for the vendor's people (the CSV carries them): the merchant's language is English.
    reason: englishText(message(`cancellations.reason.${row.cause}`)),
    lines: [
      {
        lineNumber: 1,
        sku: row.item_sku,
        ordered,
        cancelled: Math.min(row.qty, ordered),
        unitPrice: row.unit_cost === null ? undefined : Number(row.unit_cost),
      },
    ],
    wholeOrder: row.whole,
    shipTo: shipToOf(row),
    vendor: { number: vendor.store_id, name: vendor.name },
  };
}

const stamp = (at: Date) => at.toISOString().replace(/\D/g, "").slice(0, 14);

/**
 * Claims the vendor's cancellations whose PO it has (its request is sent, or past), settles those
 * it no longer needs (the PO was rejected: nothing to cancel; shipped: too late, refused), and
 * stores the file carrying the rest. Answers how many the file carries.
 */
export async function prepareCancellationFile(vendor: Vendor, profile: TradingProfile, report: StepReport): Promise<number> {
  const folder = cancellationPutFolder(vendor);
  if (!folder) return 0;
  const format = cancellationFormatOf(vendor, profile);
  return prisma.$transaction(
    async (tx) => {
      const claimed = await tx.$queryRaw<Claimed[]>`
        SELECT c.id, c.po_number, c.qty, c.whole, c.change_number, c.cause, r.request_id, r.status AS request_status,
               r.order_increment_id, r.item_sku, r.qty AS request_qty, r.qty_cancelled, r.unit_cost::text AS unit_cost, r.sent_at, r.created_at,
               r.ship_name_first, r.ship_name_last, r.ship_address, r.ship_city, r.ship_state, r.ship_zip, r.country_id,
               COALESCE((SELECT SUM(o.qty) FROM dropship_cancellation o
                          WHERE o.request_id = c.request_id AND o.change_number < c.change_number AND o.status IN ('pending', 'sent')), 0)::int AS asked_before
          FROM dropship_cancellation c JOIN dropship_request r ON r.request_id = c.request_id
         WHERE c.vendor_id = ${vendor.id} AND c.status = 'pending' AND c.transmission_id IS NULL AND r.status <> 'pending'
         ORDER BY c.id
         LIMIT ${MAX_PER_FILE}
           FOR UPDATE OF c SKIP LOCKED`;
      if (claimed.length === 0) return 0;
      // A PO the vendor rejected needs no cancellation (done); one it shipped meanwhile is too late (refused).
      const moot = claimed.filter((row) => NOT_THEIRS.includes(row.request_status) || SHIPPED.includes(row.request_status));
      const { logs } = await settleCancellations(
        tx,
        moot.map((row) =>
          NOT_THEIRS.includes(row.request_status)
            ? { cancellationId: row.id, outcome: "done" as const }
            : { cancellationId: row.id, outcome: "refused" as const, note: "shipped before the cancellation went out" },
        ),
      );
      await writeLogs(logs, tx);
      const sendable = claimed.filter((row) => !moot.includes(row));
      if (sendable.length === 0) return 0;
      const now = new Date();
      const orders = sendable.map((row) => orderOf(vendor, row, now));
      const query: SqlQuery = (sql, params) => tx.$queryRawUnsafe(sql, ...params);
      let content: string;
      let control: { interchange: string | null; group: string | null; transactions: string[] };
      let fileName: string;
      if (format === "csv") {
        const [number] = await reserveControlNumbers(query, vendor.id, 1);
        try {
          content = writeCancellationCsv(orders).text;
        } catch (error) {
          if (!(error instanceof CsvWriteError)) throw error;
          throw new Error(`the cancellation CSV cannot be written: ${error.problems.join("; ")}`);
        }
        control = { interchange: null, group: null, transactions: [] };
        fileName = `CANCEL_${vendor.store_id}_${stamp(now)}_${number}.csv`;
      } else {
        const numbers = await reserveInterchangeNumbers(query, vendor.id, [orders.length]);
        content = cancellationInterchange(profile, format, orders, numbers, now);
        control = { interchange: numbers.interchange, group: numbers.groups[0].group, transactions: numbers.groups[0].transactions };
        fileName = `${format}_CANCEL_${vendor.store_id}_${stamp(now)}_${numbers.interchange}.edi`;
      }
      const stored = await storePreparedFile(
        {
          vendorId: vendor.id,
          partner: "vendor",
          remotePath: joinRemote(folder, fileName),
          transactionSet: format,
          content: Buffer.from(content),
          interchangeControlNumber: control.interchange,
          groupControlNumber: control.group,
          transactionControlNumbers: control.transactions,
        },
        tx,
      );
      await markInFile(tx, sendable, stored!.id);
      await writeLogs(
        [
          {
            ...vendorLog(vendor),
            action: "cancel_requests",
            status: "info",
            file_name: fileName,
            transmission_id: stored!.id,
            ...logMessage("cancellations.log.wrote_file", {
              file: fileName,
              cancellations: message("cancellations.n", { count: sendable.length }),
              bytes: content.length,
              folder,
            }),
          } satisfies LogEntry,
        ],
        tx,
      );
      report.count("cancellations_in_files", sendable.length);
      return sendable.length;
    },
    { timeout: 120_000 },
  );
}

/** The cancellations are in the file; a whole one whose PO went out in a file after it was asked is now Cancel Requested. */
async function markInFile(tx: Tx, rows: Claimed[], transmissionId: number) {
  const ids = rows.map((row) => row.id);
  await tx.$executeRaw`UPDATE dropship_cancellation SET transmission_id = ${transmissionId}, updated_at = now() WHERE id = ANY(${ids}::int[])`;
  const whole = rows.filter((row) => row.whole).map((row) => row.request_id);
  await tx.$executeRaw`
    UPDATE dropship_request SET status = 'cancel_requested', updated_at = now()
     WHERE request_id = ANY(${whole}::int[]) AND status IN ('sent', 'acknowledged', 'backordered')`;
}
