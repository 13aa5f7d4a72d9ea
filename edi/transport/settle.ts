// A file still being written must not be taken: half an 856 stored, archived
// and refused is worse than a file taken one run later. A listing only shows
// size and modification time, so a file is taken when it is old enough, or
// when a second listing a few seconds later shows it unchanged.
import type { RemoteFile, VendorTransport } from "./types";

export interface SettleOptions {
  /** A file whose modification time is at least this old is taken at once. */
  minAgeMs: number;
  /** The pause before the second listing, for the younger files (and those with no modification time). */
  pauseMs: number;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
}

export interface SettledFiles {
  /** Safe to take, in the order they were given. */
  ready: RemoteFile[];
  /** Changed between the two listings: left for a later run. */
  changing: RemoteFile[];
}

const sameTime = (a: Date | null, b: Date | null) => (a === null || b === null ? a === b : a.getTime() === b.getTime());

/**
 * Of `files` (entries of one listing of `folder`), those that are not being
 * written. The server's modification time is trusted for the age (FTP gives
 * one only through MLSD, to the second; a LIST date is never used); a file
 * with none is judged by the two listings alone. Gone by the second listing:
 * neither ready nor changing (nothing to take).
 */
export async function settledFiles(
  transport: Pick<VendorTransport, "list">,
  folder: string,
  files: RemoteFile[],
  options: SettleOptions,
): Promise<SettledFiles> {
  const now = (options.now ?? (() => new Date()))().getTime();
  const isOld = (file: RemoteFile) => file.modifiedAt !== null && now - file.modifiedAt.getTime() >= options.minAgeMs;
  const young = files.filter((file) => !isOld(file));
  if (young.length === 0) return { ready: files, changing: [] };
  await (options.sleep ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms))))(options.pauseMs);
  const second = new Map((await transport.list(folder)).map((file) => [file.name, file]));
  const ready = new Set<RemoteFile>(files.filter(isOld));
  const changing: RemoteFile[] = [];
  for (const file of young) {
    const again = second.get(file.name);
    if (!again) continue;
    if (again.size === file.size && sameTime(again.modifiedAt, file.modifiedAt)) ready.add(file);
    else changing.push(again);
  }
  return { ready: files.filter((file) => ready.has(file)), changing };
}
