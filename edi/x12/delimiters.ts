// The one rule for a set of delimiters we write (D72): the element separator,
// the component separator, the repetition separator (ISA11, from 00402 on)
// and the segment terminator are distinct characters, none of them a letter,
// a digit or a space; only the segment terminator may be a line break (CR,
// LF or CRLF). Anything else the reader (edi/x12/isa.ts) refuses or misreads,
// so the writer throws, the vendor profile reports it and the vendor form
// refuses it on save.
import { coded, type CodedMessage } from "../messages";
import { delimiterProblem, type Delimiters } from "./isa";

/** Candidates for a separator we choose ourselves, first one free wins. */
export const REPETITION_CANDIDATES = ["^", "|", "!", "`", "\\", "{", "}", "@", "#", "$", "%", "&", ";", "~", "*", ">", "+", "="] as const;
export const COMPONENT_CANDIDATES = [">", ":", "\\", "<", "!", "`", "{", "}", "@", "#", "$", "%", "&", ";", "|", "^", "+", "="] as const;

const isLineBreak = (char: string) => char === "\n" || char === "\r";
const badChar = (char: string) => /^[A-Za-z0-9 ]$/.test(char);
const show = (value: string) => JSON.stringify(value);

/** One problem of a set of delimiters: the English sentence, and the same as a code with parameters (D117). */
export interface DelimiterIssue {
  message: string;
  coded: CodedMessage;
}

type DelimiterName = "element" | "component" | "repetition" | "segment";
const NAMES: Record<DelimiterName, string> = {
  element: "element separator",
  component: "component separator",
  repetition: "repetition separator",
  segment: "segment terminator",
};
const nameOf = (name: DelimiterName) => coded(`edi_profile.delimiters.names.${name}`);

/**
 * What is wrong with a set of delimiters, one sentence each; empty when the
 * reader would read a file written with them. `repetition` is checked only
 * when `version` (ISA12) is 00402 or later, or when no version is given.
 */
export function delimiterProblems(delimiters: Delimiters, version?: string): string[] {
  return delimiterIssues(delimiters, version).map((issue) => issue.message);
}

/** delimiterProblems, each also as a code under `edi_profile.delimiters.` for the reader's language. */
export function delimiterIssues(delimiters: Delimiters, version?: string): DelimiterIssue[] {
  const problems: DelimiterIssue[] = [];
  const add = (message: string, code: string, params: Record<string, unknown>) =>
    problems.push({ message, coded: coded(`edi_profile.delimiters.${code}`, params) });
  const named: Array<[DelimiterName, string]> = [
    ["element", delimiters.element],
    ["component", delimiters.component],
  ];
  const withRepetition = version === undefined || Number(version) >= 402;
  if (withRepetition && delimiters.repetition !== undefined) named.push(["repetition", delimiters.repetition]);
  for (const [key, value] of named) {
    const name = NAMES[key];
    const params = { name: nameOf(key), value: show(value) };
    if ([...value].length !== 1) add(`the ${name} must be one character, not ${show(value)}`, "one_character", params);
    else if (badChar(value)) add(`the ${name} ${show(value)} is a letter, a digit or a space`, "letter_digit_space", params);
    else if (isLineBreak(value) || value === "\t") add(`the ${name} ${show(value)} is a line break or a tab`, "line_break_tab", params);
  }
  const segment = delimiters.segment;
  if (!(segment === "\r\n" || [...segment].length === 1))
    add(`the segment terminator must be one character or CRLF, not ${show(segment)}`, "segment_length", { value: show(segment) });
  else if (badChar(segment))
    add(`the segment terminator ${show(segment)} is a letter, a digit or a space`, "letter_digit_space", { name: nameOf("segment"), value: show(segment) });

  const all: Array<[DelimiterName, string]> = [...named, ["segment", segment]];
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length; j++) {
      const [a, x] = all[i];
      const [b, y] = all[j];
      if (x === y || [...y].some((char) => x.includes(char)))
        add(`the ${NAMES[a]} and the ${NAMES[b]} are the same character (${show(x)})`, "same", { a: nameOf(a), b: nameOf(b), value: show(x) });
    }
  }
  // The reader's own rule as well, so that nothing we write is a set it refuses (issue 16, item 2).
  const reader = delimiterProblem(delimiters, version ?? "00501");
  if (reader && problems.length === 0) add(reader.message, `reader_${reader.delimiter}`, { value: show(delimiters[reader.delimiter] ?? "") });
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
