// What goes between the parse pool (pool.server.ts) and its worker thread
// (worker.ts). The read is sent back in slices of at most SLICE_ITEMS
// documents or list items, each its own message: the web's thread rebuilds a
// 100,000-line 855 a slice per event-loop turn instead of in one long clone.
import type { LocatedDocument } from "@edi/documents";
import type { ReadOptions, ReadResult } from "@edi/x12";

export const SLICE_ITEMS = 2000;

export interface ParseJob {
  id: number;
  /** The file's bytes, transferred (not copied) to the worker. */
  content: Uint8Array;
  options: Pick<ReadOptions, "unwrap" | "hints">;
  /** Test mode only: the worker dies on this job, as an out-of-memory kill would end it. */
  crash?: boolean;
}

export type ParseReply =
  | { id: number; kind: "read"; result: ReadResult }
  | { id: number; kind: "documents"; documents: LocatedDocument[] }
  /** Items of a long list of document `index` (an 855's lines, an 856's orders), left empty in the document sent before. */
  | { id: number; kind: "items"; index: number; key: string; items: unknown[] }
  | { id: number; kind: "done" }
  | { id: number; kind: "failed"; message: string };
