// Reading an ISA segment: the element separator is the character after "ISA",
// the component separator is ISA16 and the segment terminator is what follows
// ISA16 — found by walking the separators, never by fixed byte offsets, since
// real files carry ISA fields of the wrong width (which is then reported).
import type { CodedMessage, Phrase } from "../messages";
import { faultPhrase } from "../texts";
import { TA1, type Fault } from "./faults";

export interface Delimiters {
  element: string;
  component: string;
  /** ISA11 when the version is 00402 or later and ISA11 is not a letter or digit. */
  repetition?: string;
  /** One character, "\n", "\r", "\r\n", or a character outside the BMP's ASCII range (e.g. U+2026). */
  segment: string;
}

/** Why an ISA cannot be read at all, with the TA1 note code (TA105) it gives. */
export interface IsaError {
  error: string;
  /** The same as a code (D124). */
  coded: CodedMessage;
  note: string;
}

export interface IsaRead {
  elements: string[]; // elements[0] = "ISA", elements[16] = ISA16
  delimiters: Delimiters;
  /** Line breaks are wrapping noise (the terminator is not a line break). */
  stripLineBreaks: boolean;
  /** Index just after the ISA's terminator. */
  next: number;
  faults: Omit<Fault, "segmentIndex" | "interchange">[];
}

const WIDTHS = [0, 2, 10, 2, 10, 2, 15, 2, 15, 6, 4, 1, 5, 9, 1, 1, 1];
const NOTE_FOR_ELEMENT: Record<number, string> = {
  1: TA1.authQualifier,
  2: TA1.authInfo,
  3: TA1.securityQualifier,
  4: TA1.securityInfo,
  5: TA1.qualifierSender,
  6: TA1.sender,
  7: TA1.qualifierReceiver,
  8: TA1.receiver,
  9: TA1.date,
  10: TA1.time,
  11: TA1.standards,
  12: TA1.version,
  13: TA1.controlNumber,
  14: TA1.ackRequested,
  15: TA1.usage,
  16: TA1.componentSeparator,
};

const isLineBreak = (code: number) => code === 10 || code === 13;
const isAlnum = (char: string) => /^[A-Za-z0-9]$/.test(char);
/** Space or tab: indentation after a line-break terminator, never part of it. */
const isBlank = (code: number) => code === 32 || code === 9;

/** The repetition separator is ISA11 from interchange control version 00402 on (before, ISA11 is the standards identifier, "U"). */
export const usesRepetitionSeparator = (version: string | number) => Number(version) >= 402;

export interface DelimiterProblem {
  /** Which delimiter is at fault. */
  delimiter: "element" | "component" | "repetition" | "segment";
  /** TA105: 026 element separator, 027 component separator, 004 segment terminator, 016 ISA11 (repetition separator). */
  note: string;
  message: string;
  /** The same as a code (D124). */
  coded: CodedMessage;
}

/**
 * What is wrong with a set of delimiters for an interchange of ISA12 `version`,
 * or null when nothing is: the element separator, the component separator
 * (ISA16), the segment terminator and, from 00402 on, the repetition separator
 * (ISA11) must be distinct, none a letter, a digit or a space. The element and
 * component separators and the repetition separator are one character; the
 * terminator is one character (a surrogate pair counts as one) or CRLF. Each is
 * checked against those defined before it (element, component, terminator,
 * repetition), so a collision is blamed on the later one. Used by the readers,
 * and by writers for the delimiters they are configured with.
 */
export function delimiterProblem(delimiters: Delimiters, version: string | number): DelimiterProblem | null {
  const { element, component, segment, repetition } = delimiters;
  const show = JSON.stringify;
  const single = (value: string) => value.length === 1 || (value.length === 2 && value.charCodeAt(0) >= 0xd800 && value.charCodeAt(0) <= 0xdbff);
  const unusable = (value: string) => !value || isAlnum(value) || value === " " || value === "\t";
  if (!single(element) || unusable(element) || isLineBreak(element.charCodeAt(0))) {
    return { delimiter: "element", note: TA1.elementSeparator, ...problemText(faultPhrase("element_separator", { value: show(element) })) };
  }
  if (!single(component) || unusable(component) || isLineBreak(component.charCodeAt(0)) || component === element) {
    return { delimiter: "component", note: TA1.componentSeparator, ...problemText(faultPhrase("component_separator", { value: show(component) })) };
  }
  const segmentChars = segment === "\r\n" ? ["\r", "\n"] : [segment];
  if (!(segment === "\r\n" || single(segment)) || unusable(segment) || segment === element || segment === component) {
    return { delimiter: "segment", note: TA1.segmentTerminator, ...problemText(faultPhrase("segment_terminator", { value: show(segment) })) };
  }
  if (usesRepetitionSeparator(version) && repetition !== undefined) {
    if (
      !single(repetition) ||
      unusable(repetition) ||
      isLineBreak(repetition.charCodeAt(0)) ||
      repetition === element ||
      repetition === component ||
      segmentChars.includes(repetition)
    ) {
      return { delimiter: "repetition", note: TA1.standards, ...problemText(faultPhrase("repetition_separator", { value: show(repetition) })) };
    }
  }
  return null;
}

/**
 * Reads the ISA starting at `start` ("ISA" there). Returns null when `text`
 * ends before the ISA does and more may come (`final` false); a string when
 * the segment cannot be an ISA at all.
 */
export function readIsa(text: string, start: number, final: boolean): IsaRead | null | IsaError {
  const broken = (error: Phrase, note: string = TA1.controlStructure): IsaError => ({ error: error.text, coded: error.coded, note });
  if (text.length < start + 4) return final ? broken(faultPhrase("isa_ends")) : null;
  const element = text[start + 3];
  if (isAlnum(element) || isBlank(element.charCodeAt(0)) || isLineBreak(element.charCodeAt(0))) {
    return broken(faultPhrase("isa_no_separator", { value: JSON.stringify(element) }), TA1.elementSeparator);
  }
  const elements: string[] = ["ISA"];
  let current = "";
  let i = start + 4;
  // ISA01..ISA15, each ended by the element separator; line breaks inside are wrapping.
  while (elements.length < 16) {
    if (i >= text.length) return final ? broken(faultPhrase("isa_ends")) : null;
    const char = text[i];
    if (char === element) {
      elements.push(current);
      current = "";
    } else if (!isLineBreak(char.charCodeAt(0))) {
      current += char;
      if (current.length > 80) return broken(faultPhrase("isa_too_few"));
    }
    i++;
  }
  // ISA16: one character, the component separator.
  while (i < text.length && isLineBreak(text.charCodeAt(i))) i++;
  if (i >= text.length) return final ? broken(faultPhrase("isa_ends")) : null;
  const component = text[i++];
  elements.push(component);

  // The segment terminator follows ISA16.
  if (i >= text.length) return final ? broken(faultPhrase("isa_ends_after_isa16"), TA1.segmentTerminator) : null;
  let segment: string;
  let stripLineBreaks = true;
  let next: number;
  const code = text.charCodeAt(i);
  if (isLineBreak(code)) {
    // The terminator is the line break right after ISA16 (CR, LF or CRLF).
    // Spaces and tabs after it are the next segment's indentation, never part of it.
    const lineBreak = code === 13 && text.charCodeAt(i + 1) === 10 ? "\r\n" : text[i];
    let after = i;
    while (after < text.length && isLineBreak(text.charCodeAt(after))) after++;
    if (after >= text.length && !final) return null;
    // Hard-wrapped files (the terminator is not a line break) may break right
    // after ISA16: then the terminator itself follows the break at once, a
    // character that is not a letter, digit, space, tab or the element separator.
    const following = text[after];
    if (following !== undefined && !isAlnum(following) && !isBlank(following.charCodeAt(0)) && following !== element && following !== component) {
      segment = following;
      const followingCode = following.charCodeAt(0);
      if (followingCode >= 0xd800 && followingCode <= 0xdbff) segment = text.slice(after, after + 2);
      next = after + segment.length;
    } else {
      segment = lineBreak;
      stripLineBreaks = false;
      next = i + lineBreak.length;
    }
  } else {
    segment = text[i];
    // A character beyond the BMP arrives as a surrogate pair.
    if (code >= 0xd800 && code <= 0xdbff) segment = text.slice(i, i + 2);
    next = i + segment.length;
  }

  const faults: IsaRead["faults"] = [];
  const fault = (position: number, phrase: { text: string; coded: CodedMessage }, note = NOTE_FOR_ELEMENT[position] ?? TA1.controlStructure) =>
    faults.push({ level: "interchange", segmentId: "ISA", element: position, ack: { segment: "TA1", code: note }, message: phrase.text, coded: phrase.coded });
  for (let position = 1; position <= 15; position++) {
    const value = elements[position];
    if (value.length !== WIDTHS[position]) {
      fault(
        position,
        faultPhrase("isa_width", { element: `ISA${pad2(position)}`, width: WIDTHS[position], length: value.length, value: JSON.stringify(value) }),
      );
    }
  }
  if (!/^\d{6}$/.test(elements[9])) fault(9, faultPhrase("isa_date", { value: JSON.stringify(elements[9]) }));
  if (!/^\d{4}$/.test(elements[10])) fault(10, faultPhrase("isa_time", { value: JSON.stringify(elements[10]) }));
  if (!/^\d{9}$/.test(elements[13])) fault(13, faultPhrase("isa_control_number", { value: JSON.stringify(elements[13]) }));
  const delimiters: Delimiters = { element, component, segment };
  const version = elements[12];
  const isa11 = elements[11];
  // From 00402 on ISA11 is the repetition separator. A letter or digit there
  // (the "U" of older versions, kept by senders who raised ISA12) is read as
  // "no repetition separator", not refused: real files do it (D70).
  if (usesRepetitionSeparator(version) && isa11.length === 1 && !isAlnum(isa11)) delimiters.repetition = isa11;
  const problem = delimiterProblem(delimiters, version);
  if (problem) {
    fault(problem.delimiter === "repetition" ? 11 : 16, { text: problem.message, coded: problem.coded }, problem.note);
    if (problem.delimiter === "repetition") delete delimiters.repetition;
  }
  return { elements, delimiters, stripLineBreaks, next, faults };
}

const problemText = (phrase: Phrase) => ({ message: phrase.text, coded: phrase.coded });
const pad2 = (n: number) => String(n).padStart(2, "0");
