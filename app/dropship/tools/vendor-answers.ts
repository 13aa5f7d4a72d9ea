// What a vendor answers to our purchase orders, made up, as files: a 997 and
// an 855 at once, an 856 (and an 810) per PO later; and inventory advice.
// Vendor Testing (vendor-testing.server.ts) uploads them for a vendor in test
// mode; local mode's demo vendor (app/demo/demo-vendor.server.ts) answers
// with them too. Pure functions (no I/O, time and chance passed in), so
// the round trips through the app's own readers are tested without a server.
import { stringify } from "csv-stringify/sync";
import { columnNames, headerLine, type CsvDocumentType } from "@edi/csv";
import { readPurchaseOrderCsv } from "@edi/csv";
import { neutraliseCsvValue } from "@edi/csv";
import { mapTransactions } from "@edi/documents";
import { build810 } from "@edi/documents";
import { build846 } from "@edi/documents";
import { build855, type AckLineInput } from "@edi/documents";
import { build856, type Carrier } from "@edi/documents";
import { ack997Interchange } from "@edi/documents";
import type { ProductIds } from "@edi/documents";
import { tradingProfile, type OurIdentity, type TradingProfile, type VendorEdiFields } from "@edi/vendor-profile";
import type { Fault } from "@edi/x12";
import type { Delimiters } from "@edi/x12";
import { readX12 } from "@edi/x12";
import { vendorDelimiters, writeInterchange, x12DateTime, type TransactionData } from "@edi/x12";

export interface OutFile {
  name: string;
  content: string;
}

/** A vendor row: the spec's field names ("997_enabled") or the Prisma model's ("edi997_enabled"). */
export interface DemoVendor {
  id: number;
  name: string;
  store_id: string;
  [field: string]: unknown;
}

export interface AnswerOptions {
  now: Date;
  /** The first control number to use (ISA13, GS06, ST02, file name numbers); the answer says the next free one. */
  controlNumberStart: number;
  /** Chance: which line is backordered, the carrier, tracking digits, prices. Default Math.random. */
  random?: () => number;
  /** Us, the receiver of the answers (EDI_SENDER_QUALIFIER / EDI_SENDER_ID); default ZZ / HOUSEROPS. */
  ours?: OurIdentity;
}

export interface PurchaseOrderAnswer {
  /** Written at once: the 997 (X12 vendors with 997 enabled) and the acknowledgement. */
  immediate: OutFile[];
  /** Written a while later: a ship notice per PO, and an invoice per PO when 810 is enabled. */
  later: OutFile[];
  /** The PO numbers answered. */
  purchaseOrders: string[];
  /** What was wrong with the file, for the log (a rejected interchange, CSV rows left out). */
  problems: string[];
  nextControlNumber: number;
}

const DEFAULT_OURS: OurIdentity = { qualifier: "ZZ", id: "HOUSEROPS" };
const MAX_CONTROL = 999_999_999;

/** The spec's field names, filled from the Prisma model's where only those are given. */
export function vendorEdiFields(vendor: DemoVendor): VendorEdiFields {
  const fields: VendorEdiFields = { ...vendor };
  for (const [key, value] of Object.entries(vendor)) {
    const spec = /^edi(\d{3}_.+)$/.exec(key)?.[1];
    if (spec && !(spec in vendor)) fields[spec] = value;
  }
  return fields;
}

// ---------------------------------------------------------------------------
// Purchase orders in, answers out

/** One PO line as both formats give it. */
interface OrderLine {
  lineNumber: string;
  /** The product IDs as the 850's PO1 had them (CSV: SK, and VP when given). */
  skus: ProductIds;
  sku: string;
  quantity: number;
  uom: string;
  unitPrice?: number;
}

interface Order {
  poNumber: string;
  /** YYYY-MM-DD */
  date?: string;
  lines: OrderLine[];
}

/** What the vendor decided for one PO, drawn from `random` in a fixed order so answers are reproducible. */
interface Plan {
  order: Order;
  backordered?: { line: number; date: string };
  carrier: DemoCarrier;
  tracking: string;
  prices: number[];
  freightCents: number;
  weightLb: number;
}

export function answerPurchaseOrderFile(
  vendor: DemoVendor,
  fileName: string,
  content: Buffer,
  options: AnswerOptions,
): PurchaseOrderAnswer | { error: string } {
  const setup = profileOf(vendor, options);
  if ("error" in setup) return setup;
  const { profile, fields } = setup;
  return profile.format === "x12" ? answerX12(vendor, fields, profile, fileName, content, options) : answerCsv(vendor, profile, fileName, content, options);
}

function answerX12(
  vendor: DemoVendor,
  fields: VendorEdiFields,
  profile: TradingProfile,
  fileName: string,
  content: Buffer,
  options: AnswerOptions,
): PurchaseOrderAnswer | { error: string } {
  const read = readX12(content);
  if (read.interchanges.length === 0) return { error: `${fileName} is not an X12 file: ${read.faults.map((fault) => fault.message).join("; ") || "no ISA"}` };
  const counter = new Counter(options.controlNumberStart);
  const random = options.random ?? Math.random;
  const delimiters = answerDelimiters(fields, profile);
  const problems = read.faults.map((fault) => `${fileName}: segment ${fault.segmentIndex} (${fault.segmentId}): ${fault.message}`);

  // The app's own 997s (answering our 855/856/810) land in the same folder: a 997 is never acknowledged.
  const groups = read.interchanges.flatMap((interchange) => interchange.groups);
  if (groups.length > 0 && groups.every((group) => group.functionalId === "FA")) {
    return { immediate: [], later: [], purchaseOrders: [], problems, nextControlNumber: counter.peek() };
  }

  const orders: Order[] = [];
  const extraFaults: Fault[] = [];
  if (read.ok) {
    for (const located of mapTransactions(read)) {
      if (located.mapped?.type !== "850") continue;
      const { document: po, faults } = located.mapped;
      if (faults.length) {
        extraFaults.push(...faults);
        problems.push(...faults.map((fault) => `${fileName}: 850 ${located.controlNumber}: ${fault.message}`));
        continue;
      }
      if (po.purpose === "01") continue; // a cancellation: acknowledged by the 997, nothing to ship
      orders.push({
        poNumber: po.poNumber,
        date: po.date,
        lines: po.lines.map((line, i) => ({
          lineNumber: line.lineNumber ?? String(i + 1),
          skus: line.skus,
          sku: line.sku ?? "",
          quantity: line.quantity ?? 1,
          uom: line.uom ?? "EA",
          unitPrice: line.unitPrice,
        })),
      });
    }
  }

  const immediate: OutFile[] = [];
  if (profile.documents["997"].enabled) {
    const start = counter.peek();
    const ack = ack997Interchange(read, {
      sender: profile.receiver,
      receiver: profile.sender,
      groupSender: profile.receiver.id,
      groupReceiver: profile.sender.id,
      controlNumbers: { interchange: start, group: start, transaction: start },
      delimiters,
      date: options.now,
      usage: profile.usage,
      supportedSets: ["850"],
      extraFaults,
    });
    const { interchange, group, transaction } = ack.controlNumbers;
    counter.skipTo(Math.max(interchange, group, transaction));
    immediate.push({ name: fileNameFor("997", vendor, profile, options.now, start), content: ack.text });
  }

  const plans = orders.map((order) => plan(order, options.now, random));
  const later: OutFile[] = [];
  if (plans.length) {
    const n = counter.take(plans.length);
    const sets = plans.map((each, i) => build855(acknowledgement(each, vendor, n, options.now), setControl(n + i)));
    immediate.push({ name: fileNameFor("855", vendor, profile, options.now, n), content: envelope(profile, delimiters, options.now, n, "PR", "855", sets) });
  }
  for (const each of plans) {
    const n = counter.take(1);
    later.push({
      name: fileNameFor("856", vendor, profile, options.now, n),
      content: envelope(profile, delimiters, options.now, n, "SH", "856", [build856(shipNotice(each, vendor, n, options.now), setControl(n))]),
    });
    if (profile.documents["810"].enabled) {
      const m = counter.take(1);
      later.push({
        name: fileNameFor("810", vendor, profile, options.now, m),
        content: envelope(profile, delimiters, options.now, m, "IN", "810", [build810(invoice(each, vendor, m, options.now), setControl(m))]),
      });
    }
  }
  return { immediate, later, purchaseOrders: orders.map((order) => order.poNumber), problems, nextControlNumber: counter.peek() };
}

// CSV has no functional acknowledgement: a CSV vendor's answer starts with its 855, whatever 997_enabled says.
function answerCsv(
  vendor: DemoVendor,
  profile: TradingProfile,
  fileName: string,
  content: Buffer,
  options: AnswerOptions,
): PurchaseOrderAnswer | { error: string } {
  const read = readPurchaseOrderCsv(content);
  const problems = read.errors.map((error) => `${fileName}: ${error.message}`);
  if (read.refused || read.orders.length === 0) return { error: problems.join("; ") || `${fileName} holds no purchase order` };
  const counter = new Counter(options.controlNumberStart);
  const random = options.random ?? Math.random;
  const orders: Order[] = read.orders.map((po) => ({
    poNumber: po.poNumber,
    date: typeof po.date === "string" ? po.date : isoDay(po.date),
    lines: po.lines.map((line, i) => ({
      lineNumber: line.lineNumber == null ? String(i + 1) : String(line.lineNumber),
      skus: { SK: line.sku, ...(line.vendorSku ? { VP: line.vendorSku } : {}) },
      sku: line.sku,
      quantity: line.quantity,
      uom: "EA",
      unitPrice: line.unitPrice == null || line.unitPrice === "" ? undefined : Number(line.unitPrice),
    })),
  }));
  const plans = orders.map((order) => plan(order, options.now, random));
  const today = isoDay(options.now);

  const acknowledgementRows = plans.flatMap((each) =>
    each.order.lines.map((line, i) => {
      const backordered = each.backordered?.line === i ? each.backordered : undefined;
      return {
        po_number: each.order.poNumber,
        sku: line.sku,
        quantity: line.quantity,
        status: backordered ? "backordered" : "accepted",
        expected_date: backordered?.date ?? null,
        message: backordered ? `Supplier delay, ships by ${backordered.date}` : null,
      };
    }),
  );
  const immediate = [{ name: fileNameFor("855", vendor, profile, options.now, counter.take(1)), content: csvFile("855", acknowledgementRows) }];

  const later: OutFile[] = [];
  for (const each of plans) {
    const shipRows = each.order.lines.map((line) => ({
      po_number: each.order.poNumber,
      sku: line.sku,
      quantity: line.quantity,
      tracking_number: each.tracking,
      carrier: each.carrier.name,
      ship_date: today,
    }));
    later.push({ name: fileNameFor("856", vendor, profile, options.now, counter.take(1)), content: csvFile("856", shipRows) });
    if (profile.documents["810"].enabled) {
      const n = counter.take(1);
      const lineTotals = each.order.lines.map((line, i) => Math.round(line.quantity * each.prices[i] * 100));
      const totalCents = lineTotals.reduce((sum, cents) => sum + cents, 0) + each.freightCents;
      const invoiceRows = each.order.lines.map((line, i) => ({
        invoice_number: invoiceNumber(vendor, n),
        invoice_date: today,
        po_number: each.order.poNumber,
        sku: line.sku,
        quantity: line.quantity,
        unit_price: money(each.prices[i] * 100),
        line_total: money(lineTotals[i]),
        shipping: money(each.freightCents),
        tax: money(0),
        invoice_total: money(totalCents),
      }));
      later.push({ name: fileNameFor("810", vendor, profile, options.now, n), content: csvFile("810", invoiceRows) });
    }
  }
  return { immediate, later, purchaseOrders: orders.map((order) => order.poNumber), problems, nextControlNumber: counter.peek() };
}

// ---------------------------------------------------------------------------
// Inventory

export interface InventoryItem {
  sku: string;
  quantity: number;
}

/** An 846 (X12 vendors) or inventory CSV for the given items; items at 0 get a restock date. */
export function inventoryAdvice(vendor: DemoVendor, items: readonly InventoryItem[], options: AnswerOptions): OutFile & { nextControlNumber: number } {
  const setup = profileOf(vendor, options);
  if ("error" in setup) throw new Error(setup.error);
  const { profile, fields } = setup;
  const random = options.random ?? Math.random;
  const counter = new Counter(options.controlNumberStart);
  const n = counter.take(1);
  const restock = () => isoDay(addDays(options.now, 7 + Math.floor(random() * 21)));
  if (profile.format === "csv") {
    const rows = items.map((item) => ({ sku: item.sku, quantity: item.quantity, available_date: item.quantity === 0 ? restock() : null }));
    return { name: fileNameFor("846", vendor, profile, options.now, n), content: csvFile("846", rows), nextControlNumber: counter.peek() };
  }
  const { time } = x12DateTime(options.now);
  const advice = build846(
    {
      purpose: "00",
      reportType: "DD",
      reference: `INV${n}`,
      date: isoDay(options.now),
      time: `${time.slice(0, 2)}:${time.slice(2)}`,
      records: items.map((item, i) => ({
        lineNumber: String(i + 1),
        skus: { SK: item.sku },
        quantity: item.quantity,
        quantityQualifier: "33",
        uom: "EA",
        ...(item.quantity === 0 ? { scheduledQuantity: 10 + Math.floor(random() * 40), dateQualifier: "018", date: restock() } : {}),
      })),
    },
    setControl(n),
  );
  // Not hard-wrapped for unwrap_846 vendors: the app recognises a file by "ST*846" in its first bytes, which a wrap can split.
  const content = envelope(profile, answerDelimiters(fields, profile), options.now, n, "IB", "846", [advice]);
  return { name: fileNameFor("846", vendor, profile, options.now, n), content, nextControlNumber: counter.peek() };
}

// ---------------------------------------------------------------------------
// The vendor's decisions

export interface DemoCarrier {
  /** As a CSV vendor writes it. */
  name: string;
  scac: string;
  routing: string;
  tracking: (random: () => number) => string;
}

export const CARRIERS: readonly DemoCarrier[] = [
  { name: "UPS", scac: "UPSN", routing: "UPS GROUND", tracking: upsTrackingNumber },
  { name: "FedEx", scac: "FDEG", routing: "FEDEX GROUND", tracking: fedexTrackingNumber },
  { name: "USPS", scac: "USPS", routing: "USPS PRIORITY MAIL", tracking: uspsTrackingNumber },
];

function plan(order: Order, now: Date, random: () => number): Plan {
  // About one PO in seven has a line backordered, for two to four weeks.
  const backordered =
    order.lines.length && random() < 0.15
      ? { line: Math.floor(random() * order.lines.length), date: isoDay(addDays(now, 14 + Math.floor(random() * 14))) }
      : undefined;
  const carrier = CARRIERS[Math.floor(random() * CARRIERS.length)];
  const tracking = carrier.tracking(random);
  // Invoiced at the PO's price; a demo price where the PO gave none.
  const prices = order.lines.map((line) => line.unitPrice ?? Math.round((5 + random() * 95) * 100) / 100);
  const freightCents = [0, 595, 795, 995][Math.floor(random() * 4)];
  const weightLb = 1 + Math.floor(random() * 30);
  return { order, backordered, carrier, tracking, prices, freightCents, weightLb };
}

function acknowledgement(each: Plan, vendor: DemoVendor, n: number, now: Date) {
  return {
    purpose: "00",
    poNumber: each.order.poNumber,
    poDate: each.order.date,
    sellerOrderNumber: `SO${storeCode(vendor)}${n}`,
    ackDate: isoDay(now),
    lines: each.order.lines.map((line, i): AckLineInput => {
      const backordered = each.backordered?.line === i ? each.backordered : undefined;
      return {
        lineNumber: line.lineNumber,
        quantity: line.quantity,
        uom: line.uom,
        unitPrice: line.unitPrice,
        skus: line.skus,
        acks: [
          backordered
            ? { code: "IB", status: "backordered", quantity: line.quantity, uom: line.uom, dateQualifier: "068", date: backordered.date }
            : { code: "IA", status: "accepted", quantity: line.quantity, uom: line.uom },
        ],
      };
    }),
  };
}

function shipNotice(each: Plan, vendor: DemoVendor, n: number, now: Date) {
  const { time } = x12DateTime(now);
  const carrier: Carrier = { scac: each.carrier.scac, method: "U", routing: each.carrier.routing };
  return {
    purpose: "00",
    shipmentId: `SH${storeCode(vendor)}${n}`,
    date: isoDay(now),
    time: `${time.slice(0, 2)}:${time.slice(2)}`,
    shippedDate: isoDay(now),
    carrier,
    packaging: { code: "CTN25", quantity: 1, weight: each.weightLb, weightUom: "LB" },
    orders: [
      {
        poNumber: each.order.poNumber,
        poDate: each.order.date,
        packs: [{ trackingNumbers: [each.tracking] }],
        items: each.order.lines.map((line) => ({ lineNumber: line.lineNumber, skus: line.skus, quantity: line.quantity, uom: line.uom, pack: 0 })),
      },
    ],
  };
}

function invoice(each: Plan, vendor: DemoVendor, n: number, now: Date) {
  return {
    date: isoDay(now),
    invoiceNumber: invoiceNumber(vendor, n),
    poDate: each.order.date,
    poNumber: each.order.poNumber,
    lines: each.order.lines.map((line, i) => ({
      lineNumber: line.lineNumber,
      quantity: line.quantity,
      uom: line.uom,
      unitPrice: each.prices[i],
      skus: line.skus,
    })),
    charges: each.freightCents ? [{ type: "charge" as const, code: "D240", amountCents: each.freightCents, description: "Freight" }] : [],
  };
}

const invoiceNumber = (vendor: DemoVendor, n: number) => `INV-${storeCode(vendor)}-${n}`;

// ---------------------------------------------------------------------------
// Tracking numbers with their carriers' check digits

/** 1Z, a 6-character shipper number, service 03 (ground), 7 digits, and the UPS check digit. */
export function upsTrackingNumber(random: () => number): string {
  const alphabet = "0123456789ABCDEFGHJKLMNPRSTUVWXYZ";
  const shipper = Array.from({ length: 6 }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
  const body = `${shipper}03${digits(random, 7)}`;
  return `1Z${body}${upsCheckDigit(body)}`;
}

/** UPS's check digit of the 15 characters after 1Z: letters count as (char code - 63) mod 10; odd positions once, even ones twice. */
export function upsCheckDigit(body: string): number {
  const sum = [...body].reduce((total, char, i) => {
    const value = /\d/.test(char) ? Number(char) : (char.charCodeAt(0) - 63) % 10;
    return total + (i % 2 === 0 ? value : 2 * value);
  }, 0);
  return (10 - (sum % 10)) % 10;
}

/** 12 digits, the last a check digit: weights 1, 3, 7 from the right, mod 11, mod 10. */
export function fedexTrackingNumber(random: () => number): string {
  const body = `${1 + Math.floor(random() * 9)}${digits(random, 10)}`;
  const weights = [1, 3, 7];
  const sum = [...body].reverse().reduce((total, char, i) => total + Number(char) * weights[i % 3], 0);
  return `${body}${(sum % 11) % 10}`;
}

/** 22 digits (IMpb, USPS Tracking): 9400 1 service, a mailer ID, serial, GS1 mod-10 check digit. */
export function uspsTrackingNumber(random: () => number): string {
  const body = `9400111899${digits(random, 11)}`;
  const sum = [...body].reverse().reduce((total, char, i) => total + Number(char) * (i % 2 === 0 ? 3 : 1), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

const digits = (random: () => number, count: number) => Array.from({ length: count }, () => Math.floor(random() * 10)).join("");

// ---------------------------------------------------------------------------
// Writing

export function profileOf(vendor: DemoVendor, options: AnswerOptions): { profile: TradingProfile; fields: VendorEdiFields } | { error: string } {
  const fields = vendorEdiFields(vendor);
  const { profile, errors } = tradingProfile(fields, options.ours ?? DEFAULT_OURS);
  const listed = Object.entries(errors).flatMap(([field, messages]) => messages.map((message) => `${field} ${message}`));
  if (listed.length) return { error: `vendor ${vendor.name}: ${listed.join("; ")}` };
  return { profile, fields };
}

/**
 * The delimiters the vendor writes with: what the app expects from it
 * (input_delimiter / input_segmenter) when usable, else its output ones, so
 * the app never has to warn that the ISA contradicts the vendor's hints.
 */
export function answerDelimiters(fields: VendorEdiFields, profile: TradingProfile): Delimiters {
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);
  const input = vendorDelimiters({ output_delimiter: text(fields.input_delimiter), output_segmenter: text(fields.input_segmenter) });
  const unusable = (char: string) => /^[A-Za-z0-9 ]$/.test(char) || char === input.component;
  if (!fields.input_delimiter || !fields.input_segmenter || unusable(input.element) || unusable(input.segment) || input.element === input.segment)
    return profile.output;
  return input;
}

/** One interchange from the vendor to us: the vendor's identity (its test one in test mode), one group. */
export function envelope(
  profile: TradingProfile,
  delimiters: Delimiters,
  now: Date,
  control: number,
  functionalId: string,
  type: "855" | "856" | "810" | "846" | "865",
  transactions: TransactionData[],
): string {
  const { date6, date8, time } = x12DateTime(now);
  const version = profile.documents[type].version;
  return writeInterchange({
    delimiters,
    sender: profile.receiver,
    receiver: profile.sender,
    date: date6,
    time,
    controlNumber: control,
    version: version.startsWith("00501") ? "00501" : "00401",
    usage: profile.usage,
    lineBreak: "\n",
    groups: [
      { functionalId, sender: profile.receiver.id, receiver: profile.sender.id, date: date8, time, controlNumber: String(control), version, transactions },
    ],
  }).text;
}

const setControl = (n: number) => String(n).padStart(4, "0");

/** 997_DS01_20261121143005_1234.edi; the extension is the first the vendor's regex_format accepts. */
export function fileNameFor(type: string, vendor: DemoVendor, profile: TradingProfile, now: Date, n: number): string {
  const stamp = now.toISOString().slice(0, 19).replace(/\D/g, "");
  const stem = `${type}_${storeCode(vendor)}_${stamp}_${n}`;
  const extensions = profile.format === "x12" ? ["edi", "x12", "txt"] : ["csv", "txt"];
  const accepted = extensions.find((extension) => !profile.fileNamePattern || profile.fileNamePattern.test(`${stem}.${extension}`));
  return `${stem}.${accepted ?? extensions[0]}`;
}

/** The store ID as it can go into file names and X12 values. */
const storeCode = (vendor: DemoVendor) => String(vendor.store_id).replace(/[^A-Za-z0-9-]/g, "") || String(vendor.id);

function csvFile(type: CsvDocumentType, rows: Array<Record<string, string | number | null>>): string {
  const columns = columnNames(type);
  const cell = (value: string | number | null | undefined) =>
    value === null || value === undefined ? "" : typeof value === "number" ? String(value) : neutraliseCsvValue(value);
  const body = stringify(
    rows.map((row) => columns.map((column) => cell(row[column]))),
    { record_delimiter: "\r\n", quoted_match: /^\s|\s$|[\r\n]/ },
  );
  return `${headerLine(type)}\r\n${body}`;
}

const money = (cents: number) => (Math.round(cents) / 100).toFixed(2);
const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const addDays = (date: Date, days: number) => new Date(date.getTime() + days * 86_400_000);

/** Control numbers handed out upward from a start, wrapping before ISA13's nine digits run out. */
class Counter {
  constructor(private next: number) {
    if (!Number.isSafeInteger(next) || next < 1 || next > MAX_CONTROL) this.next = 1;
  }
  peek() {
    return this.next;
  }
  /** Reserves `count` numbers and returns the first. */
  take(count: number) {
    if (this.next + count > MAX_CONTROL) this.next = 1;
    const first = this.next;
    this.next += count;
    return first;
  }
  skipTo(next: number) {
    this.next = next > MAX_CONTROL ? 1 : Math.max(this.next, next);
  }
}
