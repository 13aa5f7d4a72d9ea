// The parse worker (issue 28): reads and maps X12 files in a thread of its own,
// so a vendor's 100,000-line 855 costs the web's event loop nothing but the
// slices of the answer. Started by pool.server.ts; one job at a time; holds
// nothing between jobs. Built as build/processes/parse-worker.js
// (vite.processes.config.ts); run from its .ts source under tsx in dev and tests.
import { parentPort } from "node:worker_threads";
import { mapTransactions, type LocatedDocument } from "@edi/documents";
import { readX12 } from "@edi/x12";
import { SLICE_ITEMS, type ParseJob, type ParseReply } from "./messages";

const port = parentPort;
if (!port) throw new Error("parse worker: not started as a worker thread");

const send = (reply: ParseReply) => port.postMessage(reply);

/** The documents in slices; a list longer than a slice (an 855's lines) is sent apart, a slice a message. */
function sendDocuments(id: number, documents: LocatedDocument[]) {
  const longLists: Array<{ index: number; key: string; items: unknown[] }> = [];
  for (let start = 0; start < documents.length; start += SLICE_ITEMS) {
    const slice = documents.slice(start, start + SLICE_ITEMS);
    slice.forEach((located, offset) => {
      const document = located.mapped?.document as unknown as Record<string, unknown> | undefined;
      if (!document) return;
      for (const [key, value] of Object.entries(document)) {
        if (!Array.isArray(value) || value.length <= SLICE_ITEMS) continue;
        longLists.push({ index: start + offset, key, items: value });
        document[key] = [];
      }
    });
    send({ id, kind: "documents", documents: slice });
  }
  for (const { index, key, items } of longLists)
    for (let start = 0; start < items.length; start += SLICE_ITEMS) send({ id, kind: "items", index, key, items: items.slice(start, start + SLICE_ITEMS) });
}

port.on("message", (job: ParseJob) => {
  if (job.crash) process.exit(70); // ends this thread only
  try {
    const result = readX12(Buffer.from(job.content.buffer, job.content.byteOffset, job.content.byteLength), job.options);
    const documents = result.interchanges.length ? mapTransactions(result) : [];
    send({ id: job.id, kind: "read", result });
    sendDocuments(job.id, documents);
    send({ id: job.id, kind: "done" });
  } catch (error) {
    // A bug in the reader: this file fails, the worker goes on.
    send({ id: job.id, kind: "failed", message: error instanceof Error ? error.message : String(error) });
  }
});
