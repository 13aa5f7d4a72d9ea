// A stored vendor file's bytes, read from PostgreSQL in slices as the readers ask.
import { Readable } from "node:stream";
import type { Prisma } from "~/db/generated/client";

/**
 * A stored file's bytes, read from PostgreSQL only as needed: its head (to
 * recognise it), slices of SLICE_BYTES (the stream readers hold one slice and
 * a few records, so a 100 MB file never sits in memory whole), or all of it
 * for the X12 documents that are read whole (855, 856, 810).
 */
export interface StoredContent {
  head: Buffer;
  size: number;
  pieces(): Readable;
  whole(): Promise<Buffer>;
}

/** A slice is parsed in one go by csv-parse: 256 KB keeps that to a few milliseconds (issue 28). */
const SLICE_BYTES = 256 * 1024;

/**
 * Bytes come as base64 text, decoded natively: the Prisma pg adapter hands a
 * bytea over as an array of numbers (a 1 MB slice became a million-element
 * array, built on the event loop: the longest stalls of a 100 MB file).
 */
export const fromBase64 = (text: string) => Buffer.from(text, "base64");

export function storedContent(tx: Prisma.TransactionClient, transmissionId: number, head: Buffer, size: number, claimed: Buffer | null = null): StoredContent {
  return {
    head,
    size,
    pieces: () =>
      Readable.from(
        (async function* () {
          for (let start = 0; start < size; start += SLICE_BYTES) {
            const [row] = await tx.$queryRaw<Array<{ piece: string }>>`
              SELECT encode(substring(content from ${start + 1}::int for ${SLICE_BYTES}::int), 'base64') AS piece
                FROM transmission WHERE id = ${transmissionId}`;
            yield fromBase64(row.piece);
          }
        })(),
      ),
    whole: async () => {
      if (claimed) return claimed;
      const [row] = await tx.$queryRaw<Array<{ content: string }>>`SELECT encode(content, 'base64') AS content FROM transmission WHERE id = ${transmissionId}`;
      return fromBase64(row.content);
    },
  };
}

/** The whole stored file (an AS400 copy), read as base64 for the reason above. */
export async function storedBytes(tx: Prisma.TransactionClient, transmissionId: number): Promise<Buffer> {
  const [row] = await tx.$queryRaw<Array<{ content: string }>>`SELECT encode(content, 'base64') AS content FROM transmission WHERE id = ${transmissionId}`;
  return fromBase64(row.content);
}
