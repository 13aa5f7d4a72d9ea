// What a run takes from one listed folder, for vendors' and the AS400's
// files alike (D180): a server may list 50,000 names, or names that are
// paths, and a run must stay bounded whatever it lists.
// - names that are paths are refused together: one log line and one problem
//   naming how many and the first, not one per name;
// - at most MAX_FILES_PER_FOLDER files are taken a run, oldest first by
//   modification time (then by name), the rest at the next runs;
// - a listing the transport cut (too many names, too long) says so once.
import { isTemporaryUploadName, type ListingCut, type RemoteFile, type RemoteListing } from "@edi/transport";
import { displayRemoteName } from "@edi/transport";

export interface FolderSelection {
  /** Names refused as paths (D61), left on the server. */
  refused: RemoteFile[];
  /** The files to look at this run, oldest first, at most `maxFiles`. */
  taken: RemoteFile[];
  /** Wanted files beyond `maxFiles`, left for the next runs. */
  leftForNextRun: number;
  /** Files the owner does not want (regex_format), not counted against the limit. */
  unwanted: number;
  /** Set when the listing stopped before the server's end. */
  cut?: ListingCut;
}

/** Oldest first: files with no time (FTP without MLSD) after those with one; then by name, numbers by value. */
export function oldestFirst(a: RemoteFile, b: RemoteFile): number {
  const at = a.modifiedAt?.getTime() ?? Number.POSITIVE_INFINITY;
  const bt = b.modifiedAt?.getTime() ?? Number.POSITIVE_INFINITY;
  if (at !== bt) return at < bt ? -1 : 1;
  return a.name.localeCompare(b.name, "en", { numeric: true });
}

/** The files of a listing a run takes: plain files (no `.part` uploads), wanted by `wanted`, at most `maxFiles`, oldest first. */
export function selectFromListing(listing: RemoteListing, wanted: (file: RemoteFile) => boolean, maxFiles: number): FolderSelection {
  const files = listing.filter((file) => file.type === "file" && !isTemporaryUploadName(file.name));
  const refused = files.filter((file) => file.refused);
  const candidates = files.filter((file) => !file.refused);
  const chosen = candidates.filter(wanted).sort(oldestFirst);
  return {
    refused,
    taken: chosen.slice(0, maxFiles),
    leftForNextRun: Math.max(0, chosen.length - maxFiles),
    unwanted: candidates.length - chosen.length,
    cut: listing.cut,
  };
}

/** The parameters of the one line that names a batch of refused names: how many, and the first with its reason. */
export function refusedNamesParams(refused: RemoteFile[], folder: string) {
  const first = refused[0]!;
  return { count: refused.length, folder, name: displayRemoteName(first.name), reason: first.refused ?? "" };
}

/** The code and parameters of a cut listing's message, under `prefix` (logs.dropship or logs.as400). */
export function listingCutMessage(prefix: string, folder: string, cut: ListingCut): { code: string; params: Record<string, unknown> } {
  return cut.reason === "names"
    ? { code: `${prefix}.listing_cut_names`, params: { folder, limit: cut.limit } }
    : { code: `${prefix}.listing_cut_time`, params: { folder, seconds: Math.round(cut.limit / 100) / 10 } };
}
