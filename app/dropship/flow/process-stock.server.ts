// Stock files (846), X12 or CSV: read as streams from the stored content and
// applied a batch at a time, so a stock file of tens of MB never sits in memory.
import { logMessage } from "~/i18n/english.server";
import { message } from "~/i18n/messages";
import { availableQuantity, judgeFaults } from "@edi/documents";
import * as csv from "@edi/csv";
import type { TradingProfile } from "@edi/vendor-profile";
import { readInventoryStream } from "@edi/documents";
import { type SegmentTable } from "@edi/x12";
import { fileLogLine, StockWriter, type ApplyContext } from "./apply-responses.server";
import { csvRowErrors, faultError, rowError, summaryOf, type FileOutcome } from "./response-outcome.server";
import type { StoredContent } from "./stored-content.server";
import { queueAck997, queueAs400Copy } from "./response-answers.server";
import { logNotedFaults } from "./ack-997.server";

/** False, with a log line, when the vendor's 846s do not set stock. */
function stockEnabled(context: ApplyContext): boolean {
  if (context.vendor.edi846_enabled === 1) return true;
  context.logs.push({
    ...fileLogLine(context, "warning"),
    ...logMessage("logs.dropship.stock_not_enabled", { vendor: context.vendor.name }),
  });
  return false;
}

async function stockApplied(context: ApplyContext, writer: StockWriter) {
  await writer.flush();
  context.logs.push({
    ...fileLogLine(context, "success"),
    ...logMessage("logs.dropship.stock_applied", {
      lines: message("logs.n.sku_line", { count: writer.read }),
      levels: message("logs.n.stock_level", { count: writer.changed }),
      vendor: context.vendor.name,
    }),
  });
  await queueAs400Copy(context, "846", context.vendor.edi846_as400_filepath);
}

export async function applyStock(context: ApplyContext, items: Array<{ sku: string; quantity: number }>) {
  if (!stockEnabled(context)) return;
  const writer = new StockWriter(context);
  for (const item of items) await writer.add(item);
  await stockApplied(context, writer);
}

/** The 997 builder wants the segments of a whole read only for AK4 values and 005010 conventions; a streamed 846 leaves those out. */
const NO_SEGMENTS = { length: 0, elements: () => [] } as unknown as SegmentTable;

/**
 * An X12 file of 846s, read as a stream twice: once to find the sets at fault
 * (rejected in our 997, as processX12 does), then to apply the others a batch
 * at a time. Null when the file holds other sets too: processX12 reads it whole.
 */
export async function processX12Stock(context: ApplyContext, profile: TradingProfile, content: StoredContent): Promise<FileOutcome | null> {
  const unwrap = profile.unwrap846;
  const checked = await readInventoryStream(content.pieces(), () => {}, { unwrap });
  const { envelope } = checked;
  const sets = envelope.interchanges.flatMap((interchange, i) =>
    interchange.groups.flatMap((group, g) =>
      group.transactions.map((transaction, t) => ({ setId: transaction.setId, location: { interchange: i, group: g, transaction: t } })),
    ),
  );
  if (envelope.interchanges.length === 0 || sets.some((set) => set.setId !== "846")) return null;
  const judged = judgeFaults(envelope, checked.faults, profile.strictness); // D219
  const allFaults = judged.refusing;
  const atFault = (location: { interchange: number; group: number; transaction: number }) =>
    allFaults.some(
      (f) =>
        f.interchange === location.interchange &&
        (f.group === undefined || f.group === location.group) &&
        (f.transaction === undefined || f.transaction === location.transaction),
    );
  const applied = sets.filter((set) => !atFault(set.location)).length;
  if (applied > 0 && stockEnabled(context)) {
    const writer = new StockWriter(context);
    // One location object per set: judged once per set, not per line.
    let lastLocation: object | null = null;
    let skipSet = false;
    await readInventoryStream(
      content.pieces(),
      (record, { location }) => {
        if (location !== lastLocation) [lastLocation, skipSet] = [location, atFault(location)];
        if (!skipSet) return writer.add({ sku: record.sku ?? record.vendorSku ?? "", quantity: availableQuantity(record) ?? NaN });
      },
      { unwrap },
    );
    await stockApplied(context, writer);
  }
  await queueAck997(
    context,
    profile,
    { interchanges: envelope.interchanges, faults: envelope.faults, warnings: envelope.warnings, segments: NO_SEGMENTS },
    judged.content,
  );
  logNotedFaults(context, judged.noted);
  const summary = applied ? message("logs.outcome.applied", { applied: `${applied} x 846` }) : message("logs.outcome.applied_nothing");
  if (allFaults.length === 0) return { status: "processed", ...summaryOf(summary.code, summary.params) };
  return {
    status: applied ? "processed" : "failed",
    ...faultError(allFaults),
    ...summaryOf("logs.outcome.rejected", { applied: summary, sets: message("logs.n.transaction_set", { count: sets.length - applied }) }),
  };
}

/** An inventory CSV, read as a stream and applied a batch at a time. */
export async function processCsvStock(context: ApplyContext, content: StoredContent): Promise<FileOutcome> {
  const enabled = stockEnabled(context);
  const writer = new StockWriter(context);
  const read = await csv.readInventoryCsvStream(content.pieces(), (row) => (enabled ? writer.add({ sku: row.sku, quantity: row.quantity }) : undefined));
  if (enabled) await stockApplied(context, writer);
  csvRowErrors(context, read.errors, read.errorCount);
  if (read.errorCount) {
    return {
      status: read.rowCount ? "processed" : "failed",
      ...rowError(read.errors, read.errorCount),
      ...summaryOf("logs.outcome.rows_refused", {
        rows: message("logs.n.row", { count: read.rowCount }),
        refused: message("logs.n.row", { count: read.errorCount }),
      }),
    };
  }
  return { status: "processed", ...summaryOf("logs.outcome.rows_applied", { rows: message("logs.n.row", { count: read.rowCount }) }) };
}
