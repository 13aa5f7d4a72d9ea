// 856 ship notice: the HL hierarchy (S shipment, O order, T tare, P pack,
// I item) read into shipment → orders → packs and items, each item carrying
// the tracking numbers of the packages it travels in; and built back.
//
// Which tracking numbers an item gets: those of its pack and tare levels and
// its own; when that chain has none, its order's; when the order has none,
// the shipment's (a single-parcel notice puts REF*CN at the shipment level).
import { faultPhrase } from "../texts";
import { AK4 } from "../x12/faults";
import type { SegmentData, TransactionData } from "../x12/writer";
import {
  addUnique,
  decimal,
  dropUndefined,
  element,
  Issues,
  partySegments,
  pickSku,
  pickVendorSku,
  productIdElements,
  productIds,
  readDate,
  readNumber,
  readPartySegment,
  readReference,
  readTime,
  referenceSegment,
  x12Date,
  x12Time,
  type Parsed,
  type Party,
  type ProductIds,
  type Reference,
  type Segment,
  type TransactionView,
} from "./types";

export interface ShipNotice {
  /** BSN01: 00 original, 05 replace... */
  purpose?: string;
  /** BSN02 */
  shipmentId: string;
  /** BSN03 */
  date?: string;
  /** BSN04, HH:MM or HH:MM:SS. */
  time?: string;
  /** BSN05: 0001 shipment/order/pack/item, 0002 shipment/order/item/pack, 0004 shipment/order/item... */
  structureCode?: string;
  /** DTM*011 */
  shippedDate?: string;
  /** DTM*017 */
  deliveryDate?: string;
  /** TD5 of the shipment level (or the first TD5 anywhere). */
  carrier?: Carrier;
  /** TD1 of the shipment level. */
  packaging?: Packaging;
  /** REF*BM of the shipment level. */
  billOfLading?: string;
  /** Tracking numbers of the shipment level (allTrackingNumbers() gives every one of the notice). */
  trackingNumbers: string[];
  /** Shipment-level REF segments other than tracking numbers and the bill of lading. */
  references: Reference[];
  parties: Party[];
  orders: ShipNoticeOrder[];
}

export interface Carrier {
  /** TD503 (TD502 = 2: Standard Carrier Alpha Code). */
  scac?: string;
  /** TD504: transportation method, e.g. M motor, U private parcel, A air. */
  method?: string;
  /** TD505: routing / service, e.g. "UPS GROUND". */
  routing?: string;
}

export interface Packaging {
  /** TD101, e.g. CTN25 cartons, PLT94 pallets. */
  code?: string;
  /** TD102: lading quantity. */
  quantity?: number;
  /** TD106: G gross, N net, A3 shipper's weight... */
  weightQualifier?: string;
  weight?: number;
  weightUom?: string;
}

export interface Mark {
  /** MAN01: GM SSCC-18, UC shipping container code, CP carrier package ID... */
  qualifier: string;
  value: string;
}

export interface ShipNoticeOrder {
  /** PRF01 */
  poNumber?: string;
  /** PRF04 */
  poDate?: string;
  /** Tracking numbers of the order level itself. */
  trackingNumbers: string[];
  references: Reference[];
  parties: Party[];
  packs: ShipNoticePack[];
  /** Every item of the order, packed or not, in file order. */
  items: ShipNoticeItem[];
}

export interface ShipNoticePack {
  level: "P" | "T";
  /** The pack's tracking numbers and those of the tares around it. */
  trackingNumbers: string[];
  /** MAN segments other than tracking numbers (SSCC-18 labels...). */
  marks: Mark[];
  packaging?: Packaging;
}

export interface ShipNoticeItem {
  /** LIN01 */
  lineNumber?: string;
  skus: ProductIds;
  sku?: string;
  vendorSku?: string;
  /** SN102: quantity shipped. */
  quantity?: number;
  uom?: string;
  /** SN105 */
  orderedQuantity?: number;
  /** SN108, a line item status code (see LINE_STATUS_CODES in 855.ts). */
  status?: string;
  description?: string;
  trackingNumbers: string[];
  /** Index in the order's packs of the pack holding the item. */
  pack?: number;
  marks?: Mark[];
}

export interface Parse856Options {
  /** REF qualifiers read as tracking numbers. Default CN (carrier's reference/PRO), 2I (tracking), AW (air waybill), WY (waybill). */
  trackingReferences?: string[];
  /** MAN qualifiers read as tracking numbers. Default CP (carrier-assigned package ID). */
  trackingMarks?: string[];
}

const TRACKING_REFERENCES = ["CN", "2I", "AW", "WY"];
const TRACKING_MARKS = ["CP"];

/** One HL level and what was read under it. */
interface Level {
  id: string;
  parentId?: string;
  code: string;
  segment: Segment;
  tracking: string[];
  references: Reference[];
  marks: Mark[];
  parties: Party[];
  packaging?: Packaging;
  carrier?: Carrier;
  prf?: { poNumber?: string; poDate?: string };
  items: ShipNoticeItem[];
}

export function parse856(view: TransactionView, options: Parse856Options = {}): Parsed<ShipNotice> {
  const trackingReferences = options.trackingReferences ?? TRACKING_REFERENCES;
  const trackingMarks = options.trackingMarks ?? TRACKING_MARKS;
  const issues = new Issues(view);
  const notice: ShipNotice = { shipmentId: "", trackingNumbers: [], references: [], parties: [], orders: [] };
  const levels: Level[] = [];
  const byId = new Map<string, Level>();
  let level: Level | undefined;
  let item: ShipNoticeItem | undefined;
  let sawBsn = false;
  let ctt: Segment | undefined;
  // REF segments before the first HL count as the shipment's.
  const header: Pick<Level, "tracking" | "references"> = { tracking: [], references: [] };

  for (const segment of view.segments) {
    switch (segment.id) {
      case "BSN":
        sawBsn = true;
        Object.assign(
          notice,
          dropUndefined({
            purpose: element(segment, 1),
            shipmentId: element(segment, 2) ?? "",
            date: readDate(issues, segment, 3),
            time: readTime(issues, segment, 4),
            structureCode: element(segment, 5),
          }),
        );
        if (!notice.shipmentId) issues.elementFault(segment, 2, AK4.mandatoryMissing, (name) => faultPhrase("empty_shipment_id", { element: name }));
        break;
      case "HL": {
        const id = element(segment, 1) ?? String(levels.length + 1);
        level = {
          id,
          parentId: element(segment, 2),
          code: element(segment, 3) ?? "",
          segment,
          tracking: [],
          references: [],
          marks: [],
          parties: [],
          items: [],
        };
        if (byId.has(id)) issues.note(segment, faultPhrase("hl01_twice", { value: JSON.stringify(id) }), 1);
        if (level.parentId !== undefined && !byId.has(level.parentId))
          issues.note(segment, faultPhrase("hl02_no_parent", { value: JSON.stringify(level.parentId) }), 2);
        byId.set(id, level);
        levels.push(level);
        item = undefined;
        break;
      }
      case "DTM": {
        // Dates of the shipment: before the first HL, or in the shipment level.
        if (level && level.code !== "S") break;
        const qualifier = element(segment, 1);
        if (qualifier === "011") notice.shippedDate = readDate(issues, segment, 2);
        else if (qualifier === "017") notice.deliveryDate = readDate(issues, segment, 2);
        break;
      }
      case "TD1": {
        const packaging = dropUndefined({
          code: element(segment, 1),
          quantity: readNumber(issues, segment, 2),
          weightQualifier: element(segment, 6),
          weight: readNumber(issues, segment, 7),
          weightUom: element(segment, 8),
        });
        if (level && !level.packaging) level.packaging = packaging;
        break;
      }
      case "TD5": {
        const carrier = dropUndefined({ scac: element(segment, 3), method: element(segment, 4), routing: element(segment, 5) });
        if (level && !level.carrier) level.carrier = carrier;
        break;
      }
      case "REF": {
        const reference = readReference(segment);
        const tracking = trackingReferences.includes(reference.qualifier);
        const owner = level ?? header;
        if (tracking) addUnique(owner.tracking, reference.value);
        else owner.references.push(reference);
        break;
      }
      case "MAN": {
        const mark = { qualifier: element(segment, 1) ?? "", value: element(segment, 2) ?? "" };
        if (!level) break;
        if (trackingMarks.includes(mark.qualifier)) addUnique(level.tracking, mark.value);
        else if (item && level.code !== "P" && level.code !== "T") item.marks = [...(item.marks ?? []), mark];
        else level.marks.push(mark);
        break;
      }
      case "PRF":
        if (level) level.prf = dropUndefined({ poNumber: element(segment, 1), poDate: readDate(issues, segment, 4) });
        break;
      case "LIN": {
        if (!level) {
          issues.note(segment, faultPhrase("lin_before_hl"));
          break;
        }
        const skus = productIds(segment, 2);
        item = dropUndefined({ lineNumber: element(segment, 1), skus, sku: pickSku(skus), vendorSku: pickVendorSku(skus), trackingNumbers: [] as string[] });
        level.items.push(item);
        break;
      }
      case "SN1":
        if (!level) break;
        if (!item) {
          // SN1 without LIN: an item level that names its product elsewhere (or not at all).
          item = { skus: {}, trackingNumbers: [] };
          level.items.push(item);
        }
        Object.assign(
          item,
          dropUndefined({
            quantity: readNumber(issues, segment, 2),
            uom: element(segment, 3),
            orderedQuantity: readNumber(issues, segment, 5),
            status: element(segment, 8),
          }),
        );
        break;
      case "PID":
        if (item && item.description === undefined && element(segment, 5) !== undefined) item.description = element(segment, 5);
        break;
      case "CTT":
        ctt = segment;
        break;
      default:
        if (level) readPartySegment(segment, level.parties);
        else readPartySegment(segment, notice.parties);
    }
  }

  if (!sawBsn) issues.missingSegment("BSN", view.segments[1]);
  assemble(notice, levels, byId, header, issues);
  if (ctt) checkCounts(issues, ctt, levels);
  return issues.parsed(notice);
}

/**
 * The most tracking numbers a pack or item takes from the packages around it.
 * Real notices nest a few levels (pallet, carton); a pack inside thousands,
 * each numbered, would give every level a copy of all of them.
 */
export const MAX_PACK_TRACKING = 50;

/** What a level takes from its chain of ancestors (itself included). */
interface Inherited {
  /** The nearest order (O) level. */
  order?: Level;
  /** The nearest pack or tare (P, T) level. */
  pack?: Level;
  /** The tracking numbers of every P and T level of the chain, root first (shared, never changed in place). */
  packTracking: string[];
}

/**
 * Turns the HL levels into shipment → orders → packs/items. Linear in the
 * number of levels: what each level inherits is derived once from its parent's
 * (D71), not by walking its whole chain of ancestors again.
 */
function assemble(notice: ShipNotice, levels: Level[], byId: Map<string, Level>, header: Pick<Level, "tracking" | "references">, issues: Issues) {
  const parentOf = (level: Level) => (level.parentId === undefined ? undefined : byId.get(level.parentId));
  const inherited = new Map<Level, Inherited>();
  const none: Inherited = { packTracking: [] };
  let trimmed = false;
  const inherit = (level: Level): Inherited => {
    const known = inherited.get(level);
    if (known) return known;
    // Up to an ancestor already known, a root, or a level seen twice (a loop of HL02s: it counts as the root).
    const path: Level[] = [];
    const onPath = new Set<Level>();
    let at: Level | undefined = level;
    while (at && !inherited.has(at) && !onPath.has(at)) {
      path.push(at);
      onPath.add(at);
      at = parentOf(at);
    }
    let base = at && inherited.has(at) ? inherited.get(at)! : none;
    for (let i = path.length - 1; i >= 0; i--) {
      const each = path[i];
      const isPack = each.code === "P" || each.code === "T";
      const adds = isPack && each.tracking.some((number) => !base.packTracking.includes(number));
      let packTracking = adds ? addUnique([...base.packTracking], ...each.tracking) : base.packTracking;
      if (packTracking.length > MAX_PACK_TRACKING) {
        // Packs nested in hundreds of packs, each with its own number: keeping
        // every outer number would make the notice quadratic in size (D74).
        packTracking = packTracking.slice(-MAX_PACK_TRACKING);
        if (!trimmed) {
          trimmed = true;
          issues.note(each.segment, faultPhrase("packed_too_deep", { id: each.id, max: MAX_PACK_TRACKING }));
        }
      }
      const derived: Inherited = {
        order: each.code === "O" ? each : base.order,
        pack: isPack ? each : base.pack,
        packTracking,
      };
      inherited.set(each, derived);
      base = derived;
    }
    return inherited.get(level)!;
  };
  // Pack-first layouts (S > P > O > I): the first order level, in file order,
  // below each level. Made once, when a pack without an order above it needs it.
  let firstOrderBelow: Map<Level, Level> | undefined;
  const orderBelow = (level: Level) => {
    if (!firstOrderBelow) {
      firstOrderBelow = new Map();
      for (const order of levels) {
        if (order.code !== "O") continue;
        const seen = new Set<Level>([order]);
        // An ancestor already marked had its own ancestors marked by an earlier order.
        for (let at = parentOf(order); at && !seen.has(at) && !firstOrderBelow.has(at); at = parentOf(at)) {
          seen.add(at);
          firstOrderBelow.set(at, order);
        }
      }
    }
    return firstOrderBelow.get(level);
  };
  const shipment = levels.find((level) => level.code === "S");
  const shipmentTracking = addUnique([...header.tracking], ...(shipment?.tracking ?? []));
  const references = [...header.references, ...(shipment?.references ?? [])];
  const billOfLading = references.find((reference) => reference.qualifier === "BM");
  if (billOfLading) notice.billOfLading = billOfLading.value;
  notice.references.push(...references.filter((reference) => reference !== billOfLading));
  if (shipment) {
    notice.parties.push(...shipment.parties);
    if (shipment.packaging) notice.packaging = shipment.packaging;
  } else if (levels.length > 0) {
    issues.missingSegment("HL", levels[0].segment, faultPhrase("no_shipment_level"));
  }
  const carrier = shipment?.carrier ?? levels.find((level) => level.carrier)?.carrier;
  if (carrier) notice.carrier = carrier;

  notice.trackingNumbers = [...shipmentTracking];

  const orders = new Map<Level | undefined, ShipNoticeOrder>();
  const orderOf = (level: Level | undefined): ShipNoticeOrder => {
    let order = orders.get(level);
    if (!order) {
      order = dropUndefined({
        poNumber: level?.prf?.poNumber,
        poDate: level?.prf?.poDate,
        trackingNumbers: [...(level?.tracking ?? [])],
        references: [...(level?.references ?? [])],
        parties: [...(level?.parties ?? [])],
        packs: [],
        items: [],
      });
      orders.set(level, order);
      notice.orders.push(order);
    }
    return order;
  };

  const packIndex = new Map<Level, { order: ShipNoticeOrder; index: number }>();
  for (const level of levels) {
    const chain = inherit(level);
    if (level.code === "O") orderOf(level);
    if (level.code === "P" || level.code === "T") {
      // A pack belongs to the order above it or, in pack-first layouts (S > P > O > I), to the order of its first item.
      const order = orderOf(chain.order ?? orderBelow(level));
      order.packs.push(
        dropUndefined({ level: level.code as "P" | "T", trackingNumbers: [...chain.packTracking], marks: level.marks, packaging: level.packaging }),
      );
      packIndex.set(level, { order, index: order.packs.length - 1 });
    }
    for (const item of level.items) {
      const orderLevel = chain.order;
      if (!orderLevel) issues.note(level.segment, faultPhrase("no_order_level", { id: level.id }));
      const order = orderOf(orderLevel);
      const packed = [...chain.packTracking];
      if (level.code !== "P" && level.code !== "T") addUnique(packed, ...level.tracking);
      item.trackingNumbers = packed.length ? packed : orderLevel?.tracking.length ? [...orderLevel.tracking] : [...shipmentTracking];
      const pack = chain.pack ? packIndex.get(chain.pack) : undefined;
      if (pack && pack.order === order) item.pack = pack.index;
      order.items.push(item);
    }
  }
}

/** CTT01 counts the HL segments, CTT02 (when sent) sums SN102. */
function checkCounts(issues: Issues, ctt: Segment, levels: Level[]) {
  const count = readNumber(issues, ctt, 1);
  const hash = readNumber(issues, ctt, 2);
  if (count !== undefined && count !== levels.length) issues.note(ctt, faultPhrase("ctt_levels", { count, levels: levels.length }), 1);
  const sum = levels.reduce((total, level) => total + level.items.reduce((inner, item) => inner + (item.quantity ?? 0), 0), 0);
  if (hash !== undefined && Math.abs(hash - sum) > 1e-6) issues.note(ctt, faultPhrase("ctt_hash_shipped", { hash, sum: decimal(sum)! }), 2);
}

/** Every tracking number of a notice: shipment, orders, packs and items, without repeats. */
export function allTrackingNumbers(notice: Pick<ShipNotice, "trackingNumbers" | "orders">): string[] {
  const all = [...notice.trackingNumbers];
  for (const order of notice.orders) {
    addUnique(all, ...order.trackingNumbers);
    for (const pack of order.packs) addUnique(all, ...pack.trackingNumbers);
    for (const item of order.items) addUnique(all, ...item.trackingNumbers);
  }
  return all;
}

// ---------------------------------------------------------------------------
// Building

/** A ShipNotice as the builder takes it: derived fields optional. */
export interface ShipNoticeInput extends Omit<ShipNotice, "orders" | "references" | "parties" | "trackingNumbers"> {
  trackingNumbers?: string[];
  references?: Reference[];
  parties?: Party[];
  orders: ShipNoticeOrderInput[];
}

export interface ShipNoticeOrderInput extends Omit<ShipNoticeOrder, "trackingNumbers" | "references" | "parties" | "packs" | "items"> {
  trackingNumbers?: string[];
  references?: Reference[];
  parties?: Party[];
  packs?: (Omit<ShipNoticePack, "level" | "marks" | "trackingNumbers"> & { level?: "P" | "T"; marks?: Mark[]; trackingNumbers?: string[] })[];
  items: (Omit<ShipNoticeItem, "skus" | "trackingNumbers"> & { skus?: ProductIds; trackingNumbers?: string[] })[];
}

/**
 * Writes HL*S, then per order HL*O, its unpacked items (HL*I), then each pack
 * (HL*P or T) with its items. Tracking numbers are written once, at the level
 * that owns them: MAN*CP for a pack, REF*CN elsewhere.
 */
export function build856(notice: ShipNoticeInput, controlNumber: string): TransactionData {
  if (!notice.shipmentId) throw new Error("856: shipmentId is required");
  const hasPacks = notice.orders.some((order) => (order.packs?.length ?? 0) > 0);
  const segments: SegmentData[] = [
    ["BSN", notice.purpose ?? "00", notice.shipmentId, x12Date(notice.date), x12Time(notice.time), notice.structureCode ?? (hasPacks ? "0001" : "0004")],
  ];
  if (notice.shippedDate) segments.push(["DTM", "011", x12Date(notice.shippedDate)]);
  if (notice.deliveryDate) segments.push(["DTM", "017", x12Date(notice.deliveryDate)]);

  const shipmentTracking = notice.trackingNumbers ?? [];

  let hl = 0;
  let quantities = 0;
  const level = (parent: number | undefined, code: string) => {
    segments.push(["HL", ++hl, parent, code]);
    return hl;
  };
  const shipment = level(undefined, "S");
  if (notice.packaging) segments.push(packagingSegment(notice.packaging));
  if (notice.carrier)
    segments.push(["TD5", undefined, notice.carrier.scac ? "2" : undefined, notice.carrier.scac, notice.carrier.method, notice.carrier.routing]);
  if (notice.billOfLading) segments.push(["REF", "BM", notice.billOfLading]);
  for (const number of shipmentTracking) segments.push(["REF", "CN", number]);
  for (const reference of notice.references ?? []) segments.push(referenceSegment(reference));
  for (const party of notice.parties ?? []) segments.push(...partySegments(party));

  for (const order of notice.orders) {
    const orderLevel = level(shipment, "O");
    if (order.poNumber || order.poDate) segments.push(["PRF", order.poNumber, undefined, undefined, x12Date(order.poDate)]);
    for (const number of order.trackingNumbers ?? []) segments.push(["REF", "CN", number]);
    for (const reference of order.references ?? []) segments.push(referenceSegment(reference));
    for (const party of order.parties ?? []) segments.push(...partySegments(party));

    const writeItem = (item: ShipNoticeOrderInput["items"][number], parent: number, inherited: string[]) => {
      level(parent, "I");
      const skus = item.skus ?? (item.sku ? { SK: item.sku } : {});
      segments.push(["LIN", item.lineNumber, ...productIdElements(skus)]);
      if (item.quantity !== undefined) {
        quantities += item.quantity;
        segments.push([
          "SN1",
          undefined,
          decimal(item.quantity),
          item.uom ?? "EA",
          undefined,
          decimal(item.orderedQuantity),
          item.orderedQuantity !== undefined ? (item.uom ?? "EA") : undefined,
          undefined,
          item.status,
        ]);
      }
      if (item.description) segments.push(["PID", "F", undefined, undefined, undefined, item.description]);
      for (const mark of item.marks ?? []) segments.push(["MAN", mark.qualifier, mark.value]);
      for (const number of item.trackingNumbers ?? []) if (!inherited.includes(number)) segments.push(["REF", "CN", number]);
    };
    // What an item inherits when its pack has no tracking number (see the header comment).
    const fallback = order.trackingNumbers?.length ? order.trackingNumbers : shipmentTracking;
    order.items.filter((item) => item.pack === undefined).forEach((item) => writeItem(item, orderLevel, fallback));
    (order.packs ?? []).forEach((pack, index) => {
      const packLevel = level(orderLevel, pack.level ?? "P");
      if (pack.packaging) segments.push(packagingSegment(pack.packaging));
      for (const mark of pack.marks ?? []) segments.push(["MAN", mark.qualifier, mark.value]);
      for (const number of pack.trackingNumbers ?? []) segments.push(["MAN", "CP", number]);
      const inherited = pack.trackingNumbers?.length ? pack.trackingNumbers : fallback;
      order.items.filter((item) => item.pack === index).forEach((item) => writeItem(item, packLevel, inherited));
    });
  }
  segments.push(["CTT", hl, decimal(quantities)]);
  return { setId: "856", controlNumber, segments };
}

function packagingSegment(packaging: Packaging): SegmentData {
  const weightQualifier = packaging.weightQualifier ?? (packaging.weight !== undefined ? "G" : undefined);
  return [
    "TD1",
    packaging.code,
    decimal(packaging.quantity),
    undefined,
    undefined,
    undefined,
    weightQualifier,
    decimal(packaging.weight),
    packaging.weightUom ?? (packaging.weight !== undefined ? "LB" : undefined),
  ];
}
