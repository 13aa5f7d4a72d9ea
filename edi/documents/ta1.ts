// TA1 interchange acknowledgment (D73): the answer to an interchange whose
// envelope is at fault, when the partner asked for one (ISA14 = 1) or the
// envelope cannot carry a 997 (delimiters that cannot be written back, a GS
// whose GS01/GS06 cannot be named in AK1, no group at all).
//
//   TA1*ISA13*ISA09*ISA10*A|E|R*note code
//
// TA101 N0 9/9, TA102 DT 6/6 (YYMMDD), TA103 TM 4/4 (HHMM), TA104 ID 1/1
// (A accepted, E accepted with errors, R rejected), TA105 ID 3/3 (000 no
// error, 001–031 the I18 list; edi/x12/faults.ts TA1). One TA1 per received
// interchange, each in an interchange of its own addressed back to its sender,
// written with our delimiters (the vendor's output ones, or * > ^ ~), never
// with the partner's: those may be what is broken.
import { addControlNumber } from "../control-numbers";
import { delimiterProblems, STANDARD_DELIMITERS } from "../x12/delimiters";
import type { Fault } from "../x12/faults";
import type { Interchange } from "../x12/envelope";
import type { Delimiters } from "../x12/isa";
import type { ReadResult } from "../x12/reader";
import { writeInterchange, x12DateTime } from "../x12/writer";
import { answerDelimiters, echoableGroup } from "./997";

export interface Ta1Answer {
  /** Index of the received interchange. */
  interchange: number;
  /** TA101..TA105 */
  controlNumber: string;
  date: string;
  time: string;
  code: "A" | "E" | "R";
  note: string;
  /** Why a TA1 is sent: the partner asked (ISA14 = 1), or the envelope cannot carry a 997. */
  reason: "requested" | "no_997";
}

export interface Ta1Options {
  /** Delimiters for a 997 answering the same file (the vendor's output ones); default the received interchange's. */
  delimiters?: Delimiters;
  date?: Date;
}

const isTa1Fault = (fault: Fault, i: number) => fault.ack.segment === "TA1" && fault.interchange === i;
/** The reader's note that the vendor's configured delimiters differ from the ISA's is not a fault of the interchange. */
const isHintNote = (fault: Fault) => fault.message.startsWith("the vendor's delimiters");

/**
 * Which received interchanges get a TA1, and what it says. An interchange of
 * acknowledgements only (FA groups) gets one only when it asks (ISA14 = 1),
 * and one holding a TA1 and no group never does: an acknowledgement is not
 * acknowledged by a 997, and a TA1 never answers a TA1.
 */
export function planTa1(result: Pick<ReadResult, "interchanges" | "faults" | "warnings" | "segments">, options: Ta1Options = {}): Ta1Answer[] {
  const { date6, time } = x12DateTime(options.date ?? new Date());
  const answers: Ta1Answer[] = [];
  result.interchanges.forEach((interchange: Interchange, i) => {
    const receivedTa1 = interchange.serviceSegments.some((index) => index < result.segments.length && result.segments.id(index) === "TA1");
    if (interchange.groups.length === 0 && receivedTa1) return;
    const refusing = result.faults.filter((fault) => isTa1Fault(fault, i));
    const tolerated = result.warnings.filter((fault) => isTa1Fault(fault, i) && !isHintNote(fault) && !fault.noted);
    const content = interchange.groups.filter((group) => group.functionalId !== "FA");
    const unnamed = content.filter((group) => !echoableGroup(group));
    const brokenDelimiters = delimiterProblems(interchange.delimiters).length > 0 || answerDelimiters(options.delimiters ?? interchange.delimiters) === null;
    const faOnly = interchange.groups.length > 0 && content.length === 0;
    const requested = interchange.isa[14]?.trim() === "1";
    const atFault = refusing.length > 0 || tolerated.length > 0 || unnamed.length > 0;
    const cannotCarry997 = !faOnly && (brokenDelimiters || unnamed.length > 0 || content.length === 0);
    if (!requested && !(atFault && cannotCarry997)) return;

    const first = [...refusing, ...tolerated].sort((a, b) => a.segmentIndex - b.segmentIndex)[0];
    const code = refusing.length > 0 || unnamed.length > 0 ? "R" : tolerated.length > 0 ? "E" : "A";
    // TA105: the first interchange-level fault's note code; a GS that cannot be named in a 997 is 024 (invalid interchange content).
    const note = first ? first.ack.code : unnamed.length > 0 ? "024" : code === "A" ? "000" : "022";
    const control = interchange.controlNumber.trim();
    answers.push({
      interchange: i,
      // TA101-TA103 echo ISA13, ISA09 and ISA10 when they fit N0 9/9, DT 6/6 and TM 4/4; otherwise zeros and our date and time (TA105 says which was wrong).
      controlNumber: /^\d{1,9}$/.test(control) ? control.padStart(9, "0") : "000000000",
      date: /^\d{6}$/.test(interchange.date) ? interchange.date : date6,
      time: /^\d{4}$/.test(interchange.time) ? interchange.time : time,
      code,
      note,
      reason: requested ? "requested" : "no_997",
    });
  });
  return answers;
}

export interface Ta1InterchangeOptions extends Ta1Options {
  /** Our ID; default the receiver of each received interchange. */
  sender?: { qualifier: string; id: string };
  /** The partner's ID; default the sender of each received interchange. */
  receiver?: { qualifier: string; id: string };
  /** The next ISA13; the result gives the one after. */
  controlNumber: number;
  usage?: "P" | "T";
}

/** One interchange holding one TA1 per received interchange that gets one (planTa1), written with our delimiters. */
export function ta1Interchanges(result: Pick<ReadResult, "interchanges" | "faults" | "warnings" | "segments">, options: Ta1InterchangeOptions) {
  const answers = planTa1(result, options);
  const { date6, time } = x12DateTime(options.date ?? new Date());
  // Ours: the vendor's output delimiters when they can be written, else the standard ones; never the partner's.
  const usable = options.delimiters ? answerDelimiters(options.delimiters) : null;
  const delimiters = usable ?? STANDARD_DELIMITERS;
  let next = options.controlNumber;
  let text = "";
  for (const answer of answers) {
    const interchange = result.interchanges[answer.interchange];
    const written = writeInterchange({
      delimiters,
      sender: options.sender ?? interchange.receiver,
      receiver: options.receiver ?? interchange.sender,
      date: date6,
      time,
      controlNumber: next,
      version: "00401",
      usage: options.usage ?? (interchange.usage === "T" ? "T" : "P"),
      serviceSegments: [["TA1", answer.controlNumber, answer.date, answer.time, answer.code, answer.note]],
      groups: [],
    });
    next = addControlNumber(next);
    text += written.text;
  }
  return { text, answers, controlNumber: next };
}
