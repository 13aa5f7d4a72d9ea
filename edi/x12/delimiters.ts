// The one rule for a set of delimiters we write (D72): the element separator,
// the component separator, the repetition separator (ISA11, from 00402 on)
// and the segment terminator are distinct characters, none of them a letter,
// a digit or a space; only the segment terminator may be a line break (CR,
// LF or CRLF). Anything else the reader (edi/x12/isa.ts) refuses or misreads,
// so the writer throws, the vendor profile reports it and the vendor form
// refuses it on save.
import { delimiterProblem, type Delimiters } from "./isa";

/** Candidates for a separator we choose ourselves, first one free wins. */
export const REPETITION_CANDIDATES = ["^", "|", "!", "`", "\\", "{", "}", "@", "#", "$", "%", "&", ";", "~", "*", ">", "+", "="] as const;
export const COMPONENT_CANDIDATES = [">", ":", "\\", "<", "!", "`", "{", "}", "@", "#", "$", "%", "&", ";", "|", "^", "+", "="] as const;

const isLineBreak = (char: string) => char === "\n" || char === "\r";
const badChar = (char: string) => /^[A-Za-z0-9 ]$/.test(char);
const show = (value: string) => JSON.stringify(value);

/**
 * What is wrong with a set of delimiters, one sentence each; empty when the
 * reader would read a file written with them. `repetition` is checked only
 * when `version` (ISA12) is 00402 or later, or when no version is given.
 */
export function delimiterProblems(delimiters: Delimiters, version?: string): string[] {
  const problems: string[] = [];
  const named: Array<[string, string]> = [
    ["element separator", delimiters.element],
    ["component separator", delimiters.component],
  ];
  const withRepetition = version === undefined || Number(version) >= 402;
  if (withRepetition && delimiters.repetition !== undefined) named.push(["repetition separator", delimiters.repetition]);
  for (const [name, value] of named) {
    if ([...value].length !== 1) problems.push(`the ${name} must be one character, not ${show(value)}`);
    else if (badChar(value)) problems.push(`the ${name} ${show(value)} is a letter, a digit or a space`);
    else if (isLineBreak(value) || value === "\t") problems.push(`the ${name} ${show(value)} is a line break or a tab`);
  }
  const segment = delimiters.segment;
  if (!(segment === "\r\n" || [...segment].length === 1)) problems.push(`the segment terminator must be one character or CRLF, not ${show(segment)}`);
  else if (badChar(segment)) problems.push(`the segment terminator ${show(segment)} is a letter, a digit or a space`);

  const all: Array<[string, string]> = [...named, ["segment terminator", segment]];
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length; j++) {
      const [a, x] = all[i];
      const [b, y] = all[j];
      if (x === y || [...y].some((char) => x.includes(char))) problems.push(`the ${a} and the ${b} are the same character (${show(x)})`);
    }
  }
  // The reader's own rule as well, so that nothing we write is a set it refuses (issue 16, item 2).
  const reader = delimiterProblem(delimiters, version ?? "00501");
  if (reader && problems.length === 0) problems.push(reader.message);
  return problems;
}

export class DelimiterError extends Error {
  constructor(readonly problems: string[]) {
    super(`These delimiters cannot be written: ${problems.join("; ")}`);
  }
}

/** Throws a DelimiterError listing what is wrong. */
export function assertDelimiters(delimiters: Delimiters, version?: string): void {
  const problems = delimiterProblems(delimiters, version);
  if (problems.length) throw new DelimiterError(problems);
}

/** The first candidate that is none of `taken` (each a delimiter; a CRLF terminator takes both characters). */
export function firstFree(candidates: readonly string[], taken: Array<string | undefined>): string {
  const used = new Set(taken.flatMap((value) => (value ? [...value] : [])));
  const free = candidates.find((candidate) => !used.has(candidate));
  if (!free) throw new Error("no free delimiter among the candidates");
  return free;
}

/** A repetition separator that differs from the three others: the first free of REPETITION_CANDIDATES. */
export const chooseRepetition = (delimiters: Pick<Delimiters, "element" | "component" | "segment">) =>
  firstFree(REPETITION_CANDIDATES, [delimiters.element, delimiters.component, delimiters.segment]);

/** Our standard delimiters, used when a partner's cannot be (a TA1 answering a broken ISA). */
export const STANDARD_DELIMITERS: Delimiters = Object.freeze({ element: "*", component: ">", repetition: "^", segment: "~" });
