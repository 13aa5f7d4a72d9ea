// Reading an ISA segment: the element separator is the character after "ISA",
// the component separator is ISA16 and the segment terminator is what follows
// ISA16 — found by walking the separators, never by fixed byte offsets, since
// real files carry ISA fields of the wrong width (which is then reported).
import { TA1, type Fault } from "./faults";

export interface Delimiters {
  element: string;
  component: string;
  /** ISA11 when the version is 00402 or later and ISA11 is not a letter or digit. */
  repetition?: string;
  /** One character, "\n", "\r", "\r\n", or a character outside the BMP's ASCII range (e.g. U+2026). */
  segment: string;
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
  1: TA1.authQualifier, 2: TA1.authInfo, 3: TA1.securityQualifier, 4: TA1.securityInfo,
  5: TA1.qualifierSender, 6: TA1.sender, 7: TA1.qualifierReceiver, 8: TA1.receiver,
  9: TA1.date, 10: TA1.time, 11: TA1.standards, 12: TA1.version, 13: TA1.controlNumber,
  14: TA1.ackRequested, 15: TA1.usage, 16: TA1.componentSeparator,
};

const isLineBreak = (code: number) => code === 10 || code === 13;
const isAlnum = (char: string) => /^[A-Za-z0-9]$/.test(char);

/**
 * Reads the ISA starting at `start` ("ISA" there). Returns null when `text`
 * ends before the ISA does and more may come (`final` false); a string when
 * the segment cannot be an ISA at all.
 */
export function readIsa(text: string, start: number, final: boolean): IsaRead | null | string {
  if (text.length < start + 4) return final ? "the file ends inside the ISA segment" : null;
  const element = text[start + 3];
  if (isAlnum(element) || element === " " || isLineBreak(element.charCodeAt(0))) {
    return `ISA is not followed by an element separator (found ${JSON.stringify(element)})`;
  }
  const elements: string[] = ["ISA"];
  let current = "";
  let i = start + 4;
  // ISA01..ISA15, each ended by the element separator; line breaks inside are wrapping.
  while (elements.length < 16) {
    if (i >= text.length) return final ? "the file ends inside the ISA segment" : null;
    const char = text[i];
    if (char === element) {
      elements.push(current);
      current = "";
    } else if (!isLineBreak(char.charCodeAt(0))) {
      current += char;
      if (current.length > 80) return "the ISA segment has fewer than 16 elements";
    }
    i++;
  }
  // ISA16: one character, the component separator.
  while (i < text.length && isLineBreak(text.charCodeAt(i))) i++;
  if (i >= text.length) return final ? "the file ends inside the ISA segment" : null;
  const component = text[i++];
  elements.push(component);

  // The segment terminator follows ISA16.
  if (i >= text.length) return final ? "the file ends after ISA16, before the segment terminator" : null;
  let segment: string;
  let stripLineBreaks = true;
  let next: number;
  const code = text.charCodeAt(i);
  if (isLineBreak(code)) {
    const lineBreak = code === 13 && text.charCodeAt(i + 1) === 10 ? "\r\n" : text[i];
    let after = i;
    while (after < text.length && isLineBreak(text.charCodeAt(after))) after++;
    if (after >= text.length && !final) return null;
    // A wrapped ISA may break right after ISA16: then a punctuation character follows.
    const following = text[after];
    if (following !== undefined && !/[A-Za-z]/.test(following) && following !== element) {
      segment = following;
      next = after + 1;
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
  const fault = (position: number, message: string, note = NOTE_FOR_ELEMENT[position] ?? TA1.controlStructure) =>
    faults.push({ level: "interchange", segmentId: "ISA", element: position, ack: { segment: "TA1", code: note }, message });
  for (let position = 1; position <= 15; position++) {
    const value = elements[position];
    if (value.length !== WIDTHS[position]) {
      fault(position, `ISA${pad2(position)} must be ${WIDTHS[position]} characters, found ${value.length} (${JSON.stringify(value)})`);
    }
  }
  if (!/^\d{6}$/.test(elements[9])) fault(9, `ISA09 is not a date YYMMDD: ${JSON.stringify(elements[9])}`);
  if (!/^\d{4}$/.test(elements[10])) fault(10, `ISA10 is not a time HHMM: ${JSON.stringify(elements[10])}`);
  if (!/^\d{9}$/.test(elements[13])) fault(13, `ISA13 is not a 9-digit control number: ${JSON.stringify(elements[13])}`);
  if (isAlnum(component) || component === element || component === segment) {
    fault(16, `ISA16 ${JSON.stringify(component)} cannot be the component separator`, TA1.componentSeparator);
  }
  if (segment === element || isAlnum(segment)) {
    fault(16, `the character after ISA16, ${JSON.stringify(segment)}, cannot be the segment terminator`, TA1.controlStructure);
  }

  const delimiters: Delimiters = { element, component, segment };
  const version = Number(elements[12]);
  const isa11 = elements[11];
  if (version >= 402 && isa11.length === 1 && !isAlnum(isa11) && isa11 !== " ") delimiters.repetition = isa11;
  return { elements, delimiters, stripLineBreaks, next, faults };
}

const pad2 = (n: number) => String(n).padStart(2, "0");
