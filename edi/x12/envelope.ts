// The envelope structure (ISA/IEA, GS/GE, ST/SE) and its control checks, fed
// one segment at a time so the whole-file reader and the streaming reader
// share it: SE01 segment count, SE02 = ST02, GE01 transaction count,
// GE02 = GS06, IEA01 group count, IEA02 = ISA13, missing SE/GE/IEA, segments
// out of place, GS shape.
import type { Phrase } from "../messages";
import { faultPhrase } from "../texts";
import { AK3, AK4, AK5, AK9, TA1, said, type Fault } from "./faults";
import { ControlNumberSet } from "./control-number-set";
import type { Delimiters } from "./isa";

export interface TransactionSet {
  setId: string;
  controlNumber: string;
  /** File positions (0-based) of ST and of SE (or the last segment read when SE is missing). */
  start: number;
  end: number;
  /** SE was found. */
  closed: boolean;
}

export interface FunctionalGroup {
  /** GS elements, [0] = "GS". */
  gs: string[];
  functionalId: string;
  controlNumber: string;
  version: string;
  transactions: TransactionSet[];
  ge?: string[];
  start: number;
  end: number;
}

export interface Interchange {
  isa: string[];
  delimiters: Delimiters;
  controlNumber: string;
  sender: { qualifier: string; id: string };
  receiver: { qualifier: string; id: string };
  date: string;
  time: string;
  version: string;
  usage: string;
  groups: FunctionalGroup[];
  /** Positions of ISB, ISE and TA1 segments. */
  serviceSegments: number[];
  iea?: string[];
  start: number;
  end: number;
}

/** Elements of the segment at a file position; passed once, so no closure per segment. */
export type ElementsOf = (index: number) => string[];

/** Two or three capitals and digits, starting with a capital (no regex: this runs per segment). */
function isSegmentId(id: string) {
  const length = id.length;
  if (length < 2 || length > 3) return false;
  for (let i = 0; i < length; i++) {
    const code = id.charCodeAt(i);
    const upper = code >= 65 && code <= 90;
    if (!(upper || (i > 0 && code >= 48 && code <= 57))) return false;
  }
  return true;
}
const isNumeric = (value: string | undefined) => value !== undefined && /^\d+$/.test(value.trim());
const sameNumber = (a: string | undefined, b: string | undefined) =>
  a !== undefined && b !== undefined && (a.trim() === b.trim() || (isNumeric(a) && isNumeric(b) && BigInt(a.trim()) === BigInt(b.trim())));

/** GS04: CCYYMMDD from version 004010 on, YYMMDD before it. */
function validGroupDate(value: string, version: string) {
  const older = /^\d{6}/.test(version) && Number(version.slice(0, 6)) < 4010;
  const digits = older && value.length === 6 ? 6 : 8;
  if (!new RegExp(`^\\d{${digits}}$`).test(value)) return false;
  const month = Number(value.slice(digits - 4, digits - 2));
  const day = Number(value.slice(digits - 2));
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}
const validTime = (value: string) => /^\d{4}(\d{2}(\d{1,2})?)?$/.test(value) && Number(value.slice(0, 2)) < 24 && Number(value.slice(2, 4)) < 60;

/** Only end-of-file marks: Ctrl-Z (0x1A) and NUL padding, as DOS-era and AS400 tools leave after the last IEA. */
// eslint-disable-next-line no-control-regex -- the control characters are what is looked for
const isEndOfFileMark = (text: string) => text.length > 0 && /^[\u001a\u0000]+$/.test(text);

export class EnvelopeReader {
  readonly interchanges: Interchange[] = [];
  readonly faults: Fault[] = [];
  /** Noted, not refusing (D215): duplicate control numbers, an end-of-file mark. The readers hand them on as warnings. */
  readonly notes: Fault[] = [];
  private interchange?: Interchange;
  private group?: FunctionalGroup;
  private transaction?: TransactionSet;
  private lastIndex = -1;
  // GS06s of the open interchange, ST02s of the open group: a repeat is noted (D216).
  private groupNumbers = new ControlNumberSet(true);
  private setNumbers = new ControlNumberSet(false);

  private add(fault: Omit<Fault, "interchange" | "group" | "transaction"> & Partial<Fault>) {
    (fault.noted ? this.notes : this.faults).push({
      interchange: this.interchanges.length - 1,
      group: this.group ? this.interchange!.groups.length - 1 : undefined,
      transaction: this.transaction ? this.group!.transactions.length - 1 : undefined,
      ...fault,
    });
  }

  /** An ISA read by readIsa, at file position `index`. */
  startInterchange(index: number, isa: string[], delimiters: Delimiters, isaFaults: Omit<Fault, "segmentIndex" | "interchange">[]) {
    if (this.interchange) this.closeInterchange(index, "ISA");
    const interchange: Interchange = {
      isa,
      delimiters,
      controlNumber: isa[13].trim(),
      sender: { qualifier: isa[5].trim(), id: isa[6].trim() },
      receiver: { qualifier: isa[7].trim(), id: isa[8].trim() },
      date: isa[9],
      time: isa[10],
      version: isa[12],
      usage: isa[15],
      groups: [],
      serviceSegments: [],
      start: index,
      end: index,
    };
    this.interchanges.push(interchange);
    this.interchange = interchange;
    this.groupNumbers.clear();
    for (const fault of isaFaults) this.add({ ...fault, segmentIndex: index + 1 });
    this.lastIndex = index;
  }

  /** Any segment after an ISA. */
  segment(index: number, id: string, elementsOf: ElementsOf) {
    this.lastIndex = index;
    const interchange = this.interchange;
    if (!interchange) {
      const stray = elementsOf(index)[0] ?? id;
      if (this.interchanges.length > 0 && isEndOfFileMark(stray)) {
        // Tolerated, and named (never printed raw): the interchanges before it are whole.
        this.add({
          level: "interchange",
          segmentIndex: index + 1,
          segmentId: "",
          noted: true,
          ack: { segment: "TA1", code: TA1.content },
          ...said(faultPhrase("end_of_file_mark", { characters: stray })),
        });
        return;
      }
      this.add({
        level: "interchange",
        segmentIndex: index + 1,
        segmentId: id,
        ack: { segment: "TA1", code: TA1.controlStructure },
        ...said(id ? faultPhrase("outside_interchange", { segment: id }) : faultPhrase("segment_outside_interchange")),
      });
      return;
    }
    interchange.end = index;

    if (this.transaction) {
      if (id === "SE") return this.closeTransaction(index, elementsOf(index));
      if (id === "GE" || id === "IEA" || id === "GS" || id === "ST") {
        this.missingTrailer("SE", index, id);
      } else {
        this.transaction.end = index;
        if (!isSegmentId(id)) {
          this.add({
            level: "segment",
            segmentIndex: index + 1,
            segmentId: id,
            positionInTransaction: index - this.transaction.start + 1,
            ack: { segment: "AK3", code: AK3.unrecognized },
            ...said(faultPhrase("not_segment_id", { value: JSON.stringify(id) })),
          });
        }
        return;
      }
    }

    if (this.group) {
      if (id === "ST") return this.openTransaction(index, elementsOf(index));
      if (id === "GE") return this.closeGroup(index, elementsOf(index));
      if (id === "GS" || id === "IEA") {
        this.missingTrailer("GE", index, id);
      } else {
        this.add({
          level: "segment",
          segmentIndex: index + 1,
          segmentId: id,
          ack: { segment: "AK3", code: AK3.unexpected },
          ...said(faultPhrase("outside_transaction", { segment: id })),
        });
        return;
      }
    }

    switch (id) {
      case "GS":
        return this.openGroup(index, elementsOf(index));
      case "IEA":
        return this.closeInterchangeWith(index, elementsOf(index));
      case "ISB":
      case "ISE":
      case "TA1":
        interchange.serviceSegments.push(index);
        return;
      case "ST":
        this.add({
          level: "transaction",
          segmentIndex: index + 1,
          segmentId: id,
          ack: { segment: "TA1", code: TA1.controlStructure },
          ...said(faultPhrase("st_outside_group")),
        });
        return;
      case "SE":
      case "GE":
        this.add({
          level: "segment",
          segmentIndex: index + 1,
          segmentId: id,
          ack: { segment: "TA1", code: TA1.controlStructure },
          ...said(faultPhrase("without_header", { segment: id })),
        });
        return;
      default:
        this.add({
          level: "segment",
          segmentIndex: index + 1,
          segmentId: id,
          ack: { segment: "TA1", code: TA1.controlStructure },
          ...said(id ? faultPhrase("between_headers", { segment: id }) : faultPhrase("empty_between_headers")),
        });
    }
  }

  /** The end of the input. */
  end() {
    const index = this.lastIndex + 1;
    if (this.transaction) this.missingTrailer("SE", index, "end of file");
    if (this.group) this.missingTrailer("GE", index, "end of file");
    if (this.interchange) this.closeInterchange(index, "end of file");
    if (this.interchanges.length === 0) {
      this.faults.push({
        level: "interchange",
        segmentIndex: 1,
        segmentId: "",
        ack: { segment: "TA1", code: TA1.controlStructure },
        ...said(faultPhrase("no_isa")),
      });
    }
  }

  private missingTrailer(trailer: "SE" | "GE", index: number, reached: string) {
    if (trailer === "SE") {
      const transaction = this.transaction!;
      this.add({
        level: "transaction",
        segmentIndex: transaction.start + 1,
        segmentId: "ST",
        ack: { segment: "AK5", code: AK5.trailerMissing },
        ...said(faultPhrase("no_se", { set: transaction.setId, control: transaction.controlNumber, reached: reachedPhrase(reached), index: index + 1 })),
      });
      this.transaction = undefined;
    } else {
      const group = this.group!;
      this.add({
        level: "group",
        segmentIndex: group.start + 1,
        segmentId: "GS",
        ack: { segment: "AK9", code: AK9.trailerMissing },
        ...said(faultPhrase("no_ge", { control: group.controlNumber, reached: reachedPhrase(reached), index: index + 1 })),
      });
      this.group = undefined;
    }
  }

  private openGroup(index: number, gs: string[]) {
    const group: FunctionalGroup = {
      gs,
      functionalId: gs[1] ?? "",
      controlNumber: (gs[6] ?? "").trim(),
      version: gs[8] ?? "",
      transactions: [],
      start: index,
      end: index,
    };
    this.interchange!.groups.push(group);
    this.group = group;
    this.setNumbers.clear();
    if (group.controlNumber && this.groupNumbers.repeat(group.controlNumber)) {
      this.add({
        level: "group",
        segmentIndex: index + 1,
        segmentId: "GS",
        element: 6,
        noted: true,
        ack: { segment: "AK9", code: AK9.controlNumberNotUnique },
        ...said(faultPhrase("gs06_not_unique", { value: JSON.stringify(group.controlNumber), control: JSON.stringify(this.interchange!.controlNumber) })),
      });
    }
    const fault = (element: number, code: string, phrase: Phrase) =>
      this.add({ level: "element", segmentIndex: index + 1, segmentId: "GS", element, ack: { segment: "TA1", code }, ...said(phrase) });
    if (gs.length - 1 !== 8) fault(gs.length - 1, TA1.content, faultPhrase("gs_count", { count: gs.length - 1 }));
    if (!/^[A-Z0-9]{2}$/.test(group.functionalId)) fault(1, TA1.content, faultPhrase("gs01", { value: JSON.stringify(group.functionalId) }));
    if (!validGroupDate(gs[4] ?? "", group.version)) fault(4, TA1.content, faultPhrase("gs04", { value: JSON.stringify(gs[4] ?? "") }));
    if (!validTime(gs[5] ?? "")) fault(5, TA1.content, faultPhrase("gs05", { value: JSON.stringify(gs[5] ?? "") }));
    if (!/^\d{1,9}$/.test(group.controlNumber)) {
      this.add({
        level: "group",
        segmentIndex: index + 1,
        segmentId: "GS",
        element: 6,
        ack: { segment: "AK9", code: AK9.controlNumberSyntax },
        ...said(faultPhrase("gs06", { value: JSON.stringify(gs[6] ?? "") })),
      });
    }
  }

  private closeGroup(index: number, ge: string[]) {
    const group = this.group!;
    group.ge = ge;
    group.end = index;
    const segmentId = "GE";
    if (!sameNumber(ge[1], String(group.transactions.length))) {
      this.add({
        level: "group",
        segmentIndex: index + 1,
        segmentId,
        element: 1,
        ack: { segment: "AK9", code: AK9.transactionCount },
        ...said(faultPhrase("ge01", { value: JSON.stringify(ge[1] ?? ""), count: group.transactions.length })),
      });
    }
    if (!sameNumber(ge[2], group.controlNumber)) {
      this.add({
        level: "group",
        segmentIndex: index + 1,
        segmentId,
        element: 2,
        ack: { segment: "AK9", code: AK9.controlNumberMismatch },
        ...said(faultPhrase("ge02", { value: JSON.stringify(ge[2] ?? ""), control: JSON.stringify(group.controlNumber) })),
      });
    }
    this.group = undefined;
  }

  private openTransaction(index: number, st: string[]) {
    const transaction: TransactionSet = { setId: st[1] ?? "", controlNumber: (st[2] ?? "").trim(), start: index, end: index, closed: false };
    this.group!.transactions.push(transaction);
    this.transaction = transaction;
    if (transaction.controlNumber && this.setNumbers.repeat(transaction.controlNumber)) {
      this.add({
        level: "transaction",
        segmentIndex: index + 1,
        segmentId: "ST",
        element: 2,
        positionInTransaction: 1,
        noted: true,
        ack: { segment: "AK5", code: AK5.controlNumberNotUnique },
        ...said(faultPhrase("st02_not_unique", { value: JSON.stringify(transaction.controlNumber), control: JSON.stringify(this.group!.controlNumber) })),
      });
    }
    if (!/^\d{3}$/.test(transaction.setId)) {
      this.add({
        level: "transaction",
        segmentIndex: index + 1,
        segmentId: "ST",
        element: 1,
        positionInTransaction: 1,
        ack: { segment: "AK5", code: AK5.missingOrInvalidId },
        ...said(faultPhrase("st01", { value: JSON.stringify(transaction.setId) })),
      });
    }
    if (!/^\S{4,9}$/.test(transaction.controlNumber)) {
      this.add({
        level: "transaction",
        segmentIndex: index + 1,
        segmentId: "ST",
        element: 2,
        positionInTransaction: 1,
        ack: { segment: "AK5", code: AK5.missingOrInvalidControlNumber },
        ...said(faultPhrase("st02", { value: JSON.stringify(st[2] ?? "") })),
      });
    }
  }

  private closeTransaction(index: number, se: string[]) {
    const transaction = this.transaction!;
    transaction.end = index;
    transaction.closed = true;
    const count = index - transaction.start + 1;
    const position = count;
    if (!isNumeric(se[1]) || Number(se[1]) !== count) {
      this.add({
        level: "transaction",
        segmentIndex: index + 1,
        segmentId: "SE",
        element: 1,
        positionInTransaction: position,
        ack: { segment: "AK5", code: AK5.segmentCount },
        ...said(faultPhrase("se01", { value: JSON.stringify(se[1] ?? ""), count })),
      });
    }
    if ((se[2] ?? "").trim() !== transaction.controlNumber) {
      this.add({
        level: "transaction",
        segmentIndex: index + 1,
        segmentId: "SE",
        element: 2,
        positionInTransaction: position,
        ack: { segment: "AK5", code: AK5.controlNumberMismatch },
        ...said(faultPhrase("se02", { value: JSON.stringify(se[2] ?? ""), control: JSON.stringify(transaction.controlNumber) })),
      });
    }
    this.transaction = undefined;
  }

  private closeInterchangeWith(index: number, iea: string[]) {
    const interchange = this.interchange!;
    interchange.iea = iea;
    interchange.end = index;
    if (!sameNumber(iea[1], String(interchange.groups.length))) {
      this.add({
        level: "interchange",
        segmentIndex: index + 1,
        segmentId: "IEA",
        element: 1,
        ack: { segment: "TA1", code: TA1.groupCount },
        ...said(faultPhrase("iea01", { value: JSON.stringify(iea[1] ?? ""), count: interchange.groups.length })),
      });
    }
    if ((iea[2] ?? "").trim() !== interchange.controlNumber) {
      this.add({
        level: "interchange",
        segmentIndex: index + 1,
        segmentId: "IEA",
        element: 2,
        ack: { segment: "TA1", code: TA1.controlNumberMismatch },
        ...said(faultPhrase("iea02", { value: JSON.stringify(iea[2] ?? ""), control: JSON.stringify(interchange.controlNumber) })),
      });
    }
    this.interchange = undefined;
  }

  private closeInterchange(index: number, reached: string) {
    const interchange = this.interchange!;
    this.add({
      level: "interchange",
      segmentIndex: interchange.start + 1,
      segmentId: "ISA",
      ack: { segment: "TA1", code: TA1.endOfFile },
      ...said(faultPhrase("no_iea", { control: interchange.controlNumber, reached: reachedPhrase(reached), index: index + 1 })),
    });
    this.interchange = undefined;
  }
}

export { AK4 };

/** What a missing trailer's search reached: a segment ID (data), or the end of the file (our words). */
const reachedPhrase = (reached: string): Phrase | string => (reached === "end of file" ? faultPhrase("end_of_file") : reached);
