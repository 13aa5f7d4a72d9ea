// One entry point from a read file to typed documents: mapTransaction picks
// the parser by the set's ST01; mapTransactions maps every set of a file.
import type { TransactionSet } from "../x12/envelope";
import type { Fault } from "../x12/faults";
import type { ReadResult } from "../x12/reader";
import { parse810, type Invoice } from "./810";
import { parse846, type InventoryAdvice } from "./846";
import { parse850, type PurchaseOrder } from "./850";
import { parse855, type PurchaseOrderAck } from "./855";
import { parse865, type PurchaseOrderChangeAck } from "./865";
import { parse856, type Parse856Options, type ShipNotice } from "./856";
import { parse997, type FunctionalAck } from "./997";
import { checkElements } from "./elements";
import { Issues, MAX_ISSUES_KEPT, viewTransaction, type Parsed, type TransactionView } from "./types";

type Mapped<Type extends string, Document> = { type: Type; document: Document; faults: Fault[]; warnings: Fault[]; notKept?: Parsed<Document>["notKept"] };

export type MappedDocument =
  | Mapped<"850", PurchaseOrder>
  | Mapped<"855", PurchaseOrderAck>
  | Mapped<"865", PurchaseOrderChangeAck>
  | Mapped<"856", ShipNotice>
  | Mapped<"810", Invoice>
  | Mapped<"846", InventoryAdvice>
  | Mapped<"997", FunctionalAck>;

export interface MapOptions {
  shipNotice?: Parse856Options;
  /** Where the set sits, when the caller knows (saves a search through the file's sets). */
  location?: { interchange: number; group: number; transaction: number };
}

type ReadSource = Pick<ReadResult, "segments" | "interchanges">;

/** The set as a typed document, or null when its set ID has no mapper here. */
export function mapTransaction(result: ReadSource, transaction: TransactionSet, options: MapOptions = {}): MappedDocument | null {
  let viewed: TransactionView | undefined;
  const view = () => (viewed = viewTransaction(result, transaction, options.location));
  const checked = <T>(parsed: Parsed<T>): Parsed<T> => withElementChecks(viewed!, parsed);
  switch (transaction.setId) {
    case "850":
      return { type: "850", ...checked(parse850(view())) };
    case "855":
      return { type: "855", ...checked(parse855(view())) };
    case "865":
      return { type: "865", ...checked(parse865(view())) };
    case "856":
      return { type: "856", ...checked(parse856(view(), options.shipNotice)) };
    case "810":
      return { type: "810", ...checked(parse810(view())) };
    case "846":
      return { type: "846", ...checked(parse846(view())) };
    case "997":
      return { type: "997", ...parse997(view()) };
    default:
      return null;
  }
}

/**
 * The element table's checks (edi/documents/elements.ts) over every segment
 * of the set, added to what the document's reader found; a fault the reader
 * already gave for the same element and code is not repeated.
 */
function withElementChecks<T>(view: TransactionView, parsed: Parsed<T>): Parsed<T> {
  const issues = new Issues(view);
  for (const segment of view.segments) checkElements(issues, segment);
  const checks = issues.parsed(null);
  if (issues.faults.length === 0) return parsed;
  const known = new Set(parsed.faults.map((fault) => `${fault.segmentIndex}/${fault.element}/${fault.ack.segment}${fault.ack.code}`));
  const added = issues.faults.filter((fault) => !known.has(`${fault.segmentIndex}/${fault.element}/${fault.ack.segment}${fault.ack.code}`));
  const faults = [...parsed.faults, ...added].sort((a, b) => a.segmentIndex - b.segmentIndex || (a.element ?? 0) - (b.element ?? 0));
  // Both lists were capped; their union is capped again, the rest counted (an estimate: the checks' uncounted repeats are counted too).
  const notKept = {
    faults: (parsed.notKept?.faults ?? 0) + (checks.notKept?.faults ?? 0) + Math.max(0, faults.length - MAX_ISSUES_KEPT),
    warnings: parsed.notKept?.warnings ?? 0,
  };
  return { ...parsed, faults: faults.slice(0, MAX_ISSUES_KEPT), ...(notKept.faults || notKept.warnings ? { notKept } : {}) };
}

export interface LocatedDocument {
  interchange: number;
  group: number;
  transaction: number;
  setId: string;
  controlNumber: string;
  /** null for set IDs without a mapper. */
  mapped: MappedDocument | null;
}

/** Every transaction set of the file, in order, mapped where a mapper exists. */
export function mapTransactions(result: ReadSource, options: MapOptions = {}): LocatedDocument[] {
  const out: LocatedDocument[] = [];
  result.interchanges.forEach((interchange, i) =>
    interchange.groups.forEach((group, g) =>
      group.transactions.forEach((transaction, t) =>
        out.push({
          interchange: i,
          group: g,
          transaction: t,
          setId: transaction.setId,
          controlNumber: transaction.controlNumber,
          mapped: mapTransaction(result, transaction, { ...options, location: { interchange: i, group: g, transaction: t } }),
        }),
      ),
    ),
  );
  return out;
}

export { build810, parse810, invoiceTotalCents, type Charge, type Invoice, type InvoiceInput, type InvoiceLine } from "./810";
export {
  availableQuantity,
  build846,
  generate846,
  inventoryRecords,
  parse846,
  readInventoryStream,
  type Generate846Options,
  type InventoryAdvice,
  type InventoryAdviceInput,
  type InventoryContext,
  type InventoryHeader,
  type InventoryRecord,
  type InventoryStreamResult,
} from "./846";
export { build850, parse850, type Build850Options, type DropShipLine, type DropShipOrderRequest, type PurchaseOrder, type PurchaseOrderLine } from "./850";
export {
  ACK_TYPE_CODES,
  build855,
  LINE_STATUS_CODES,
  parse855,
  type AckLine,
  type AckLineInput,
  type LineAck,
  type LineStatus,
  type OrderAckStatus,
  type PurchaseOrderAck,
  type PurchaseOrderAckInput,
} from "./855";
export { build860, type Build860Options, type CancelledLine, type PurchaseOrderCancellation } from "./860";
export { build865, parse865, type ChangeAckLine, type ChangeAckLineInput, type PurchaseOrderChangeAck, type PurchaseOrderChangeAckInput } from "./865";
export {
  allTrackingNumbers,
  build856,
  parse856,
  type Carrier,
  type Mark,
  type Packaging,
  type Parse856Options,
  type ShipNotice,
  type ShipNoticeInput,
  type ShipNoticeItem,
  type ShipNoticeOrder,
  type ShipNoticeOrderInput,
  type ShipNoticePack,
} from "./856";
export {
  ack997Interchange,
  acknowledgeGroup,
  build997,
  buildAck997,
  ELEMENT_ERROR_CODES,
  FUNCTIONAL_IDENTIFIERS,
  parse997,
  type Ack997InterchangeOptions,
  type Ack997InterchangeResult,
  type AckElementError,
  type AckGroup,
  type AcknowledgeOptions,
  type AckSegmentError,
  type AckStatus,
  type AckTransaction,
  type FunctionalAck,
} from "./997";
export {
  components,
  repetitions,
  transactionSegments,
  viewTransaction,
  type Contact,
  type Parsed,
  type Party,
  type ProductIds,
  type Reference,
  type Segment,
  type TransactionView,
} from "./types";
export * from "./997";
export * from "./ta1";
export * from "./ack-property";
export * from "./strictness";
