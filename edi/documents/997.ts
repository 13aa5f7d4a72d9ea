// 997 functional acknowledgment, both ways.
//
// Sending: acknowledgeGroup() turns the faults a read found into a plain
// acknowledgement (per set: accepted, or rejected with AK3/AK4 segment and
// element errors and AK5 codes; per group: AK9 status and counts); build997()
// writes it as a transaction set; ack997Interchange() answers every group of
// every interchange of a file in one go.
//
// Receiving: parse997() reads a partner's 997 into the same plain shape and
// checks its content (AK101 a functional identifier, AK403 an error code...),
// reporting what is wrong as element faults.
import { faultPhrase } from "../texts";
import { addControlNumber } from "../control-numbers";
import { chooseRepetition, delimiterProblems } from "../x12/delimiters";
import { AK4, type Fault } from "../x12/faults";
import type { FunctionalGroup, Interchange, TransactionSet } from "../x12/envelope";
import type { Delimiters } from "../x12/isa";
import type { ReadResult } from "../x12/reader";
import { writeInterchange, x12DateTime, type SegmentData, type TransactionData, type WriteResult } from "../x12/writer";
import { dropUndefined, element, Issues, type Parsed, type Segment, type TransactionView } from "./types";

export type AckStatus = "accepted" | "accepted_with_errors" | "partially_accepted" | "rejected" | "unknown";

/** AK501 / AK901 codes and what they mean for the app. */
const STATUS_BY_CODE: Record<string, AckStatus> = {
  A: "accepted",
  E: "accepted_with_errors",
  P: "partially_accepted",
  R: "rejected",
  M: "rejected", // message authentication code failed
  W: "rejected", // assurance failed validity tests
  X: "rejected", // content after decryption could not be analysed
};

export interface FunctionalAck {
  /** One per AK1; a 997 acknowledges one group, but the shape allows a list. */
  groups: AckGroup[];
}

export interface AckGroup {
  /** AK101: GS01 of the acknowledged group. */
  functionalId: string;
  /** AK102: GS06 of the acknowledged group. */
  controlNumber: string;
  /** AK103 (version 005010): GS08 of the acknowledged group. */
  version?: string;
  status: AckStatus;
  /** AK901 as sent. */
  statusCode: string;
  /** AK905 to AK909: group syntax error codes. */
  errorCodes: string[];
  /** AK902 sets included (GE01), AK903 received, AK904 accepted. */
  counts: { included?: number; received?: number; accepted?: number };
  transactions: AckTransaction[];
}

export interface AckTransaction {
  /** AK201 */
  setId: string;
  /** AK202 */
  controlNumber: string;
  /** AK203 (version 005010): ST03. */
  convention?: string;
  status: AckStatus;
  /** AK501 as sent. */
  statusCode: string;
  /** AK502 to AK506: transaction set syntax error codes. */
  errorCodes: string[];
  /** AK3 segments with their AK4s. */
  errors: AckSegmentError[];
}

export interface AckSegmentError {
  /** AK301 */
  segmentId: string;
  /** AK302: position in the set, ST = 1 (absent when not a number). */
  position?: number;
  /** AK303 */
  loop?: string;
  /** AK304 */
  code?: string;
  elements: AckElementError[];
}

export interface AckElementError {
  /** AK401 (C030 in 005010: position, component, repetition). */
  position?: number;
  component?: number;
  repetition?: number;
  /** AK402: data element reference number. */
  reference?: string;
  /** AK403 */
  code: string;
  /** AK404: a copy of the bad value. */
  value?: string;
}

// ---------------------------------------------------------------------------
// Code lists for the content checks

/** X12 element 479, Functional Identifier Code (version 004010 list; later versions add a few). */
export const FUNCTIONAL_IDENTIFIERS = new Set(
  (
    "AA AB AD AF AG AH AI AK AL AN AO AR AS AT AW BC BE BF BL BS CA CB CC CD CE CF CG CH CI CJ CK CM CN CO CP CR CS CT CV " +
    "D3 D4 D5 DA DD DF DI DM DS DX EC ED EI ER ES EV EX FA FB FC FG FH FR FT GB GC GE GF GL GP GR GT HB HC HI HN HP HR HS " +
    "IA IB IC ID IE IG II IJ IM IN IO IP IR IS KM LA LB LI LN LR LS LT MA MC MD ME MF MG MH MI MJ MK MM MN MO MP MQ MR MS " +
    "MT MV MW MX MY NC NL NP NT OC OG OR OW PA PB PC PD PE PF PG PH PI PJ PK PL PN PO PQ PR PS PT PU PV PY QG QM QO RA RB " +
    "RC RD RE RH RI RJ RK RL RM RN RO RP RQ RR RS RT RU RV RW RX RY RZ SA SB SC SD SE SG SH SI SJ SL SM SN SO SP SQ SR SS " +
    "ST SU SV SW TA TC TD TF TI TM TN TO TP TR TS TT TX UA UB UC UD UI UP UW VA VB VC VD VE VH VI VS WA WB WG WI WL WR WT"
  ).split(" "),
);
/** X12 element 723, Data Element Syntax Error Code (AK403), with the 005010 additions. */
export const ELEMENT_ERROR_CODES = new Set(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "12", "13", "I6", "I9", "I10", "I11", "I12", "I13"]);
const SET_STATUS_CODES = new Set(["A", "E", "M", "R", "W", "X"]);
const GROUP_STATUS_CODES = new Set(["A", "E", "M", "P", "R", "W", "X"]);

// ---------------------------------------------------------------------------
// Parsing a received 997

/** A group the 997 answers (AK1), its status still unknown until its AK9; added to the ack's groups. */
function newGroup(ack: FunctionalAck, functionalId: string, controlNumber: string, version?: string): AckGroup {
  const group: AckGroup = dropUndefined({
    functionalId,
    controlNumber,
    version,
    status: "unknown" as AckStatus,
    statusCode: "",
    errorCodes: [],
    counts: {},
    transactions: [],
  });
  ack.groups.push(group);
  return group;
}

export function parse997(view: TransactionView): Parsed<FunctionalAck> {
  const issues = new Issues(view, [], [], true); // the app acts on every value of a 997
  const ack: FunctionalAck = { groups: [] };
  let group: AckGroup | undefined;
  let transaction: AckTransaction | undefined;
  let segmentError: AckSegmentError | undefined;
  let sawAk9 = false;

  const check = new ContentCheck(issues, view.delimiters);
  for (const segment of view.segments) {
    switch (segment.id) {
      case "AK1":
        check.ak1(segment);
        group = newGroup(ack, element(segment, 1) ?? "", element(segment, 2) ?? "", element(segment, 3));
        transaction = undefined;
        break;
      case "AK2":
        check.ak2(segment);
        if (!group) {
          issues.note(segment, faultPhrase("ak2_before_ak1"));
          group = newGroup(ack, "", "");
        }
        transaction = dropUndefined({
          setId: element(segment, 1) ?? "",
          controlNumber: element(segment, 2) ?? "",
          convention: element(segment, 3),
          status: "unknown" as AckStatus,
          statusCode: "",
          errorCodes: [],
          errors: [],
        });
        group.transactions.push(transaction);
        segmentError = undefined;
        break;
      case "AK3": {
        check.ak3(segment);
        // AK302..AK304 are kept as sent: partners put repetitions there (extraDelimiter997).
        const position = element(segment, 2);
        segmentError = dropUndefined({
          segmentId: element(segment, 1) ?? "",
          position: position !== undefined && /^\d+$/.test(position) ? Number(position) : undefined,
          loop: element(segment, 3),
          code: element(segment, 4),
          elements: [],
        });
        if (transaction) transaction.errors.push(segmentError);
        else issues.note(segment, faultPhrase("ak3_outside_ak2"));
        break;
      }
      case "AK4": {
        check.ak4(segment);
        const [position, component, repetition] = (element(segment, 1) ?? "")
          .split(view.delimiters.component)
          .map((part) => (/^\d+$/.test(part) ? Number(part) : undefined));
        const error = dropUndefined({
          position,
          component,
          repetition,
          reference: element(segment, 2),
          code: element(segment, 3) ?? "",
          value: element(segment, 4),
        });
        if (segmentError) segmentError.elements.push(error);
        else issues.note(segment, faultPhrase("ak4_without_ak3"));
        break;
      }
      case "AK5":
        check.ak5(segment);
        if (!transaction) {
          issues.note(segment, faultPhrase("ak5_without_ak2"));
          break;
        }
        transaction.statusCode = element(segment, 1) ?? "";
        transaction.status = STATUS_BY_CODE[transaction.statusCode] ?? "unknown";
        transaction.errorCodes = segment.elements.slice(2, 7).filter(Boolean);
        transaction = undefined;
        segmentError = undefined;
        break;
      case "AK9":
        sawAk9 = true;
        check.ak9(segment);
        if (!group) break;
        group.statusCode = element(segment, 1) ?? "";
        group.status = STATUS_BY_CODE[group.statusCode] ?? "unknown";
        group.counts = dropUndefined({ included: count(segment, 2), received: count(segment, 3), accepted: count(segment, 4) });
        group.errorCodes = segment.elements.slice(5, 10).filter(Boolean);
        break;
    }
  }

  const last = view.segments[view.segments.length - 1];
  if (ack.groups.length === 0) issues.missingSegment("AK1", last, faultPhrase("no_ak1", { control: view.controlNumber }));
  if (!sawAk9) issues.missingSegment("AK9", last, faultPhrase("no_ak9", { control: view.controlNumber }));
  for (const each of ack.groups) {
    for (const set of each.transactions)
      if (set.statusCode === "")
        issues.missingSegment("AK5", last, faultPhrase("no_ak5", { control: view.controlNumber, set: set.setId, set_control: set.controlNumber }));
  }
  return issues.parsed(ack);
}

const count = (segment: Segment, n: number) => {
  const value = element(segment, n);
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
};

/** The content rules of the 997 segments, each broken rule an AK4-coded element fault. */
class ContentCheck {
  constructor(
    private readonly issues: Issues,
    private readonly delimiters: Delimiters,
  ) {}

  ak1(segment: Segment) {
    const id = element(segment, 1);
    if (this.required(segment, 1)) {
      if (!/^[A-Z0-9]{2}$/.test(id!))
        this.issues.elementFault(segment, 1, AK4.invalidCode, (name) => faultPhrase("ak1_functional_id", { element: name, value: JSON.stringify(id) }));
      else if (!FUNCTIONAL_IDENTIFIERS.has(id!)) this.issues.note(segment, faultPhrase("ak101_not_listed", { value: JSON.stringify(id) }), 1);
    }
    this.digits(segment, 2, 1, 9);
  }

  ak2(segment: Segment) {
    this.digits(segment, 1, 3, 3);
    if (this.required(segment, 2)) this.length(segment, 2, 4, 9);
  }

  ak3(segment: Segment) {
    if (this.required(segment, 1) && !/^[A-Z][A-Z0-9]{1,2}$/.test(element(segment, 1)!)) {
      this.issues.elementFault(segment, 1, AK4.invalidCharacter, (name) =>
        faultPhrase("ak3_segment_id", { element: name, value: JSON.stringify(element(segment, 1)) }),
      );
    }
  }

  ak4(segment: Segment) {
    // AK401 is a composite in 005010 (position:component:repetition); each part is a number.
    if (this.required(segment, 1)) {
      const parts = element(segment, 1)!.split(this.delimiters.component);
      if (parts.length > 3 || parts.some((part, i) => !(/^\d{1,4}$/.test(part) || (i > 0 && part === "")))) {
        this.issues.elementFault(segment, 1, AK4.invalidCharacter, (name) =>
          faultPhrase("not_element_position", { element: name, value: JSON.stringify(element(segment, 1)) }),
        );
      }
    }
    this.digits(segment, 2, 1, 4, false);
    if (this.required(segment, 3) && !ELEMENT_ERROR_CODES.has(element(segment, 3)!)) {
      this.issues.elementFault(segment, 3, AK4.invalidCode, (name) =>
        faultPhrase("ak4_error_code", { element: name, value: JSON.stringify(element(segment, 3)) }),
      );
    }
  }

  ak5(segment: Segment) {
    this.code(segment, 1, SET_STATUS_CODES, "not_set_ack_code");
  }

  ak9(segment: Segment) {
    this.code(segment, 1, GROUP_STATUS_CODES, "not_group_ack_code");
    for (const n of [2, 3, 4]) this.digits(segment, n, 1, 6);
  }

  private required(segment: Segment, n: number): boolean {
    if (element(segment, n) !== undefined) return true;
    this.issues.elementFault(segment, n, AK4.mandatoryMissing, (name) => faultPhrase("missing", { element: name }));
    return false;
  }

  private code(segment: Segment, n: number, codes: Set<string>, key: "not_set_ack_code" | "not_group_ack_code") {
    if (this.required(segment, n) && !codes.has(element(segment, n)!)) {
      this.issues.elementFault(segment, n, AK4.invalidCode, (at) =>
        faultPhrase(key, { element: at, value: JSON.stringify(element(segment, n)), codes: [...codes].join(", ") }),
      );
    }
  }

  private digits(segment: Segment, n: number, min: number, max: number, mandatory = true) {
    const value = element(segment, n);
    if (value === undefined) {
      if (mandatory) this.required(segment, n);
      return;
    }
    if (!/^\d+$/.test(value))
      this.issues.elementFault(segment, n, AK4.invalidCharacter, (name) => faultPhrase("not_numeric", { element: name, value: JSON.stringify(value) }));
    else this.length(segment, n, min, max);
  }

  private length(segment: Segment, n: number, min: number, max: number) {
    const value = element(segment, n)!;
    if (value.length < min)
      this.issues.elementFault(segment, n, AK4.tooShort, (name) => faultPhrase("too_short_chars", { element: name, min, value: JSON.stringify(value) }));
    if (value.length > max)
      this.issues.elementFault(segment, n, AK4.tooLong, (name) => faultPhrase("too_long_chars", { element: name, max, value: JSON.stringify(value) }));
  }
}

// ---------------------------------------------------------------------------
// Acknowledging a received file

export interface AcknowledgeOptions {
  /** Which group: indexes into result.interchanges and its groups. Default 0, 0. */
  interchange?: number;
  group?: number;
  /** Faults found beyond the envelope, e.g. by the document parsers (they carry their location). */
  extraFaults?: Fault[];
  /** Transaction set IDs the app handles; others are rejected with AK5 code 1. Default: all. */
  supportedSets?: string[];
  /** Sets with segment or element errors: accepted with errors (E) rather than rejected (R). */
  acceptWithErrors?: boolean;
}

/**
 * The acknowledgement of one received group, from the faults of the read (and
 * extraFaults): TA1-level faults are not a 997's business and are left out.
 */
export function acknowledgeGroup(result: Pick<ReadResult, "interchanges" | "faults" | "warnings" | "segments">, options: AcknowledgeOptions = {}): AckGroup {
  return acknowledgeIndexedGroup(result, indexFaults(result, options.extraFaults), options);
}

/**
 * The faults of a read that a 997 reports (not TA1's), by interchange and
 * group, and which interchanges and groups a refusing envelope fault (TA1's)
 * sets aside: their sets are not applied, so the 997 rejects them (D217).
 * Built once, so answering n groups is linear (D73).
 */
interface FaultIndex {
  byGroup: Map<string, Fault[]>;
  refusedInterchanges: Set<number | undefined>;
  refusedGroups: Set<string>;
}
const groupKey = (interchange: number | undefined, group: number | undefined) => `${interchange}/${group}`;

function indexFaults(result: Pick<ReadResult, "faults" | "warnings">, extraFaults: Fault[] = []): FaultIndex {
  const index: FaultIndex = { byGroup: new Map(), refusedInterchanges: new Set(), refusedGroups: new Set() };
  for (const list of [result.faults, result.warnings, extraFaults]) {
    for (const fault of list) {
      if (fault.ack.segment === "TA1") {
        // Warnings (a tolerant read, the vendor's delimiter hints) and notes refuse nothing.
        if (list === result.warnings || fault.noted) continue;
        if (fault.group === undefined) index.refusedInterchanges.add(fault.interchange);
        else index.refusedGroups.add(groupKey(fault.interchange, fault.group));
        continue;
      }
      if (fault.group === undefined) continue;
      const key = groupKey(fault.interchange, fault.group);
      const faults = index.byGroup.get(key);
      if (faults) faults.push(fault);
      else index.byGroup.set(key, [fault]);
    }
  }
  return index;
}

function acknowledgeIndexedGroup(result: Pick<ReadResult, "interchanges" | "segments">, index: FaultIndex, options: AcknowledgeOptions): AckGroup {
  const i = options.interchange ?? 0;
  const g = options.group ?? 0;
  const group = result.interchanges[i]?.groups[g];
  if (!group) throw new Error(`no functional group ${g} in interchange ${i}`);
  const faults = index.byGroup.get(groupKey(i, g)) ?? [];
  const refusedByEnvelope = index.refusedInterchanges.has(i) || index.refusedGroups.has(groupKey(i, g));
  const five = group.version.startsWith("00501");

  const byTransaction = new Map<number, Fault[]>();
  for (const fault of faults) {
    if (fault.transaction === undefined) continue;
    const list = byTransaction.get(fault.transaction);
    if (list) list.push(fault);
    else byTransaction.set(fault.transaction, [fault]);
  }
  const groupFaults = faults.filter((fault) => fault.transaction === undefined && fault.ack.segment === "AK9");
  const refusingGroupCodes = unique(groupFaults.filter((fault) => !fault.noted).map((fault) => fault.ack.code));
  const notedGroupCodes = unique(groupFaults.filter((fault) => fault.noted).map((fault) => fault.ack.code));
  // A set of a group or interchange refused as a whole is not applied: never accepted in the 997 (D217).
  const setsRefused = refusedByEnvelope || refusingGroupCodes.length > 0;
  const transactions = group.transactions.map((transaction, t) =>
    acknowledgeTransaction(result, transaction, byTransaction.get(t) ?? [], options, five, setsRefused),
  );
  const accepted = transactions.filter((each) => each.status === "accepted" || each.status === "accepted_with_errors").length;
  const groupCodes = unique([...refusingGroupCodes, ...notedGroupCodes]).slice(0, 5);
  // AK902 is N0 1/6: GE01 as sent only when it fits.
  const ge01 = group.ge?.[1]?.trim() ?? "";
  const included = /^\d{1,6}$/.test(ge01) ? Number(ge01) : transactions.length;
  let statusCode: string;
  if (setsRefused || accepted === 0) statusCode = "R";
  else if (accepted < transactions.length) statusCode = "P";
  else statusCode = notedGroupCodes.length > 0 || transactions.some((each) => each.status === "accepted_with_errors") ? "E" : "A";

  return dropUndefined({
    functionalId: group.functionalId,
    controlNumber: group.controlNumber,
    version: five ? group.version : undefined,
    status: STATUS_BY_CODE[statusCode],
    statusCode,
    errorCodes: groupCodes,
    counts: { included, received: transactions.length, accepted },
    transactions,
  });
}

function acknowledgeTransaction(
  result: Pick<ReadResult, "segments">,
  transaction: TransactionSet,
  faults: Fault[],
  options: AcknowledgeOptions,
  five: boolean,
  /** The set's group or interchange is refused: the set is not applied (D217). */
  refused = false,
): AckTransaction {
  const setCodes = unique(faults.filter((fault) => fault.ack.segment === "AK5" && !fault.noted).map((fault) => fault.ack.code));
  // Noted codes (a repeated ST02: 23) go with an E, or with the R of the set's other faults (D215).
  const notedCodes = unique(faults.filter((fault) => fault.ack.segment === "AK5" && fault.noted).map((fault) => fault.ack.code));
  if (options.supportedSets && !options.supportedSets.includes(transaction.setId) && !setCodes.includes("1")) setCodes.unshift("1");

  // One AK3 per segment at fault, its AK4s under it.
  const bySegment = new Map<number, AckSegmentError>();
  for (const fault of faults) {
    if (fault.ack.segment !== "AK3" && fault.ack.segment !== "AK4") continue;
    let error = bySegment.get(fault.segmentIndex);
    if (!error) {
      const position = fault.positionInTransaction ?? fault.segmentIndex - transaction.start;
      error = { segmentId: fault.segmentId || "???", position, code: fault.ack.segment === "AK3" ? fault.ack.code : "8", elements: [] };
      bySegment.set(fault.segmentIndex, error);
    } else if (fault.ack.segment === "AK3" && error.code === "8" && error.elements.length === 0) {
      error.code = fault.ack.code;
    }
    if (fault.ack.segment === "AK4" && fault.element !== undefined) {
      const value = fault.segmentIndex - 1 < result.segments.length ? result.segments.elements(fault.segmentIndex - 1)[fault.element] : undefined;
      // AK404 is AN 1/99: a longer value is left out, not cut (build997 also leaves out one with delimiters or control characters).
      error.elements.push(dropUndefined({ position: fault.element, code: fault.ack.code, value: value && value.length <= 99 ? value : undefined }));
    }
  }
  const errors = [...bySegment.values()].sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  const refusingErrors = faults.some((fault) => !fault.noted && (fault.ack.segment === "AK3" || fault.ack.segment === "AK4"));
  if (refusingErrors && setCodes.length === 0 && !options.acceptWithErrors) setCodes.push("5");

  let statusCode = "A";
  if (refused || (setCodes.length > 0 && !(options.acceptWithErrors && setCodes.every((code) => code === "5")))) statusCode = "R";
  else if (errors.length > 0 || notedCodes.length > 0) statusCode = "E";
  setCodes.push(...notedCodes.filter((code) => !setCodes.includes(code)));
  const convention = five ? result.segments.elements(transaction.start)[3] || undefined : undefined;
  return dropUndefined({
    setId: transaction.setId,
    controlNumber: transaction.controlNumber,
    convention,
    status: STATUS_BY_CODE[statusCode],
    statusCode,
    errorCodes: setCodes.slice(0, 5),
    errors,
  });
}

// ---------------------------------------------------------------------------
// What may be echoed: the 997's own element types (D73). A value a partner sent
// that does not fit is left out (optional elements) or its loop is (AK2, AK3,
// AK4); a group whose AK101/AK102 would not fit is not answered by a 997.

// eslint-disable-next-line no-control-regex -- control characters are what is not printable
const PRINTABLE = /^[^\u0000-\u001f\u007f-\u009f]*$/;
/** AN of min/max, printable, and none of `delimiters`' characters. */
function fitsAn(value: string | undefined, min: number, max: number, delimiters?: Delimiters): value is string {
  if (value === undefined || value.length < min || value.length > max || !PRINTABLE.test(value) || value.trim() === "") return false;
  if (!delimiters) return true;
  for (const char of [delimiters.element, delimiters.component, delimiters.repetition, delimiters.segment].join("")) if (value.includes(char)) return false;
  return true;
}
const fitsNumber = (value: number | undefined, digits: number): value is number =>
  value !== undefined && Number.isSafeInteger(value) && value >= 0 && String(value).length <= digits;

/** AK101 (ID 2/2) and AK102 (N0 1/9) of a group fit: the group can be answered by a 997. */
export const echoableGroup = (group: { functionalId: string; controlNumber: string }) =>
  /^[A-Z0-9]{2}$/.test(group.functionalId) && /^\d{1,9}$/.test(group.controlNumber);
/** AK201 (ID 3/3, a set identifier: three digits, as parse997 checks) and AK202 (AN 4/9) of a set fit. */
const echoableSet = (transaction: { setId: string; controlNumber: string }, delimiters?: Delimiters) =>
  /^\d{3}$/.test(transaction.setId) && fitsAn(transaction.controlNumber, 4, 9, delimiters) && !/\s/.test(transaction.controlNumber);

/**
 * Writes an acknowledgement as a 997 transaction set. Only what fits the 997's
 * element types is echoed (D73): a set whose AK201/AK202 would not fit has no
 * AK2 loop (it is still counted in AK9), a segment whose ID would not fit AK301
 * no AK3, an element position beyond AK401's two digits no AK4, and an AK404
 * copy longer than 99 characters or holding a delimiter of `delimiters` or a
 * control character is left out. Throws when AK101/AK102 would not fit.
 */
export function build997(group: AckGroup, controlNumber: string, delimiters?: Delimiters): TransactionData {
  if (!echoableGroup(group))
    throw new Error(
      `997: the group ${JSON.stringify(group.functionalId)} ${JSON.stringify(group.controlNumber)} cannot be named in AK101 (ID 2/2) and AK102 (N0 1/9)`,
    );
  const segments: SegmentData[] = [["AK1", group.functionalId, group.controlNumber, fitsAn(group.version, 1, 12, delimiters) ? group.version : undefined]];
  for (const transaction of group.transactions) {
    if (!echoableSet(transaction, delimiters)) continue;
    segments.push([
      "AK2",
      transaction.setId,
      transaction.controlNumber,
      fitsAn(transaction.convention, 1, 35, delimiters) ? transaction.convention : undefined,
    ]);
    for (const error of transaction.errors) {
      if (!/^[A-Z][A-Z0-9]{1,2}$/.test(error.segmentId) || !fitsNumber(error.position, 10) || (error.position ?? 0) < 1) continue;
      segments.push(["AK3", error.segmentId, error.position, fitsAn(error.loop, 1, 4, delimiters) ? error.loop : undefined, error.code]);
      for (const each of error.elements) {
        if (!fitsNumber(each.position, 2) || each.position < 1) continue;
        const part = (n: number | undefined) => (fitsNumber(n, 2) ? n : undefined);
        const position =
          each.component !== undefined || each.repetition !== undefined ? [each.position, part(each.component), part(each.repetition)] : each.position;
        const reference = each.reference !== undefined && /^\d{1,4}$/.test(each.reference) ? each.reference : undefined;
        segments.push(["AK4", position, reference, each.code, fitsAn(each.value, 1, 99, delimiters) ? each.value : undefined]);
      }
    }
    segments.push(["AK5", transaction.statusCode || codeOf(transaction.status), ...transaction.errorCodes]);
  }
  const { included, received, accepted } = group.counts;
  const count = (n: number | undefined) => (fitsNumber(n, 6) ? n : undefined);
  segments.push(["AK9", group.statusCode || codeOf(group.status), count(included) ?? count(received), count(received), count(accepted), ...group.errorCodes]);
  return { setId: "997", controlNumber, segments };
}

const codeOf = (status: AckStatus) => ({ accepted: "A", accepted_with_errors: "E", partially_accepted: "P", rejected: "R", unknown: "R" })[status];

/** build997(acknowledgeGroup(result, options)): the 997 answering one received group. */
export function buildAck997(
  result: Pick<ReadResult, "interchanges" | "faults" | "warnings" | "segments">,
  options: AcknowledgeOptions & { controlNumber: string },
): TransactionData {
  return build997(acknowledgeGroup(result, options), options.controlNumber);
}

export interface Ack997InterchangeOptions extends Omit<AcknowledgeOptions, "interchange" | "group"> {
  /** Our ID; default the receiver of each received interchange. */
  sender?: { qualifier: string; id: string };
  /** The partner's ID; default the sender of each received interchange. */
  receiver?: { qualifier: string; id: string };
  /** GS02/GS03 when they differ from the ISA IDs; default the received GS03/GS02. */
  groupSender?: string;
  groupReceiver?: string;
  /** The next numbers to use; the result gives the ones after. */
  controlNumbers: { interchange: number; group: number; transaction: number };
  /** Default: the received interchange's. */
  delimiters?: Delimiters;
  date?: Date;
  usage?: "P" | "T";
}

export interface Ack997InterchangeResult extends WriteResult {
  /** The acknowledgements written, one per received group. */
  acknowledgements: AckGroup[];
  /** Where each acknowledged group is in the received file, and its GS08 (same order as acknowledgements). */
  places: Array<{ interchange: number; group: number; version: string }>;
  /** The control numbers to use next time. */
  controlNumbers: { interchange: number; group: number; transaction: number };
}

/**
 * One 997 interchange per received interchange (each addressed back to its
 * sender), holding one FA group with a 997 per received group. The 997 is
 * written in version 005010 when the received group was, 004010 otherwise.
 *
 * Left unanswered (D73): FA groups (a 997 or 999 is never acknowledged), a
 * group whose GS01/GS06 cannot be named in AK101/AK102, and, when the answer
 * would reuse the received delimiters, an interchange whose delimiters break
 * the writer's rule. Those are for a TA1 (edi/documents/ta1.ts). Work is linear
 * in the number of groups and faults.
 */
export function ack997Interchange(
  result: Pick<ReadResult, "interchanges" | "faults" | "warnings" | "segments">,
  options: Ack997InterchangeOptions,
): Ack997InterchangeResult {
  const next = { ...options.controlNumbers };
  const { date6, date8, time } = x12DateTime(options.date ?? new Date());
  const acknowledgements: AckGroup[] = [];
  const places: Ack997InterchangeResult["places"] = [];
  let text = "";
  let segmentCount = 0;
  const replaced: string[] = [];
  const index = indexFaults(result, options.extraFaults);

  result.interchanges.forEach((interchange: Interchange, i) => {
    const answered = interchange.groups.flatMap((group, g) => (group.functionalId !== "FA" && echoableGroup(group) ? [g] : []));
    if (answered.length === 0) return; // nothing a 997 answers (acknowledgements, TA1-only interchanges, no usable GS)
    const delimiters = answerDelimiters(options.delimiters ?? interchange.delimiters);
    // Broken received delimiters (or answer delimiters that cannot be written): a TA1's business.
    if (!delimiters || delimiterProblems(interchange.delimiters).length) return;
    const groups = answered.map((g) => interchange.groups[g]);
    const first: FunctionalGroup = groups[0];
    const five = groups.some((group) => group.version.startsWith("00501"));
    const transactions = answered.map((g) => {
      const acknowledgement = acknowledgeIndexedGroup(result, index, { ...options, interchange: i, group: g });
      acknowledgements.push(acknowledgement);
      places.push({ interchange: i, group: g, version: interchange.groups[g].version });
      const transaction = build997(acknowledgement, String(next.transaction).padStart(4, "0"), delimiters);
      next.transaction = addControlNumber(next.transaction);
      return transaction;
    });
    const sender = options.sender ?? interchange.receiver;
    const receiver = options.receiver ?? interchange.sender;
    // GS02/GS03 are AN 2/15: the received ones only when they fit.
    const groupId = (value: string | undefined, fallback: string) => (fitsAn(value, 2, 15, delimiters) && value.trim() === value ? value : fallback);
    const written = writeInterchange({
      delimiters,
      sender,
      receiver,
      date: date6,
      time,
      controlNumber: next.interchange,
      version: five ? "00501" : "00401",
      usage: options.usage ?? (interchange.usage === "T" ? "T" : "P"),
      groups: [
        {
          functionalId: "FA",
          sender: options.groupSender ?? groupId(first.gs[3], sender.id),
          receiver: options.groupReceiver ?? groupId(first.gs[2], receiver.id),
          date: date8,
          time,
          controlNumber: String(next.group),
          version: five ? "005010" : "004010",
          transactions,
        },
      ],
    });
    next.interchange = addControlNumber(next.interchange);
    next.group = addControlNumber(next.group);
    text += written.text;
    segmentCount += written.segmentCount;
    replaced.push(...written.replaced);
  });
  return { text, replaced, segmentCount, acknowledgements, places, controlNumbers: next };
}

/**
 * The delimiters an answer is written with: `delimiters` with a repetition
 * separator that differs from the three others (the first free of `^`, `|`,
 * `!`, …), or null when they break the writer's rule.
 */
export function answerDelimiters(delimiters: Delimiters): Delimiters | null {
  const { element, component, segment } = delimiters;
  let repetition = delimiters.repetition;
  if (
    repetition === undefined ||
    [element, component, segment].some((other) => other.includes(repetition!)) ||
    delimiterProblems({ element, component, segment, repetition }).length
  ) {
    repetition = chooseRepetition({ element, component, segment });
  }
  const chosen = { element, component, segment, repetition };
  return delimiterProblems(chosen).length ? null : chosen;
}

const unique = (values: string[]) => [...new Set(values)];
