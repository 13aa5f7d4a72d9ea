// One interface for moving vendor (and AS400) files, whatever the protocol.
import type { OutboundPolicy } from "./outbound-policy";

/** 1 SFTP, 2 FTP, 3 passive FTP (the vendor's `transfer_mechanism`). */
export type TransferMechanism = 1 | 2 | 3;

export interface ConnectionSettings {
  mechanism: TransferMechanism;
  host: string;
  /** Default 22 for SFTP, 21 for FTP. */
  port?: number;
  user: string;
  password: string;
  /**
   * Pinned fingerprint ("SHA256:<base64>"): the SFTP host key's, or for FTPS the certificate's
   * when the system's CAs do not vouch for it. Null/undefined on first connection.
   */
  hostKey?: string | null;
  /**
   * With nothing pinned: accept the key (or an FTPS certificate no CA vouches for) seen on
   * the first connection, so the caller can pin it. Default true; false where nothing can
   * keep a pin (the AS400 in embedded mode: its key comes from AS400_HOST_KEY).
   */
  trustOnFirstUse?: boolean;
  /**
   * Explicit FTPS for mechanisms 2 and 3: AUTH TLS before logging in, PROT P for every data
   * connection. Ignored for SFTP, which is encrypted anyway.
   */
  tls?: boolean;
  /** Per operation / connect, default 20000. An operation that keeps moving data does not time out. */
  timeoutMs?: number;
  /** Bounded retries of connection faults, default 2. */
  retries?: number;
  /** First pause between connection attempts, doubling each time; default 500. */
  retryDelayMs?: number;
  /** E.g. the vendor name, for messages. */
  label?: string;
  /** Where the host may resolve to (D195); default: the process's OUTBOUND_ALLOW and DATABASE_URL (processOutboundPolicy). */
  outbound?: OutboundPolicy;
  /** A download larger than this stops with a `too_large` error; default DEFAULT_MAX_DOWNLOAD_BYTES. */
  maxDownloadBytes?: number;
  /** A listing stops after this many names (DEFAULT_MAX_LISTED_NAMES): the rest are listed once these left the folder. */
  maxListedNames?: number;
  /** A listing stops after this long, however the server keeps sending (DEFAULT_MAX_LISTING_MS). */
  maxListingMs?: number;
}

/** 20,000 names: a few MB of listing, far more than a run takes from one folder (MAX_FILES_PER_FOLDER). */
export const DEFAULT_MAX_LISTED_NAMES = 20_000;
/** 30 s: a listing of 20,000 names takes about a second on a slow link. */
export const DEFAULT_MAX_LISTING_MS = 30_000;
/** Over FTP a listing is text: at most this many bytes per name allowed (a long unix LIST line is ~120). */
export const LISTING_BYTES_PER_NAME = 512;

/** Why a listing was cut: at the number of names, or at the time allowed. */
export interface ListingCut {
  reason: "names" | "time";
  /** The number of names, or the milliseconds. */
  limit: number;
}

/** A folder's listing: its entries, and `cut` when it stopped before the server's end (the entries read by then). */
export type RemoteListing = RemoteFile[] & { cut?: ListingCut };

/** The entries as a listing, cut or not. */
export function remoteListing(files: RemoteFile[], cut?: ListingCut): RemoteListing {
  const listing = files as RemoteListing;
  if (cut) listing.cut = cut;
  return listing;
}

/** 100 MB: a vendor's or the AS400's file is kept in memory while it is stored. */
export const DEFAULT_MAX_DOWNLOAD_BYTES = 100 * 1024 * 1024;

export interface RemoteFile {
  name: string;
  path: string;
  size: number;
  modifiedAt: Date | null;
  type: "file" | "folder" | "other";
  /** Set when the listed name is not a plain file name ("../x", a control character…): why. `path` is then "". */
  refused?: string;
}

export interface VendorTransport {
  readonly mechanism: TransferMechanism;
  /**
   * What to pin when nothing was pinned: the SFTP host key seen on connection, or the FTPS
   * certificate's fingerprint when the system's CAs do not vouch for it; null otherwise.
   */
  readonly hostKey: string | null;
  /**
   * How many operations this connection runs at once; more wait their turn, in call order.
   * SFTP_IN_FLIGHT for SFTP (several requests on one channel), 1 for FTP (one transfer per
   * control connection). Callers with many files use `inFlight` (./in-flight.ts) to keep it busy.
   */
  readonly inFlight: number;
  /** The folder's entries, bounded by maxListedNames and maxListingMs (`cut` says where it stopped). */
  list(folder: string): Promise<RemoteListing>;
  exists(path: string): Promise<false | "file" | "folder">;
  /** The size of a file now: checked again before a stored file is archived or deleted. */
  size(path: string): Promise<number>;
  /** Downloads a whole file; verifies the byte count against the listed size (or expectedSize). */
  download(path: string, expectedSize?: number): Promise<Buffer>;
  /**
   * Uploads under a temporary name in the same folder (".name.part") and renames it when
   * complete, so a vendor never sees half a file; verifies the size after upload. An existing
   * file of the same name is never replaced: the upload fails (`transport.errors.already_there`)
   * unless that file has the same bytes (an earlier attempt published it, D196). Returns the final path.
   */
  upload(folder: string, name: string, content: Buffer): Promise<string>;
  rename(from: string, to: string): Promise<void>;
  /**
   * Moves a file into `<its folder>/archive/` (created if missing), never overwriting: adds a
   * timestamp suffix if the name exists. One rename per file: the archive folder is made and
   * listed once per connection, not per file. Returns the new path.
   */
  archive(path: string): Promise<string>;
  delete(path: string): Promise<void>;
  /** Creates the folder and any missing parents; nothing to do if it exists. */
  makeFolder(path: string): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = 20_000;
/** Operations one SFTP connection runs at once (downloads, uploads, archives): OpenSSH's sftp-server answers requests as they come. */
export const SFTP_IN_FLIGHT = 8;
export const DEFAULT_RETRIES = 2;
export const DEFAULT_RETRY_DELAY_MS = 500;

export function defaultPort(mechanism: TransferMechanism): number {
  return mechanism === 1 ? 22 : 21;
}
