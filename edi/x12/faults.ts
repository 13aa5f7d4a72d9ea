// What can be wrong with an X12 file, each fault named by the segment at fault
// and mapped to the acknowledgement code a partner understands: TA1 note codes
// for the interchange, AK9 for a functional group, AK5 for a transaction set,
// AK3/AK4 for a segment or one of its elements.
import { coded, nameControls, type CodedMessage, type Phrase } from "../messages";

export type FaultLevel = "interchange" | "group" | "transaction" | "segment" | "element";

export interface Fault {
  level: FaultLevel;
  /** 1-based position of the segment in the file. */
  segmentIndex: number;
  segmentId: string;
  /** Element position (ISA06 → 6), when an element is at fault. */
  element?: number;
  /** The acknowledgement segment and code: TA105, AK905, AK502, AK304 or AK403. */
  ack: { segment: "TA1" | "AK9" | "AK5" | "AK3" | "AK4"; code: string };
  message: string;
  /** The same sentence as a code with parameters (D124), for the reader's language; absent on a fault built from plain text. */
  coded?: CodedMessage;
  /** Where it sits, so a 997 can report it against the right group and set. */
  interchange?: number;
  group?: number;
  transaction?: number;
  /** Position of the segment inside its transaction set (ST = 1), for AK302. */
  positionInTransaction?: number;
  /**
   * Noted, not refusing (D215): the set or group is still applied, and a 997
   * answers it accepted with errors (AK5/AK9 `E`) carrying this code. A
   * duplicate control number, a trailing Ctrl-Z, an element a lenient vendor's
   * set may get wrong.
   */
  noted?: boolean;
}

// TA1 note codes (TA105).
export const TA1 = {
  controlNumberMismatch: "001",
  segmentTerminator: "004",
  qualifierSender: "005",
  sender: "006",
  qualifierReceiver: "007",
  receiver: "008",
  authQualifier: "010",
  authInfo: "011",
  securityQualifier: "012",
  securityInfo: "013",
  date: "014",
  time: "015",
  standards: "016",
  version: "017",
  controlNumber: "018",
  ackRequested: "019",
  usage: "020",
  groupCount: "021",
  controlStructure: "022",
  endOfFile: "023",
  content: "024",
  elementSeparator: "026",
  componentSeparator: "027",
} as const;

// AK905: functional group syntax errors.
export const AK9 = { trailerMissing: "3", controlNumberMismatch: "4", transactionCount: "5", controlNumberSyntax: "6", controlNumberNotUnique: "19" } as const;
// AK502: transaction set syntax errors.
export const AK5 = {
  notSupported: "1",
  trailerMissing: "2",
  controlNumberMismatch: "3",
  segmentCount: "4",
  oneOrMoreSegmentsInError: "5",
  missingOrInvalidId: "6",
  missingOrInvalidControlNumber: "7",
  controlNumberNotUnique: "23",
} as const;
// AK304: segment syntax errors.
export const AK3 = { unrecognized: "1", unexpected: "2", mandatoryMissing: "3", notInSet: "6", outOfSequence: "7", elementErrors: "8" } as const;
// AK403: data element syntax errors.
export const AK4 = {
  mandatoryMissing: "1",
  tooMany: "3",
  tooShort: "4",
  tooLong: "5",
  invalidCharacter: "6",
  invalidCode: "7",
  invalidDate: "8",
  invalidTime: "9",
} as const;

/** One line per fault: "segment 14 (SE): SE01 says 12 segments, the transaction set has 11 [AK5 4]". */
export function describeFault(fault: Fault): string {
  return `segment ${fault.segmentIndex} (${nameControls(fault.segmentId) || "?"}): ${fault.message} [${fault.ack.segment} ${fault.ack.code}]`;
}

/** A fault's `message` and `coded` from one of our sentences (edi/texts.ts). */
export const said = (phrase: Phrase): { message: string; coded: CodedMessage } => ({ message: phrase.text, coded: phrase.coded });

/** describeFault as a code with parameters (`edi.fault.line`), for the reader's language; a fault without a code keeps its English words. */
export function faultMessage(fault: Fault): CodedMessage {
  return coded("edi.fault.line", {
    index: fault.segmentIndex,
    segment: nameControls(fault.segmentId) || "?",
    message: fault.coded ?? { text: fault.message },
    ack: fault.ack.segment,
    ack_code: fault.ack.code,
  });
}
