// Regular expressions typed by staff (a vendor's regex_format and
// <n>_file_contents_regex) are checked before they are saved: a pattern that
// does not compile, is too long, or can backtrack catastrophically (nested
// repetition such as (a+)+, found by safe-regex2's star-height check) is
// refused, since one such pattern run on a hostile vendor file would hold the
// process for minutes. They run on bounded input only (D65): file contents
// are matched on their first RECOGNISE_BYTES (4 KB, edi/incoming.ts and
// edi/csv/recognise.ts).
import safeRegex from "safe-regex2";

/** Longer patterns are refused: a file-name or contents pattern is a line, not a program. */
export const MAX_STAFF_REGEX_LENGTH = 500;

/** safe-regex2's limit on repetitions in one pattern (its default). */
const MAX_REPETITIONS = 25;

export type StaffRegexProblem = { problem: "too_long"; max: number } | { problem: "invalid"; detail: string } | { problem: "unsafe" };

/**
 * The pattern's bodies as the exchange compiles them: X12 vendors use the text
 * as it is (edi/vendor-profile.ts), CSV vendors also accept /body/flags
 * (edi/csv/recognise.ts). Both are checked, whichever the vendor uses now.
 */
function bodies(source: string): Array<{ body: string; flags: string }> {
  const out = [{ body: source, flags: "" }];
  const delimited = /^([/#~!%@|])(.*)\1([a-zA-Z]*)$/s.exec(source);
  if (delimited) out.push({ body: delimited[2], flags: [...new Set(delimited[3].replace(/[^imsu]/g, ""))].join("") });
  return out;
}

/** Why a staff-typed pattern cannot be saved, or null when it can (blank is no pattern). */
export function checkStaffRegex(source: string | null | undefined): StaffRegexProblem | null {
  const text = source?.trim() ?? "";
  if (text === "") return null;
  if (text.length > MAX_STAFF_REGEX_LENGTH) return { problem: "too_long", max: MAX_STAFF_REGEX_LENGTH };
  const [plain] = bodies(text);
  try {
    new RegExp(plain.body);
  } catch (error) {
    // A CSV vendor's /body/flags form may still compile where the plain text does not.
    const delimited = bodies(text)[1];
    let compiles = false;
    if (delimited) {
      try {
        new RegExp(delimited.body, delimited.flags);
        compiles = true;
      } catch {
        // reported below with the plain text's reason
      }
    }
    if (!compiles) return { problem: "invalid", detail: (error as Error).message };
  }
  for (const { body, flags } of bodies(text)) {
    let compiles = true;
    try {
      new RegExp(body, flags);
    } catch {
      compiles = false;
    }
    // safe-regex2 also answers false for what it cannot read (lookbehind): refused too, as it cannot be shown safe.
    if (compiles && !safeRegex(body, { limit: MAX_REPETITIONS })) return { problem: "unsafe" };
  }
  return null;
}
