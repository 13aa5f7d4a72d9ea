// CSV vendor files (855, 856, 810; the 846 goes to process-stock.server.ts).
import { message } from "~/i18n/messages";
import * as csv from "@edi/csv";
import { applyAcknowledgements, applyInvoiceLines, applyShipments, type ApplyContext } from "./apply-responses.server";
import { csvRowErrors, rowError, summaryOf, type FileOutcome } from "./response-outcome.server";
import type { StoredContent } from "./stored-content.server";
import { queueAs400Copy } from "./response-answers.server";
import { processCsvStock } from "./process-stock.server";
import { afterRowApplied, applyInSlices, flushApplied, LINES_PER_SLICE } from "./apply-slices.server";
import { applyCancellationAnswers } from "./apply-cancellation-answers.server";
import { csvUnitCost } from "../invoice-checks";

/** A cancellation-answer CSV is read whole: larger than this, it is no answer this app expects. */
const MAX_ANSWER_CSV_BYTES = 16 << 20;

const tooLarge = (size: number): FileOutcome => ({
  status: "failed",
  error: `a cancellation answer of ${size} bytes is larger than ${MAX_ANSWER_CSV_BYTES} bytes`,
  errorCode: message("cancellations.answer_too_large", { bytes: size, max: MAX_ANSWER_CSV_BYTES }),
  ...summaryOf("logs.outcome.not_recognised"),
});

/**
 * Read as a stream from the stored content (issue 28): each good row is
 * applied as it is read; of the bad ones the first MAX_CSV_ERRORS_KEPT are
 * kept and the rest counted, so a file of a million bad rows costs what a
 * file of a hundred does.
 */
export async function processCsv(context: ApplyContext, stored: StoredContent, type: string | null): Promise<FileOutcome> {
  if (type === "846") return processCsvStock(context, stored);
  let applied = 0;
  let read: { errors: csv.CsvRowError[]; errorCount: number };
  switch (type) {
    case "855": {
      read = await csv.readAcknowledgementCsvStream(stored.pieces(), async (row) => {
        await afterRowApplied(context, ++applied);
        await applyAcknowledgements(context, [
          {
            poNumber: row.poNumber,
            sku: row.sku,
            quantity: row.quantity,
            status: row.status,
            detail: [row.expectedDate && `expected ${row.expectedDate}`, row.message].filter(Boolean).join("; ") || null,
            expected: row.expectedDate || null,
            note: row.message || null,
          },
        ]);
      });
      break;
    }
    case "856": {
      read = await csv.readShipNoticeCsvStream(stored.pieces(), async (row) => {
        await afterRowApplied(context, ++applied);
        await applyShipments(context, [
          { poNumber: row.poNumber, sku: row.sku, quantity: row.quantity, trackingNumber: row.trackingNumber, carrier: row.carrier },
        ]);
      });
      break;
    }
    case "810": {
      const invoices = await csv.readInvoiceCsvStream(stored.pieces());
      read = invoices;
      let flushAt = LINES_PER_SLICE;
      for (const invoice of invoices.invoices) {
        await applyInvoiceLines(
          context,
          invoice.lines.map((line) => ({
            invoiceNumber: invoice.invoiceNumber,
            poNumber: line.poNumber,
            lineNumber: String(line.line),
            sku: line.sku,
            quantity: line.quantity,
            // What the row charges per unit: its total over its quantity (D242).
            unitCost: csvUnitCost(line),
            amount: line.lineTotal,
            // The CSV's shipping is the invoice's charge, kept apart from the lines' cost (D242).
            invoiceCharges: invoice.shipping || null,
          })),
        );
        applied += invoice.lines.length;
        if (applied >= flushAt) {
          await flushApplied(context);
          flushAt = applied + LINES_PER_SLICE;
        }
      }
      if (applied) await queueAs400Copy(context, "810", context.vendor.edi810_as400_filepath);
      break;
    }
    case "865": {
      // The cancellation-answer CSV (D225): a few rows per cancellation; refused whole past a size no answer reaches.
      if (stored.size > MAX_ANSWER_CSV_BYTES) return tooLarge(stored.size);
      const answers = csv.readCancellationAnswerCsv(await stored.whole());
      read = answers;
      await applyInSlices(context, answers.answers, (slice) => applyCancellationAnswers(context, slice, "csv"));
      applied = answers.rows.length;
      break;
    }
    default:
      return {
        status: "failed",
        error: `not a CSV document this app knows (${type ?? "no recognisable header"})`,
        errorCode: message("logs.outcome.unknown_csv", { type: type ?? message("logs.outcome.no_header") }),
        ...summaryOf("logs.outcome.not_recognised"),
      };
  }
  csvRowErrors(context, read.errors, read.errorCount);
  if (read.errorCount) {
    return {
      status: applied ? "processed" : "failed",
      ...rowError(read.errors, read.errorCount),
      ...summaryOf("logs.outcome.rows_refused", {
        rows: message("logs.n.row", { count: applied }),
        refused: message("logs.n.row", { count: read.errorCount }),
      }),
    };
  }
  return { status: "processed", ...summaryOf("logs.outcome.rows_applied", { rows: message("logs.n.row", { count: applied }) }) };
}
