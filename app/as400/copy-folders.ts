// Where a vendor's 810 and 846 copies go on the AS400 (D196): each set has its root
// (docs/as400-files.md), and a vendor's AS400 path is a folder inside it, written
// relative to it ("ACME" is /as400/inventory/ACME; "." the root itself). An absolute
// path, "..", a backslash or a control character is refused on save and again when a
// copy is queued and uploaded, so a vendor's file never lands among the AS400's own
// files (/as400/realtime/sales…).
import { joinRemote, PathError, resolveInside } from "@edi/transport";

export const AS400_COPY_ROOTS = { "810": "/as400/invoices", "846": "/as400/inventory" } as const;

export type As400CopySet = keyof typeof AS400_COPY_ROOTS;

/** The vendor field that holds each set's folder (spec field names). */
export const AS400_COPY_FIELDS = { "810_as400_filepath": "810", "846_as400_filepath": "846" } as const satisfies Record<string, As400CopySet>;

const MAX_FOLDER_LENGTH = 200;

/** The AS400 folder a vendor's relative folder names, or a PathError saying why it is not one. */
export function as400CopyFolder(set: As400CopySet, relative: string): string {
  const root = AS400_COPY_ROOTS[set];
  const trimmed = relative.replace(/\/+$/, "");
  if (trimmed === ".") return root;
  if (relative.length > MAX_FOLDER_LENGTH)
    throw new PathError(relative, `it is longer than ${MAX_FOLDER_LENGTH} characters`, { code: "too_long", params: { max: MAX_FOLDER_LENGTH } });
  // "a/./b" and "a//b" would stay inside, but say the folder another way than the AS400 shows it.
  if (/(^|\/)\.?(\/|$)/.test(trimmed) && !trimmed.startsWith("/")) throw new PathError(relative, "it has an empty or '.' part", { code: "empty_part" });
  return resolveInside(root, trimmed);
}

/** Whether a stored copy's path is a file inside its set's root (checked again before the upload). */
export function insideAs400CopyRoot(set: string | null, remotePath: string | null): boolean {
  const root = set === "810" || set === "846" ? AS400_COPY_ROOTS[set] : null;
  if (!root || !remotePath) return false;
  return remotePath.startsWith(`${root}/`) && joinRemote(root, remotePath.slice(root.length + 1)) === remotePath && !remotePath.split("/").includes("..");
}
