// An ISA segment for the X12 tests and benches, written by hand (not by the writer
// under test): each caller names only the fields it varies. Values are used as given,
// so a test can send a field of the wrong width on purpose.
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
