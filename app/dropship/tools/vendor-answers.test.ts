// The made-up vendor answers (Vendor Testing, the demo vendor) must read back through the app's own parsers
// without a fault: X12 strictly, CSV without row errors, each file recognised
// as the document it is and picked up by the vendor's regex_format.
import { describe, expect, it } from "vitest";
import { readAcknowledgementCsv, readInventoryCsv, readInvoiceCsv, readShipNoticeCsv } from "@edi/csv";
import { recogniseCsvFile, type CsvRecognitionVendor } from "@edi/csv";
import { writePurchaseOrderCsv } from "@edi/csv";
import { mapTransactions, type LocatedDocument, type MappedDocument } from "@edi/documents";
import { build850, type DropShipOrderRequest } from "@edi/documents";
import { build997 } from "@edi/documents";
import { recogniseIncomingFile } from "@edi/incoming";
import { tradingProfile } from "@edi/vendor-profile";
import { readX12 } from "@edi/x12";
import { writeInterchange } from "@edi/x12";
import {
  answerPurchaseOrderFile,
  fedexTrackingNumber,
  inventoryAdvice,
  upsCheckDigit,
  upsTrackingNumber,
  uspsTrackingNumber,
  vendorEdiFields,
  type DemoVendor,
  type OutFile,
  type PurchaseOrderAnswer,
} from "./vendor-answers";

const NOW = new Date("2026-11-21T14:30:05Z");
const OURS = { qualifier: "ZZ", id: "HOUSEROPS" };

/** A vendor row as the seed writes it (Prisma field names). */
function seedVendor(overrides: Partial<DemoVendor> = {}): DemoVendor {
  const edi = (overrides.edi_format ?? 1) === 1;
  return {
    id: 7,
    name: "Acme Outdoor",
    store_id: "DS01",
    enabled: 1,
    test_mode: 0,
    edi_identifier: "ACMEEDI",
    edi_qualifier: "ZZ",
    test_identifier: "ACMETEST",
    test_qualifier: "ZZ",
    input_segmenter: "~",
    input_delimiter: "*",
    output_segmenter: "~",
    output_delimiter: "*",
    edi_format: 1,
    regex_format: edi ? "\\.(edi|x12|txt)$" : "\\.csv$",
    edi856_file_contents_regex: edi ? null : "tracking_number",
    edi997_enabled: edi ? 1 : 0,
    edi846_enabled: 1,
    edi810_enabled: 1,
    ...overrides,
  };
}

/** Seeded chance, so each answer is reproducible. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const order = (poNumber: string, lines: Array<[string, number, string?]>): DropShipOrderRequest => ({
  poNumber,
  orderNumber: `#${poNumber.slice(2)}`,
  date: new Date("2026-11-20T00:00:00Z"),
  shipTo: { name: "Ann O'Neil", address1: "12 Main St", city: "Albany", state: "NY", zip: "01234", country: "US" },
  contact: { name: "Ann O'Neil", phone: "518-555-0100" },
  lines: lines.map(([sku, quantity, vendorSku], i) => ({ lineNumber: i + 1, sku, quantity, vendorSku, unitPrice: 10 + i })),
});

/** Our 850 interchange, as the app sends it: one group, one set per PO. */
function our850(orders: DropShipOrderRequest[], vendor = { qualifier: "ZZ", id: "ACMEEDI" }, groupControl = "4711") {
  return writeInterchange({
    delimiters: { element: "*", segment: "~", component: ">" },
    sender: OURS,
    receiver: vendor,
    date: "261121",
    time: "1400",
    controlNumber: 4711,
    groups: [
      {
        functionalId: "PO",
        sender: OURS.id,
        receiver: vendor.id,
        date: "20261121",
        time: "1400",
        controlNumber: groupControl,
        transactions: orders.map((each, i) => build850(each, String(100 + i).padStart(4, "0"))),
      },
    ],
  }).text;
}

/** Reads a file strictly: no fault, no warning anywhere. */
function readStrict(file: OutFile) {
  const read = readX12(file.content);
  expect(read.faults).toEqual([]);
  expect(read.warnings).toEqual([]);
  const documents = mapTransactions(read);
  for (const located of documents) {
    expect(located.mapped).not.toBeNull();
    expect(located.mapped!.faults).toEqual([]);
    expect(located.mapped!.warnings).toEqual([]);
  }
  return { read, documents };
}

type DocumentOf<T extends MappedDocument["type"]> = Extract<MappedDocument, { type: T }>["document"];

function documentsOf<T extends MappedDocument["type"]>(documents: LocatedDocument[], type: T): DocumentOf<T>[] {
  return documents.filter((each) => each.mapped?.type === type).map((each) => each.mapped!.document as DocumentOf<T>);
}

function answer(vendor: DemoVendor, content: string | Buffer, start = 500, random = seeded(1)): PurchaseOrderAnswer {
  const result = answerPurchaseOrderFile(vendor, "850_DS01_20261121140000_4711.edi", Buffer.from(content), {
    now: NOW,
    controlNumberStart: start,
    random,
    ours: OURS,
  });
  if ("error" in result) throw new Error(result.error);
  return result;
}

function expectRecognised(vendor: DemoVendor, file: OutFile, type: string) {
  const fields = vendorEdiFields(vendor);
  const { profile } = tradingProfile(fields, OURS);
  const recognition = recogniseIncomingFile(file.name, file.content, fields, profile);
  expect(recognition, file.name).toMatchObject({ accept: true, type });
}

describe("an X12 vendor's answers", () => {
  const vendor = seedVendor();
  const orders = [
    order("PO100045001-1", [
      ["SKU-10001", 2, "AC-100"],
      ["SKU-10002", 1],
    ]),
    order("PO100045002-1", [["SKU-20001", 3, "AC-200"]]),
  ];
  const sent = our850(orders);

  it("acknowledges the group at once with a 997 naming its GS06, and every line with an 855", () => {
    const result = answer(vendor, sent);
    expect(result.purchaseOrders).toEqual(["PO100045001-1", "PO100045002-1"]);
    expect(result.problems).toEqual([]);
    expect(result.immediate.map((file) => file.name)).toEqual(["997_DS01_20261121143005_500.edi", "855_DS01_20261121143005_501.edi"]);

    const ack = readStrict(result.immediate[0]);
    const [functionalAck] = documentsOf(ack.documents, "997");
    expect(functionalAck.groups).toHaveLength(1);
    expect(functionalAck.groups[0]).toMatchObject({
      functionalId: "PO",
      controlNumber: "4711",
      status: "accepted",
      counts: { included: 2, received: 2, accepted: 2 },
    });
    expect(functionalAck.groups[0].transactions.map((set) => [set.setId, set.controlNumber, set.statusCode])).toEqual([
      ["850", "0100", "A"],
      ["850", "0101", "A"],
    ]);
    // From the vendor to us.
    expect(ack.read.interchanges[0].sender).toEqual({ qualifier: "ZZ", id: "ACMEEDI" });
    expect(ack.read.interchanges[0].receiver).toEqual(OURS);
    expect(ack.read.interchanges[0].usage).toBe("P");

    const acks = documentsOf(readStrict(result.immediate[1]).documents, "855");
    expect(acks.map((each) => each.poNumber)).toEqual(["PO100045001-1", "PO100045002-1"]);
    expect(acks[0].poDate).toBe("2026-11-20");
    expect(acks[0].lines.map((line) => [line.lineNumber, line.skus, line.quantity, line.status])).toEqual([
      ["1", { VP: "AC-100", SK: "SKU-10001" }, 2, "accepted"],
      ["2", { SK: "SKU-10002" }, 1, "accepted"],
    ]);
    for (const file of result.immediate) expectRecognised(vendor, file, file.name.slice(0, 3));
  });

  it("ships every PO later with a tracking number and carrier, and invoices it", () => {
    const result = answer(vendor, sent);
    expect(result.later.map((file) => file.name.slice(0, 3))).toEqual(["856", "810", "856", "810"]);
    const notices = result.later.filter((file) => file.name.startsWith("856")).map((file) => documentsOf(readStrict(file).documents, "856")[0]);
    expect(notices.map((notice) => notice.orders.map((each) => each.poNumber))).toEqual([["PO100045001-1"], ["PO100045002-1"]]);
    for (const notice of notices) {
      expect(["UPSN", "FDEG", "USPS"]).toContain(notice.carrier?.scac);
      expect(notice.carrier?.routing).toMatch(/UPS|FEDEX|USPS/);
      const [tracking] = notice.orders[0].items[0].trackingNumbers;
      expect(tracking).toMatch({ UPSN: /^1Z[0-9A-Z]{16}$/, FDEG: /^\d{12}$/, USPS: /^\d{22}$/ }[notice.carrier!.scac!]!);
    }
    expect(notices[0].orders[0].items.map((item) => [item.skus, item.quantity])).toEqual([
      [{ VP: "AC-100", SK: "SKU-10001" }, 2],
      [{ SK: "SKU-10002" }, 1],
    ]);

    const invoices = result.later.filter((file) => file.name.startsWith("810")).map((file) => documentsOf(readStrict(file).documents, "810")[0]);
    expect(invoices.map((each) => each.poNumber)).toEqual(["PO100045001-1", "PO100045002-1"]);
    const freight = invoices[0].charges.reduce((sum, charge) => sum + (charge.amountCents ?? 0), 0);
    expect(invoices[0].totalCents).toBe(2 * 1000 + 1 * 1100 + freight); // invoiced at the PO's prices
    for (const file of result.later) expectRecognised(vendor, file, file.name.slice(0, 3));
  });

  it("uses control numbers upward from the start, never twice, and says the next", () => {
    const result = answer(vendor, sent, 900);
    const numbers = [...result.immediate, ...result.later].map((file) => {
      const { interchanges } = readX12(file.content);
      return { isa: Number(interchanges[0].controlNumber), gs: Number(interchanges[0].groups[0].controlNumber) };
    });
    expect(numbers.map((each) => each.isa)).toEqual([900, 901, 903, 904, 905, 906]);
    expect(numbers.every((each) => each.gs === each.isa)).toBe(true);
    expect(result.nextControlNumber).toBe(907);
  });

  it("backorders a line now and then, with a date, the same way for the same chance", () => {
    const runs = Array.from({ length: 40 }, (_, seed) => answer(vendor, sent, 1, seeded(seed)));
    const backordered = runs.flatMap((run) =>
      documentsOf(readStrict(run.immediate[1]).documents, "855").flatMap((ack) => ack.lines.filter((line) => line.status === "backordered")),
    );
    expect(backordered.length).toBeGreaterThan(0);
    expect(backordered.length).toBeLessThan(40);
    for (const line of backordered) expect(line.acks[0]).toMatchObject({ code: "IB", dateQualifier: "068", date: expect.stringMatching(/^2026-12-/) });
    expect(answer(vendor, sent, 1, seeded(3))).toEqual(answer(vendor, sent, 1, seeded(3)));
  });

  it("leaves out the 997 and the 810 when the vendor has them disabled", () => {
    const result = answer(seedVendor({ edi997_enabled: 0, edi810_enabled: 0 }), sent);
    expect(result.immediate.map((file) => file.name.slice(0, 3))).toEqual(["855"]);
    expect(result.later.map((file) => file.name.slice(0, 3))).toEqual(["856", "856"]);
  });

  it("answers in test mode with the vendor's test identity and ISA15 T, to our test identity", () => {
    const testVendor = seedVendor({ test_mode: 1 });
    const result = answerPurchaseOrderFile(testVendor, "850.edi", Buffer.from(our850(orders, { qualifier: "ZZ", id: "ACMETEST" })), {
      now: NOW,
      controlNumberStart: 1,
      random: seeded(2),
      ours: { ...OURS, testId: "HOUSETEST" },
    });
    if ("error" in result) throw new Error(result.error);
    for (const file of [...result.immediate, ...result.later]) {
      const { read } = readStrict(file);
      expect(read.interchanges[0].sender).toEqual({ qualifier: "ZZ", id: "ACMETEST" });
      expect(read.interchanges[0].receiver).toEqual({ qualifier: "ZZ", id: "HOUSETEST" });
      expect(read.interchanges[0].usage).toBe("T");
      expect(read.interchanges[0].groups[0].gs[2]).toBe("ACMETEST");
    }
  });

  it("writes with the delimiters the app expects from the vendor", () => {
    const piped = seedVendor({ input_delimiter: "|", input_segmenter: "\\n", output_delimiter: "|", output_segmenter: "\\n" });
    const result = answer(piped, sent);
    for (const file of [...result.immediate, ...result.later]) {
      expect(file.content.slice(0, 4)).toBe("ISA|");
      expect(file.content).toContain("\nGS|");
      readStrict(file);
    }
  });

  it("rejects an interchange with a fault in a 997 and answers nothing else", () => {
    const broken = sent.replace(/SE\*(\d+)\*0101/, (_, count: string) => `SE*${Number(count) + 1}*0101`);
    const result = answer(vendor, broken);
    expect(result.purchaseOrders).toEqual([]);
    expect(result.later).toEqual([]);
    expect(result.problems.join()).toMatch(/SE01/);
    const [functionalAck] = documentsOf(readStrict(result.immediate[0]).documents, "997");
    expect(functionalAck.groups[0].transactions.map((set) => set.statusCode)).toEqual(["A", "R"]);
  });

  it("does not acknowledge the app's own 997s, and refuses what is not X12", () => {
    const ack = writeInterchange({
      delimiters: { element: "*", segment: "~", component: ">" },
      sender: OURS,
      receiver: { qualifier: "ZZ", id: "ACMEEDI" },
      date: "261121",
      time: "1400",
      controlNumber: 9,
      groups: [
        {
          functionalId: "FA",
          sender: OURS.id,
          receiver: "ACMEEDI",
          date: "20261121",
          time: "1400",
          controlNumber: "9",
          transactions: [
            build997(
              {
                functionalId: "PR",
                controlNumber: "501",
                status: "accepted",
                statusCode: "A",
                errorCodes: [],
                counts: { included: 1, received: 1, accepted: 1 },
                transactions: [],
              },
              "0009",
            ),
          ],
        },
      ],
    }).text;
    expect(answer(vendor, ack)).toMatchObject({ immediate: [], later: [], purchaseOrders: [] });
    expect(answerPurchaseOrderFile(vendor, "notes.txt", Buffer.from("hello"), { now: NOW, controlNumberStart: 1 })).toMatchObject({
      error: expect.stringMatching(/notes\.txt is not an X12 file/),
    });
  });

  it("refuses to answer for a vendor whose profile is incomplete", () => {
    expect(answerPurchaseOrderFile(seedVendor({ edi_identifier: null }), "850.edi", Buffer.from(sent), { now: NOW, controlNumberStart: 1 })).toMatchObject({
      error: expect.stringMatching(/edi_identifier/),
    });
  });

  it("advises inventory in an 846, with a restock date for what is out", () => {
    const file = inventoryAdvice(
      vendor,
      [
        { sku: "SKU-10001", quantity: 14 },
        { sku: "SKU-10002", quantity: 0 },
      ],
      { now: NOW, controlNumberStart: 77, random: seeded(1), ours: OURS },
    );
    expect(file.name).toBe("846_DS01_20261121143005_77.edi");
    expect(file.nextControlNumber).toBe(78);
    const [advice] = documentsOf(readStrict(file).documents, "846");
    expect(advice.records.map((record) => [record.sku, record.quantity, record.quantityQualifier])).toEqual([
      ["SKU-10001", 14, "33"],
      ["SKU-10002", 0, "33"],
    ]);
    expect(advice.records[1].date).toMatch(/^2026-1[12]-/);
    expectRecognised(vendor, file, "846");
  });
});

describe("a CSV vendor's answers", () => {
  const vendor = seedVendor({ store_id: "DS03", edi_format: 0 });
  const orders = [
    order("PO-104233", [
      ["LMP-2201", 2, "V-88120"],
      ["=LMP-2202", 1],
    ]),
    order("PO-104234", [["RUG-0910", 1]]),
  ];
  const sent = writePurchaseOrderCsv(orders).text;
  const csvAnswer = (random = seeded(5)) => {
    const result = answerPurchaseOrderFile(vendor, "PO_DS03_20261121140000_12.csv", Buffer.from(sent), { now: NOW, controlNumberStart: 12, random });
    if ("error" in result) throw new Error(result.error);
    return result;
  };

  it("acknowledges every line at once, then ships and invoices each PO, all readable without errors", () => {
    const result = csvAnswer();
    expect(result.purchaseOrders).toEqual(["PO-104233", "PO-104234"]);
    expect(result.immediate.map((file) => file.name)).toEqual(["855_DS03_20261121143005_12.csv"]);
    expect(result.later.map((file) => file.name)).toEqual([
      "856_DS03_20261121143005_13.csv",
      "810_DS03_20261121143005_14.csv",
      "856_DS03_20261121143005_15.csv",
      "810_DS03_20261121143005_16.csv",
    ]);

    const acks = readAcknowledgementCsv(result.immediate[0].content);
    expect(acks.errors).toEqual([]);
    expect(acks.rows.map((row) => [row.poNumber, row.sku, row.quantity])).toEqual([
      ["PO-104233", "LMP-2201", 2],
      ["PO-104233", "=LMP-2202", 1],
      ["PO-104234", "RUG-0910", 1],
    ]);
    expect(result.immediate[0].content).toContain("'=LMP-2202"); // guarded for spreadsheets, read back as sent

    /** Each later file of the type, read without errors. */
    const readLater = <T>(type: string, read: (content: string) => T & { errors: unknown[] }) =>
      result.later
        .filter((file) => file.name.startsWith(type))
        .map((file) => {
          const answer = read(file.content);
          expect(answer.errors, file.name).toEqual([]);
          return answer;
        });
    const shipped = readLater("856", readShipNoticeCsv).flatMap((read) => read.rows);
    expect(shipped.map((row) => row.poNumber)).toEqual(["PO-104233", "PO-104233", "PO-104234"]);
    for (const row of shipped) expect(["UPS", "FedEx", "USPS"]).toContain(row.carrier);

    const invoices = readLater("810", readInvoiceCsv).flatMap((read) => read.invoices);
    expect(invoices.map((each) => each.poNumber)).toEqual(["PO-104233", "PO-104234"]);
    expect(invoices[0].total).toBeCloseTo(2 * 10 + 11 + invoices[0].shipping, 2);

    for (const file of [...result.immediate, ...result.later]) {
      expect(recogniseCsvFile(file.name, file.content, vendor as CsvRecognitionVendor), file.name).toMatchObject({ accept: true, type: file.name.slice(0, 3) });
    }
  });

  it("backorders with an expected date now and then", () => {
    const rows = Array.from({ length: 40 }, (_, seed) => readAcknowledgementCsv(csvAnswer(seeded(seed)).immediate[0].content).rows).flat();
    const backordered = rows.filter((row) => row.status === "backordered");
    expect(backordered.length).toBeGreaterThan(0);
    for (const row of backordered) expect(row.expectedDate).toMatch(/^2026-12-/);
  });

  it("refuses a file that is not a purchase order", () => {
    expect(answerPurchaseOrderFile(vendor, "x.csv", Buffer.from("sku,quantity\r\nA,1\r\n"), { now: NOW, controlNumberStart: 1 })).toMatchObject({
      error: expect.stringMatching(/purchase order/),
    });
  });

  it("advises inventory as CSV", () => {
    const file = inventoryAdvice(
      vendor,
      [
        { sku: "LMP-2201", quantity: 140 },
        { sku: "LMP-2202", quantity: 0 },
      ],
      { now: NOW, controlNumberStart: 3, random: seeded(1) },
    );
    const read = readInventoryCsv(file.content);
    expect(read.errors).toEqual([]);
    expect(read.rows.map((row) => [row.sku, row.quantity, row.availableDate !== null])).toEqual([
      ["LMP-2201", 140, false],
      ["LMP-2202", 0, true],
    ]);
    expect(recogniseCsvFile(file.name, file.content, vendor as CsvRecognitionVendor).type).toBe("846");
  });
});

describe("tracking numbers", () => {
  it("carry their carriers' check digits", () => {
    // UPS's own example number, 1Z999AA10123456784.
    expect(upsCheckDigit("999AA1012345678")).toBe(4);
    const random = seeded(9);
    for (let n = 0; n < 20; n++) {
      expect(upsTrackingNumber(random)).toMatch(/^1Z[0-9A-Z]{6}03\d{8}$/);
      expect(fedexTrackingNumber(random)).toMatch(/^[1-9]\d{11}$/);
      expect(uspsTrackingNumber(random)).toMatch(/^9400111899\d{12}$/);
    }
    // FedEx: weights 1, 3, 7 from the right, mod 11, mod 10.
    const fedex = fedexTrackingNumber(seeded(4));
    const sum = [...fedex.slice(0, 11)].reverse().reduce((total, char, k) => total + Number(char) * [1, 3, 7][k % 3], 0);
    expect(Number(fedex[11])).toBe((sum % 11) % 10);
  });
});
