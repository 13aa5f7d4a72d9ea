// The parse pool (issue 28): X12 files are read and mapped in one worker
// thread (worker.ts), a job at a time from a queue, so that the CPU of a
// vendor's big file never stalls the web (by default the scheduler runs in
// the web process). A small file is read here: a worker is not worth it. A
// worker that dies (out of its memory limit, a crash) fails only the file it
// was reading; the next job starts a new one.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { mapTransactions, type LocatedDocument } from "@edi/documents";
import { readX12, SegmentTable, type ReadOptions, type ReadResult } from "@edi/x12";
import { logger } from "~/observability/logger.server";
import type { ParseJob, ParseReply } from "./messages";

const log = logger("parse");

/** Below this size a file is read on the calling thread (a few ms); above it, in the worker. */
export const WORKER_MIN_BYTES = 64 * 1024;
/** The worker's heap limit: a file that needs more ends the worker, and fails alone. */
const WORKER_HEAP_MB = 1024;
/** An idle worker is ended after this long: its memory goes back to the system. */
const IDLE_MS = 30_000;

export interface X12Read {
  result: ReadResult;
  documents: LocatedDocument[];
}

/** The worker died or the reader threw while reading this file: the file fails, the run goes on. */
export class ParseWorkerError extends Error {}

interface Pending {
  job: ParseJob;
  resolve(read: X12Read): void;
  reject(error: Error): void;
  result?: ReadResult;
  documents: LocatedDocument[];
}

/**
 * The worker's script: its TypeScript source through worker-dev.mjs (dev, tests), else the
 * built parse-worker.js. Bundled code sits in build/processes (or its
 * chunks/), the Remix server in build/server: the worker is looked for from each.
 */
const DEV_SCRIPT = "./worker-dev.mjs";
const BUILT_SCRIPTS = ["./parse-worker.js", "../parse-worker.js", "../processes/parse-worker.js", "../../processes/parse-worker.js"];

// (The paths are constants, not literals in `new URL(...)`: the bundler would take a literal for an asset of its own.)
function workerScript(): { url: URL; execArgv: string[] } | null {
  if (import.meta.url.endsWith(".ts")) return { url: new URL(DEV_SCRIPT, import.meta.url), execArgv: [] };
  for (const relative of BUILT_SCRIPTS) {
    const url = new URL(relative, import.meta.url);
    if (existsSync(fileURLToPath(url))) return { url, execArgv: [] };
  }
  return null;
}

class ParsePool {
  private worker: Worker | null = null;
  private queue: Pending[] = [];
  private current: Pending | null = null;
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  private script = workerScript();

  get available() {
    return this.script !== null;
  }

  read(content: Uint8Array, options: ParseJob["options"], crash = false): Promise<X12Read> {
    // A copy the worker owns (transferred, not cloned): the caller's buffer may be a slice of a larger one.
    const owned = new Uint8Array(content);
    return new Promise((resolve, reject) => {
      this.queue.push({ job: { id: this.nextId++, content: owned, options, crash }, resolve, reject, documents: [] });
      this.startNext();
    });
  }

  private startNext() {
    if (this.current || this.queue.length === 0) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const pending = this.queue.shift()!;
    this.current = pending;
    const worker = this.ensureWorker();
    worker.ref(); // a job under way keeps the process alive
    worker.postMessage(pending.job, [pending.job.content.buffer as ArrayBuffer]);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const { url, execArgv } = this.script!;
    const worker = new Worker(url, { execArgv, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    worker.on("message", (reply: ParseReply) => this.onReply(reply));
    worker.on("error", (error) => this.onDeath(worker, error));
    worker.on("exit", (code) => this.onDeath(worker, new Error(`the parse worker stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private onReply(reply: ParseReply) {
    const pending = this.current;
    if (!pending || pending.job.id !== reply.id) return;
    switch (reply.kind) {
      case "read":
        // The segment table came as a plain object: its methods back (its fields are plain properties).
        pending.result = { ...reply.result, segments: Object.setPrototypeOf(reply.result.segments, SegmentTable.prototype) as SegmentTable };
        break;
      case "documents":
        for (const located of reply.documents) pending.documents.push(located);
        break;
      case "items": {
        const list = (pending.documents[reply.index].mapped!.document as unknown as Record<string, unknown[]>)[reply.key];
        for (const item of reply.items) list.push(item);
        break;
      }
      case "done":
        this.finish(() => pending.resolve({ result: pending.result!, documents: pending.documents }));
        break;
      case "failed":
        this.finish(() => pending.reject(new ParseWorkerError(reply.message)));
        break;
    }
  }

  private onDeath(worker: Worker, error: Error) {
    if (this.worker !== worker) return; // already replaced
    this.worker = null;
    const pending = this.current;
    if (!pending) return;
    log.warn(`the parse worker died while reading a file: ${error.message}`);
    this.finish(() => pending.reject(new ParseWorkerError(error.message)));
  }

  private finish(settle: () => void) {
    this.current = null;
    settle();
    if (this.queue.length) return this.startNext();
    this.worker?.unref();
    this.idleTimer = setTimeout(() => {
      const idle = this.worker;
      this.worker = null;
      void idle?.terminate();
    }, IDLE_MS).unref();
  }
}

let pool: ParsePool | null = null;

/** Test mode only: `PARSE_WORKER_CRASH_ON=<text>` kills the worker on a file that contains the text. */
function testCrash(content: Uint8Array): boolean {
  const marker = process.env.NODE_ENV === "test" ? process.env.PARSE_WORKER_CRASH_ON : undefined;
  return !!marker && Buffer.from(content.buffer, content.byteOffset, content.byteLength).includes(marker);
}

/**
 * Reads and maps an X12 file: in the worker when it is large, here when it is
 * small or no worker script is found. Throws ParseWorkerError when the worker
 * died or the reader failed on this file.
 */
export async function readAndMapX12(content: Uint8Array, options: Pick<ReadOptions, "unwrap" | "hints">): Promise<X12Read> {
  pool ??= new ParsePool();
  const crash = testCrash(content);
  if ((content.byteLength < WORKER_MIN_BYTES && !crash) || !pool.available) {
    const result = readX12(content, options);
    return { result, documents: result.interchanges.length ? mapTransactions(result) : [] };
  }
  return pool.read(content, options, crash);
}
