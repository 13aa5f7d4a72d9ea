// A grid's rows as a CSV download, made for spreadsheets (D33): UTF-8 with a
// byte-order mark (Excel reads the de/fr headings right), CRLF lines, RFC 4180
// quoting, and a text value that a spreadsheet could take for a formula is
// neutralised. The area describes the download (its headings and option labels
// are ReaderTexts); the edge writes it in the reader's language (D136).
import { renderForReader, type MessageTranslate, type ReaderText } from "~/i18n/messages";

const BOM = "\uFEFF";
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** A cell: data, or words for the reader (an option's label). */
export type CsvCell = string | ReaderText;

export interface CsvDownload {
  filename: string;
  header: ReaderText[];
  /** The rows, a chunk at a time, read while the answer is being sent. */
  chunks: AsyncIterable<CsvCell[][]>;
}

/**
 * A cell as a spreadsheet reads it safely: a value starting with = + - @ (or a
 * tab or carriage return) gets a leading apostrophe, so it is shown as text and
 * never run as a formula. Plain numbers (-12.50) are left alone: they cannot be
 * formulas, and they must stay numbers.
 */
export function spreadsheetSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

export function csvCell(value: string): string {
  const safe = spreadsheetSafe(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const csvLine = (values: string[]) => values.map(csvCell).join(",") + "\r\n";

/** The streamed answer of `download`, its words in the language of `t`. */
export function csvResponse(download: CsvDownload, t: MessageTranslate): Response {
  const encoder = new TextEncoder();
  const chunks = download.chunks[Symbol.asyncIterator]();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(BOM + csvLine(renderForReader(t, download.header))));
    },
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) {
          controller.close();
          return;
        }
        if (next.value.length) controller.enqueue(encoder.encode(renderForReader(t, next.value).map(csvLine).join("")));
      } catch (error) {
        // Headers are gone already: end the download broken rather than pretend it is whole.
        controller.error(error);
      }
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${download.filename}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
