// Hostile vendor files (issue 28), for tests/integration/hostile-files.test.ts
// and bench/hostile-files: a CSV acknowledgement whose every row is bad, and
// an X12 855 with one PO1/ACK pair per line.
import { build855 } from "@edi/documents";
import { writeInterchange } from "@edi/x12";

export const HOSTILE_CSV_HEADER = "po_number,sku,quantity,status,expected_date,message\n";
/** Three errors a row: quantity, status and expected_date. */
export const HOSTILE_CSV_ROW = "PO1,SKU1,x,bogus,notadate,m\n";

/** A CSV 855 of `rows` bad rows. */
export function hostileCsv(rows: number): string {
  return HOSTILE_CSV_HEADER + HOSTILE_CSV_ROW.repeat(rows);
}

/** A CSV 855 of about `bytes` bytes, in chunks (a 100 MB string is not built twice). */
export function* hostileCsvChunks(bytes: number): Generator<string> {
  yield HOSTILE_CSV_HEADER;
  const perChunk = 20_000;
  for (let written = HOSTILE_CSV_HEADER.length; written < bytes; written += perChunk * HOSTILE_CSV_ROW.length) yield HOSTILE_CSV_ROW.repeat(perChunk);
}

/** An X12 855 interchange with `lines` PO1 lines (each acknowledged IA), from VENDOR (ZZ) to MERCHANT (ZZ). */
export function big855(lines: number, options: { poNumber?: string; controlNumber?: number; note?: string } = {}): string {
  const transaction = build855(
    {
      poNumber: options.poNumber ?? "PO-BIG",
      ...(options.note ? { references: [{ qualifier: "ZZ", value: options.note }] } : {}),
      lines: Array.from({ length: lines }, (_, i) => ({ lineNumber: String(i + 1), quantity: 1, uom: "EA", sku: `SKU${i + 1}`, status: "accepted" as const })),
    },
    "0001",
  );
  return writeInterchange({
    delimiters: { element: "*", segment: "~", component: ">" },
    sender: { qualifier: "ZZ", id: "VENDOR" },
    receiver: { qualifier: "ZZ", id: "MERCHANT" },
    date: "260101",
    time: "1200",
    controlNumber: options.controlNumber ?? 1,
    lineBreak: "\n",
    groups: [
      {
        functionalId: "PR",
        sender: "VENDOR",
        receiver: "MERCHANT",
        date: "20260101",
        time: "1200",
        controlNumber: String(options.controlNumber ?? 1),
        transactions: [transaction],
      },
    ],
  }).text;
}
