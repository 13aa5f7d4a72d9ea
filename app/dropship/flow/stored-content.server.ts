// A stored vendor file's bytes, read from PostgreSQL in slices as the readers ask.
import { Readable } from "node:stream";
import type { Prisma } from "~/db/generated/client";

/**
 * A stored file's bytes, read from PostgreSQL only as needed: its head (to
 * recognise it), 1 MB slices (the stream readers hold one slice and a few
 * records, so a 50 MB 846 never sits in memory whole), or all of it for the
 * documents that are read whole (855, 856, 810: small by nature).
 */
export interface StoredContent {
  head: Buffer;
  size: number;
  pieces(): Readable;
  whole(): Promise<Buffer>;
}

const SLICE_BYTES = 1 << 20;

export function storedContent(
  tx: Prisma.TransactionClient,
  transmissionId: number,
  head: Buffer,
  size: number,
  claimed: Uint8Array | null = null,
): StoredContent {
  return {
    head,
    size,
    pieces: () =>
      Readable.from(
        (async function* () {
          for (let start = 0; start < size; start += SLICE_BYTES) {
            const [row] = await tx.$queryRaw<Array<{ piece: Uint8Array }>>`
              SELECT substring(content from ${start + 1}::int for ${SLICE_BYTES}::int) AS piece FROM transmission WHERE id = ${transmissionId}`;
            yield Buffer.from(row.piece);
          }
        })(),
      ),
    whole: async () => {
      if (claimed) return Buffer.from(claimed);
      const [row] = await tx.$queryRaw<Array<{ content: Uint8Array }>>`SELECT content FROM transmission WHERE id = ${transmissionId}`;
      return Buffer.from(row.content);
    },
  };
}
