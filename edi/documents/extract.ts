// One transaction set of a read file, written back alone in its own
// interchange: the ISA and GS as they were read (sender, receiver, date, time,
// control numbers, usage, versions), the set's segments as they were, with
// counts made for one set. Components are split again at the interchange's
// component separator, so the same delimiters write the same text.
import type { ReadResult } from "../x12/reader";
import { writeInterchange, type SegmentData } from "../x12/writer";
import { transactionSegments } from "./types";

export interface TransactionLocation {
  interchange: number;
  group: number;
  transaction: number;
}

/** The set at `location` (as mapTransactions gives it) alone in an interchange, segments ended by a line break. */
export function extractTransaction(read: Pick<ReadResult, "interchanges" | "segments">, location: TransactionLocation): string {
  const interchange = read.interchanges[location.interchange];
  const group = interchange.groups[location.group];
  const transaction = group.transactions[location.transaction];
  const { component } = interchange.delimiters;
  const all = transactionSegments(read.segments, transaction);
  const body: SegmentData[] = all
    .slice(1, -1)
    .map((elements) => elements.map((value, i) => (i > 0 && value.includes(component) ? value.split(component) : value)));
  return writeInterchange({
    delimiters: interchange.delimiters,
    sender: interchange.sender,
    receiver: interchange.receiver,
    date: interchange.date,
    time: interchange.time,
    controlNumber: interchange.controlNumber,
    version: interchange.version,
    usage: interchange.usage === "T" ? "T" : "P",
    lineBreak: "\n",
    groups: [
      {
        functionalId: group.functionalId,
        sender: group.gs[2] ?? "",
        receiver: group.gs[3] ?? "",
        date: group.gs[4] ?? "",
        time: group.gs[5] ?? "",
        controlNumber: group.controlNumber,
        version: group.version,
        transactions: [{ setId: transaction.setId, controlNumber: transaction.controlNumber, convention: all[0][3] || undefined, segments: body }],
      },
    ],
  }).text;
}
