// Remote paths are POSIX paths on the vendor's server, whatever our own OS is.
import { posix } from "node:path";
import { PathError } from "./errors";
import type { RemoteFile } from "./types";

/** Control characters, NUL included: a line break in an FTP command would start a new command. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * Joins a user-given file name or relative path onto a configured folder and refuses
 * anything that would leave it ("..", absolute paths, NUL and other control characters,
 * backslashes): file paths from users stay inside their folders.
 */
export function resolveInside(folder: string, userPath: string): string {
  if (typeof userPath !== "string" || userPath === "") throw new PathError(String(userPath ?? ""), "it is empty", { code: "empty" });
  if (CONTROL_CHARACTERS.test(userPath))
    throw new PathError(userPath, "it contains a control character (such as NUL or a line break)", { code: "control_character" });
  if (userPath.includes("\\")) throw new PathError(userPath, "it contains a backslash", { code: "backslash" });
  if (userPath.startsWith("/")) throw new PathError(userPath, `it is absolute; give a path inside ${folder}`, { code: "absolute", params: { folder } });
  const segments = userPath.split("/");
  // "a/../b" would stay inside, but no vendor file needs "..": refusing it outright is simpler to trust.
  if (segments.includes("..")) throw new PathError(userPath, `it contains "..", which could leave ${folder}`, { code: "dot_dot", params: { folder } });
  const kept = segments.filter((segment) => segment !== "" && segment !== ".");
  if (kept.length === 0) throw new PathError(userPath, "it names no file", { code: "no_file" });
  return joinRemote(folder, kept.join("/"));
}

/** The longest name a listing may give us, in UTF-8 bytes: most file systems' own limit. */
export const MAX_REMOTE_NAME_BYTES = 255;

/** Control characters for names from listings: C0, DEL and C1 (a line break in a log line or a command). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NAME_CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Why a name from a remote listing cannot be taken as one file's name, or null
 * when it can. A listing is the remote server's word, so a name is data: "/",
 * "\\" or ".." in it would make it a path. Any ".." is refused, "a..b.edi" too:
 * no vendor or AS400 file needs one, and one rule is simpler to trust.
 */
export function unsafeRemoteName(name: string): string | null {
  if (typeof name !== "string" || name === "") return "it is empty";
  if (name === "." || name === "..") return `it is "${name}"`;
  if (name.includes("/")) return "it contains a slash";
  if (name.includes("\\")) return "it contains a backslash";
  if (name.includes("..")) return 'it contains ".."';
  if (NAME_CONTROL_CHARACTERS.test(name)) return "it contains a control character";
  if (Buffer.byteLength(name, "utf8") > MAX_REMOTE_NAME_BYTES) return `it is longer than ${MAX_REMOTE_NAME_BYTES} bytes`;
  return null;
}

/**
 * The one way a name from a remote listing becomes a path (remote or local):
 * the folder joined with the name, or a PathError when the name is not a
 * plain file name (see unsafeRemoteName).
 */
export function remoteEntryPath(folder: string, name: string): string {
  const reason = unsafeRemoteName(name);
  if (reason) throw new PathError(name, reason);
  return joinRemote(folder, name);
}

/**
 * Where a listed entry is, for the transports' list(): its path, or, for a
 * name that is not a plain file name, no path ("") and the reason, so that
 * callers refuse it by name and nothing can reach it by accident.
 */
export function listedEntryPath(folder: string, name: string): { path: string; refused?: string } {
  const refused = unsafeRemoteName(name);
  return refused ? { path: "", refused } : { path: remoteEntryPath(folder, name) };
}

/**
 * A folder's listing as the transports' list() returns it: without "." and "..", each
 * entry's path built by listedEntryPath (a name that is a path is refused), and the
 * rest of what the protocol tells of it from `describe`.
 */
export function listedFiles<Entry extends { name: string }>(
  folder: string,
  entries: Entry[],
  describe: (entry: Entry) => Pick<RemoteFile, "size" | "modifiedAt" | "type">,
): RemoteFile[] {
  return entries
    .filter((entry) => entry.name !== "." && entry.name !== "..")
    .map((entry) => ({ name: entry.name, ...listedEntryPath(folder, entry.name), ...describe(entry) }));
}

/** A remote name fit for a log line or a message: quoted, escaped, and cut at 80 characters. */
export function displayRemoteName(name: string): string {
  const quoted = JSON.stringify(name);
  return quoted.length > 82 ? `${quoted.slice(0, 80)}…"` : quoted;
}

/** Refuses a name that is not a single plain file name (used for upload names). */
export function assertPlainFileName(name: string): void {
  resolveInside("/", name);
  if (name.includes("/")) throw new PathError(name, "a file name cannot contain a slash", { code: "slash" });
}

/** "/inbound/" → "/inbound", "a//b/./c" → "a/b/c", "" → ".". */
export function normaliseRemotePath(path: string): string {
  const normalised = posix.normalize(path || ".");
  return normalised.length > 1 && normalised.endsWith("/") ? normalised.slice(0, -1) : normalised;
}

export function joinRemote(folder: string, name: string): string {
  const base = normaliseRemotePath(folder);
  if (base === ".") return name;
  return base.endsWith("/") ? `${base}${name}` : `${base}/${name}`;
}

export function parentOf(path: string): string {
  return posix.dirname(normaliseRemotePath(path));
}

export function baseName(path: string): string {
  return posix.basename(normaliseRemotePath(path));
}

/** Every folder from the top down to `path`: "/a/b" → ["/a", "/a/b"], "a/b" → ["a", "a/b"]. */
export function folderChain(path: string): string[] {
  const normalised = normaliseRemotePath(path);
  if (normalised === "/" || normalised === ".") return [];
  const absolute = normalised.startsWith("/");
  const parts = normalised.split("/").filter(Boolean);
  return parts.map((_, index) => (absolute ? "/" : "") + parts.slice(0, index + 1).join("/"));
}

/** The hidden name an upload is written under before it is renamed: "po1.edi" → ".po1.edi.part". */
export function temporaryUploadName(name: string): string {
  return `.${name}.part`;
}

export function isTemporaryUploadName(name: string): boolean {
  return name.startsWith(".") && name.endsWith(".part");
}

export const ARCHIVE_FOLDER = "archive";

/**
 * Names to try, in order, when archiving `name`: itself, then with a UTC timestamp
 * before the extension ("po1_20240105-102233.edi"), then numbered ("po1_20240105-102233-2.edi").
 */
export function* archiveNameCandidates(name: string, now: Date = new Date()): Generator<string> {
  yield name;
  const dot = name.lastIndexOf(".");
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, "")
    .replace(/[-:]/g, "")
    .replace("T", "-");
  yield `${stem}_${stamp}${extension}`;
  for (let n = 2; ; n++) yield `${stem}_${stamp}-${n}${extension}`;
}
