// X12 interchanges for the tests and benches. isaSegment writes an ISA by hand (not by
// the writer under test): each caller names only the fields it varies, and values are
// used as given, so a test can send a field of the wrong width on purpose.
// oneGroupInterchange is the writer's input for the usual one-group interchange.
import type { Delimiters } from "../../edi/x12/isa";
import type { InterchangeData, TransactionData } from "../../edi/x12/writer";

export interface IsaFields {
  /** ISA06, 15 characters when valid. */
  sender?: string;
  /** ISA08, 15 characters when valid. */
  receiver?: string;
  /** ISA09, YYMMDD. */
  date?: string;
  /** ISA11: "U" before 00402, the repetition separator from then on. */
  repetition?: string;
  /** ISA12 */
  version?: string;
  /** ISA13, 9 digits when valid. */
  control?: string;
  /** ISA14: "1" asks for a TA1. */
  ack?: string;
  /** ISA16 */
  component?: string;
  /** The element separator the segment is joined with. */
  element?: string;
}

/** The ISA segment, without its terminator. */
export function isaSegment(fields: IsaFields = {}): string {
  return [
    "ISA",
    "00",
    "          ",
    "00",
    "          ",
    "ZZ",
    fields.sender ?? "VENDOR         ",
    "ZZ",
    fields.receiver ?? "SHOP           ",
    fields.date ?? "240501",
    "1200",
    fields.repetition ?? "U",
    fields.version ?? "00401",
    fields.control ?? "000000001",
    fields.ack ?? "0",
    "P",
    fields.component ?? ">",
  ].join(fields.element ?? "*");
}

/** What `oneGroupInterchange` varies: one ZZ sender and receiver, used in the ISA and the GS alike. */
export interface OneGroupFields {
  delimiters: Delimiters;
  sender: string;
  receiver: string;
  /** YYMMDD; the GS gets it with its century (20YYMMDD). */
  date: string;
  /** HHMM */
  time: string;
  /** ISA13 and GS06 alike. */
  controlNumber: number;
  functionalId: string;
  transactions: TransactionData[];
  version?: string;
}

/** The writer's input for an interchange of one functional group. */
export function oneGroupInterchange(fields: OneGroupFields): InterchangeData {
  const { delimiters, sender, receiver, date, time, controlNumber, functionalId, transactions, version } = fields;
  return {
    delimiters,
    sender: { qualifier: "ZZ", id: sender },
    receiver: { qualifier: "ZZ", id: receiver },
    date,
    time,
    controlNumber,
    ...(version === undefined ? {} : { version }),
    groups: [{ functionalId, sender, receiver, date: `20${date}`, time, controlNumber: String(controlNumber), transactions }],
  };
}
