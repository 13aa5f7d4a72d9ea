// Remote paths are POSIX paths on the vendor's server, whatever our own OS is.
import { posix } from "node:path";
import { PathError } from "./errors";

/** Control characters, NUL included: a line break in an FTP command would start a new command. */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * Joins a user-given file name or relative path onto a configured folder and refuses
 * anything that would leave it ("..", absolute paths, NUL and other control characters,
 * backslashes): file paths from users stay inside their folders.
 */
export function resolveInside(folder: string, userPath: string): string {
  if (typeof userPath !== "string" || userPath === "") throw new PathError(String(userPath ?? ""), "it is empty");
  if (CONTROL_CHARACTERS.test(userPath)) throw new PathError(userPath, "it contains a control character (such as NUL or a line break)");
  if (userPath.includes("\\")) throw new PathError(userPath, "it contains a backslash");
  if (userPath.startsWith("/")) throw new PathError(userPath, `it is absolute; give a path inside ${folder}`);
  const segments = userPath.split("/");
  // "a/../b" would stay inside, but no vendor file needs "..": refusing it outright is simpler to trust.
  if (segments.includes("..")) throw new PathError(userPath, `it contains "..", which could leave ${folder}`);
  const kept = segments.filter((segment) => segment !== "" && segment !== ".");
  if (kept.length === 0) throw new PathError(userPath, "it names no file");
  return joinRemote(folder, kept.join("/"));
}

/** Refuses a name that is not a single plain file name (used for upload names). */
export function assertPlainFileName(name: string): void {
  resolveInside("/", name);
  if (name.includes("/")) throw new PathError(name, "a file name cannot contain a slash");
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
  const stamp = now.toISOString().replace(/\.\d+Z$/, "").replace(/[-:]/g, "").replace("T", "-");
  yield `${stem}_${stamp}${extension}`;
  for (let n = 2; ; n++) yield `${stem}_${stamp}-${n}${extension}`;
}
