// The one way we take in the files the AS400 (and the order system on its
// exchange) drops into a folder for us: order status, special orders, the
// product catalogue, assignments. Nothing is lost and nothing is done twice:
// - each file is downloaded and stored whole in `transmission` (partner,
//   direction in, transaction_set, content and sha256) before anything else;
// - only once stored is the remote file moved into archive/, so a crash
//   between the two leaves it in the folder, and the next run finds its
//   content stored and only archives it;
// - content stored before, under any name, is not stored (so not applied)
//   again;
// - a file that cannot be downloaded or archived is reported and the next file
//   is taken; only a lost connection or a failing database stops the fetch
//   (the caller reports it, and still applies what is stored).
// Each area then applies its stored files (status received) its own way.
import { createHash } from "node:crypto";
import prisma from "~/db.server";
import type { Prisma } from "~/db/generated/client";
import type { FeedRunContext } from "~/feeds/runner.server";
import { isTemporaryUploadName, TransportError, type RemoteFile, type VendorTransport } from "../../edi/transport";

/** One kind of file the AS400 sends: where it is dropped and how it is stored. */
export interface InboundFileKind {
  /** The folder on the exchange the files are dropped into (created when missing). */
  folder: string;
  /** transmission.partner of the stored files. */
  partner: string;
  /** transmission.transaction_set of the stored files. */
  transactionSet: string;
  /** Second key of the transaction-level advisory lock taken while a file of this kind is stored. */
  storeLockNamespace: number;
}

export interface StoredInboundFile {
  transmissionId: number;
  /** False when the same content was stored before: it is not applied again. */
  isNew: boolean;
}

/** What a file stored for the first time is, for work done in the same transaction. */
export interface NewInboundFile {
  transmissionId: number;
  name: string;
  remotePath: string;
  content: Buffer;
}

/** Run inside the store transaction for a file stored for the first time (e.g. the special-order log row). */
export type StoreAlongside = (tx: Prisma.TransactionClient, file: NewInboundFile) => Promise<void>;

export interface FetchInboundFilesHooks {
  /** Checked before each file: a run asked to stop leaves the rest for the next run. */
  signal?: AbortSignal;
  /** A file not downloaded or not archived; the next file is taken all the same. */
  problem(message: string): void;
  /** The folder did not exist and was created (so there was nothing to fetch). */
  folderCreated?(): void;
  /** How many files the folder holds. */
  filesFound?(count: number): void;
  /** A file stored, or found stored before. */
  fileStored?(stored: StoredInboundFile, file: RemoteFile): void;
  /** After each stored file, archived or not: where a feed reports its progress. */
  afterFile?(): Promise<void>;
  /** Stored with each new file, in the same transaction. */
  storeAlongside?: StoreAlongside;
}

/** What a feed keeps of its run: counts (its log's meta) and problems. */
export interface FeedFetchReport {
  counts: Record<string, number>;
  problems: string[];
}

/**
 * The hooks of a feed that counts the files it fetched in its log's meta
 * (folder_created, files_found, files_stored, files_seen_before), lists its
 * problems and reports its progress after each file.
 */
export function feedFetchHooks(report: FeedFetchReport, context?: Pick<FeedRunContext, "signal" | "progress">): FetchInboundFilesHooks {
  const count = (key: string, by = 1) => (report.counts[key] = (report.counts[key] ?? 0) + by);
  return {
    signal: context?.signal,
    problem: (message) => report.problems.push(message),
    folderCreated: () => count("folder_created"),
    filesFound: (found) => count("files_found", found),
    fileStored: (stored) => count(stored.isNew ? "files_stored" : "files_seen_before"),
    afterFile: async () => {
      await context?.progress({ ...report.counts });
    },
  };
}

const sha256 = (content: Buffer) => createHash("sha256").update(content).digest("hex");

/** Downloads, stores and archives every *.csv file of the kind's folder, in name order (numbers by value). */
export async function fetchInboundFiles(transport: VendorTransport, kind: InboundFileKind, hooks: FetchInboundFilesHooks): Promise<void> {
  if (!(await transport.exists(kind.folder))) {
    await transport.makeFolder(kind.folder);
    hooks.folderCreated?.();
    return;
  }
  const files = (await transport.list(kind.folder))
    .filter((file) => file.type === "file" && /\.csv$/i.test(file.name) && !isTemporaryUploadName(file.name))
    .sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }));
  hooks.filesFound?.(files.length);
  for (const file of files) {
    if (hooks.signal?.aborted) return;
    try {
      const content = await transport.download(file.path, file.size);
      const stored = await storeInboundFile(kind, file.name, file.path, content, hooks.storeAlongside);
      hooks.fileStored?.(stored, file);
    } catch (error) {
      if (!(error instanceof TransportError) || error.isConnectionFault) throw error;
      hooks.problem(`${file.name} not downloaded (${error.message}); it stays for the next run`);
      continue;
    }
    // Only now, with the file stored, is it moved out of the way.
    try {
      await transport.archive(file.path);
    } catch (error) {
      if (!(error instanceof TransportError) || error.isConnectionFault) throw error;
      hooks.problem(`${file.name} stored but not archived (${error.message}); the next run sees it is stored and tries again`);
    }
    await hooks.afterFile?.();
  }
}

/** Stores the file unless the same content of the same kind was stored before (a file seen before is not applied again). */
export async function storeInboundFile(
  kind: InboundFileKind,
  name: string,
  remotePath: string,
  content: Buffer,
  storeAlongside?: StoreAlongside,
): Promise<StoredInboundFile> {
  const hash = sha256(content);
  return prisma.$transaction(async (tx) => {
    // transmission's unique (vendor_id, direction, hash) does not hold without a vendor: one at a time per hash.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${kind.storeLockNamespace}::int, hashtext(${hash}))`;
    const existing = await tx.transmission.findFirst({
      where: { vendor_id: null, partner: kind.partner, direction: "in", transaction_set: kind.transactionSet, content_hash: hash },
      select: { id: true },
    });
    if (existing) return { transmissionId: existing.id, isNew: false };
    const created = await tx.transmission.create({
      data: {
        partner: kind.partner,
        direction: "in",
        file_name: name,
        remote_path: remotePath,
        transaction_set: kind.transactionSet,
        transaction_control_numbers: [],
        content_hash: hash,
        content: new Uint8Array(content),
        size: content.length,
        status: "received",
      },
      select: { id: true },
    });
    await storeAlongside?.(tx, { transmissionId: created.id, name, remotePath, content });
    return { transmissionId: created.id, isNew: true };
  });
}

/** The stored files of the kind not yet applied (stored by this run, or left by an earlier one), oldest first. */
export async function receivedInboundFileIds(kind: Pick<InboundFileKind, "partner" | "transactionSet">): Promise<number[]> {
  const waiting = await prisma.transmission.findMany({
    where: { partner: kind.partner, direction: "in", transaction_set: kind.transactionSet, status: "received" },
    orderBy: { id: "asc" },
    select: { id: true },
  });
  return waiting.map(({ id }) => id);
}
