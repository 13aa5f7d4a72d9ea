// A vendor's EDI strictness (D219), decided in one pure function the app calls
// once per file. `strict` refuses a set for any fault. `lenient` applies a set
// whose only faults are an element too long or too short, or a code outside
// its list, in elements the app does not act on (APPLIED_ELEMENTS): its 997
// says accepted with errors (AK5 E) with the AK3/AK4 notes, and the log
// warns, so a shipment is not lost over a state name in N402.
import { faultPhrase } from "../texts";
import { AK4, AK5, said, type Fault } from "../x12/faults";
import type { Interchange } from "../x12/envelope";
import { appliesElement } from "./elements";
import type { LocatedDocument } from "./index";

export const EDI_STRICTNESS = ["strict", "lenient"] as const;
export type EdiStrictness = (typeof EDI_STRICTNESS)[number];

/** AK403 codes lenient forgives outside the applied elements: a length or a code, never a missing element or a bad character. */
const FORGIVABLE = new Set<string>([AK4.tooShort, AK4.tooLong, AK4.invalidCode]);

export interface JudgedFaults {
  /** What refuses sets: the read's faults and the content faults not forgiven. */
  refusing: Fault[];
  /** The content faults for the 997 (extraFaults), forgiven ones marked `noted` (AK5 E). */
  content: Fault[];
  /** Everything noted and not refusing, for the file's warning: the read's notes and the forgiven faults. */
  noted: Fault[];
}

const setIdOf = (interchanges: Interchange[], fault: Fault) =>
  fault.interchange === undefined || fault.group === undefined || fault.transaction === undefined
    ? undefined
    : interchanges[fault.interchange]?.groups[fault.group]?.transactions[fault.transaction]?.setId;

/** Whether lenient forgives this content fault. */
function forgivable(interchanges: Interchange[], fault: Fault): boolean {
  if (fault.level !== "element" || fault.ack.segment !== "AK4" || fault.element === undefined || !FORGIVABLE.has(fault.ack.code)) return false;
  const setId = setIdOf(interchanges, fault);
  return setId !== undefined && !appliesElement(setId, `${fault.segmentId}${String(fault.element).padStart(2, "0")}`);
}

/**
 * Splits a read file's faults by the vendor's strictness. `read` is the
 * envelope read (its faults refuse, its notes do not); `contentFaults` are the
 * document readers' faults.
 */
export function judgeFaults(
  read: { interchanges: Interchange[]; faults: Fault[]; warnings: Fault[] },
  contentFaults: Fault[],
  strictness: EdiStrictness,
): JudgedFaults {
  const content = contentFaults.map((fault) =>
    strictness === "lenient" && !fault.noted && forgivable(read.interchanges, fault) ? { ...fault, noted: true } : fault,
  );
  return {
    refusing: [...read.faults, ...content.filter((fault) => !fault.noted)],
    content,
    noted: [...read.warnings.filter((fault) => fault.noted), ...content.filter((fault) => fault.noted)],
  };
}

/** The sets the readers here map (mapTransaction); any other set is refused with AK5 1, by the app and the CLI alike (D220). */
const READ_SETS = "810, 846, 850, 855, 856, 997";

/**
 * The faults of a read file's documents: each reader's, and one per set no
 * reader here maps (a 214, 820, 940...), refused as not supported (AK5 1).
 */
export function documentFaults(read: { interchanges: Interchange[] }, documents: LocatedDocument[]): Fault[] {
  return documents.flatMap((located): Fault[] => {
    if (located.mapped) return located.mapped.faults;
    const start = read.interchanges[located.interchange]?.groups[located.group]?.transactions[located.transaction]?.start ?? 0;
    return [
      {
        level: "transaction",
        segmentIndex: start + 1,
        segmentId: "ST",
        element: 1,
        positionInTransaction: 1,
        ack: { segment: "AK5", code: AK5.notSupported },
        ...said(faultPhrase("set_not_supported", { set: JSON.stringify(located.setId), control: JSON.stringify(located.controlNumber), sets: READ_SETS })),
        interchange: located.interchange,
        group: located.group,
        transaction: located.transaction,
      },
    ];
  });
}
