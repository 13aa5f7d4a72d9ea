import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readX12 } from "../x12/reader";
import { allTrackingNumbers, build856, MAX_PACK_TRACKING, parse856, type Parse856Options, type ShipNotice } from "./856";
import { mapTransactions } from "./index";
import { viewTransaction } from "./types";
import { EDI_CORPUS } from "../../tests/support/edi-corpus";
import { cleanDocument, expectEverySetMapped, expectRoundTrips } from "./test-support";

const CORPUS = EDI_CORPUS;

/** An 856 body wrapped in a valid envelope. */
function parseBody(body: string[], options?: Parse856Options) {
  const text =
    "ISA*00*          *00*          *ZZ*A              *ZZ*B              *240510*0815*U*00401*000000001*0*P*>~" +
    `GS*SH*A*B*20240510*0815*1*X*004010~ST*856*0001~${body.join("~")}~SE*${body.length + 2}*0001~GE*1*1~IEA*1*000000001~`;
  const result = readX12(text);
  expect(result.faults).toEqual([]);
  return parse856(viewTransaction(result, result.interchanges[0].groups[0].transactions[0]), options);
}

describe("856 corpus files", () => {
  it("reads node-x12 856.edi: BSN, TD1/TD5, REF*BM and REF*CN, PRF, two items with the shipment's tracking number", () => {
    const shipNotices = mapTransactions(readX12(readFileSync(`${CORPUS}/856/node-x12__856.edi`))).flatMap((each) =>
      each.mapped?.type === "856" ? [each.mapped] : [],
    );
    expect(shipNotices).toHaveLength(1);
    const document = cleanDocument(shipNotices[0]);
    expect(document).toMatchObject({
      purpose: "14",
      shipmentId: "829716",
      date: "2011-12-06",
      time: "14:24:28",
      structureCode: "0002",
      shippedDate: "2011-12-06",
      carrier: { scac: "XXXX", routing: "XXXX" },
      packaging: { code: "PCS", quantity: 2, weightQualifier: "A3", weight: 60.31, weightUom: "LB" },
      billOfLading: "999999-001",
      trackingNumbers: ["5787970539"],
      references: [],
    });
    expect(document.parties.map((party) => [party.entity, party.name])).toEqual([
      ["SH", "1 EDI SOURCE"],
      ["OB", "XYZ RETAIL"],
      ["SF", "1 EDI SOURCE"],
    ]);
    expect(document.orders).toHaveLength(1);
    const [order] = document.orders;
    expect(order).toMatchObject({ poNumber: "99999817", poDate: "2011-12-05", packs: [] });
    expect(order.items).toEqual([
      {
        lineNumber: "1",
        skus: { VP: "87787D", UP: "999999310145" },
        sku: "87787D",
        vendorSku: "87787D",
        quantity: 24,
        uom: "EA",
        description: "BLUE WIDGET",
        trackingNumbers: ["5787970539"],
      },
      {
        lineNumber: "2",
        skus: { VP: "99887D", UP: "999999311746" },
        sku: "99887D",
        vendorSku: "99887D",
        quantity: 6,
        uom: "EA",
        description: "RED WIDGET",
        trackingNumbers: ["5787970539"],
      },
    ]);
  });

  it("maps every 856 of every file in 856/ without throwing", () => {
    expectEverySetMapped("856");
  });
});

describe("856 hierarchy", () => {
  // S > O > T > P > I pick-and-pack, an unpacked item, and a second order.
  const body = [
    "BSN*00*SHIP-2*20240510*0815*0001",
    "HL*1**S",
    "TD5**2*UPSN*U*UPS GROUND",
    "HL*2*1*O",
    "PRF*PO-1001***20240501",
    "N1*ST*Jane Doe",
    "N3*1 Main St",
    "N4*Springfield*IL*62701*US",
    "HL*3*2*T",
    "MAN*GM*00000000000000000011",
    "REF*CN*PRO-77",
    "HL*4*3*P",
    "MAN*GM*00000000000000000012",
    "MAN*CP*1Z999AA10123456784",
    "HL*5*4*I",
    "LIN*1*SK*TSHIRT*VP*AC-100",
    "SN1**2*EA",
    "HL*6*3*P",
    "MAN*CP*1Z999AA10123456795",
    "HL*7*6*I",
    "LIN*2*SK*MUG",
    "SN1**1*EA**3*EA**BP",
    "HL*8*2*I",
    "LIN*3*SK*CAP",
    "SN1**1*EA",
    "REF*CN*ITEM-OWN",
    "HL*9*1*O",
    "PRF*PO-1002",
    "REF*CN*ORDER-2",
    "HL*10*9*I",
    "LIN*1*SK*PEN",
    "SN1**5*EA",
    "CTT*10*9",
  ];

  it("gives each item the tracking numbers of its pack and tare, else its order's", () => {
    const document = cleanDocument(parseBody(body));
    expect(document.carrier).toEqual({ scac: "UPSN", method: "U", routing: "UPS GROUND" });
    expect(document.trackingNumbers).toEqual([]);
    expect(document.orders.map((order) => order.poNumber)).toEqual(["PO-1001", "PO-1002"]);
    const [first, second] = document.orders;
    expect(first.parties[0]).toMatchObject({ entity: "ST", name: "Jane Doe", city: "Springfield" });
    expect(first.packs).toEqual([
      { level: "T", trackingNumbers: ["PRO-77"], marks: [{ qualifier: "GM", value: "00000000000000000011" }] },
      { level: "P", trackingNumbers: ["PRO-77", "1Z999AA10123456784"], marks: [{ qualifier: "GM", value: "00000000000000000012" }] },
      { level: "P", trackingNumbers: ["PRO-77", "1Z999AA10123456795"], marks: [] },
    ]);
    expect(first.items.map((item) => [item.sku, item.pack, item.trackingNumbers])).toEqual([
      ["TSHIRT", 1, ["PRO-77", "1Z999AA10123456784"]],
      ["MUG", 2, ["PRO-77", "1Z999AA10123456795"]],
      ["CAP", undefined, ["ITEM-OWN"]],
    ]);
    expect(first.items[1]).toMatchObject({ quantity: 1, orderedQuantity: 3, status: "BP" });
    expect(second).toMatchObject({ trackingNumbers: ["ORDER-2"], items: [{ sku: "PEN", quantity: 5, trackingNumbers: ["ORDER-2"] }] });
    expect(allTrackingNumbers(document)).toEqual(["PRO-77", "1Z999AA10123456784", "1Z999AA10123456795", "ITEM-OWN", "ORDER-2"]);
  });

  it("reads REF*BM as a tracking number when the vendor is configured so", () => {
    const { document } = parseBody(["BSN*00*S*20240510*0815", "HL*1**S", "REF*BM*BOL-9", "HL*2*1*O", "PRF*P", "HL*3*2*I", "LIN**SK*A", "SN1**1*EA"], {
      trackingReferences: ["CN", "BM"],
    });
    expect(document.billOfLading).toBeUndefined();
    expect(document.trackingNumbers).toEqual(["BOL-9"]);
    expect(document.orders[0].items[0].trackingNumbers).toEqual(["BOL-9"]);
  });

  it("warns about an item with no order above it, a dangling parent and a wrong CTT", () => {
    const { document, warnings } = parseBody(["BSN*00*S*20240510*0815", "HL*1**S", "HL*2*7*I", "LIN**SK*A", "SN1**1*EA", "CTT*3*2"]);
    expect(document.orders).toEqual([{ trackingNumbers: [], references: [], parties: [], packs: [], items: [expect.objectContaining({ sku: "A" })] }]);
    expect(warnings.map((warning) => warning.message)).toEqual([
      'HL02 "7" names no earlier HL',
      "item HL 2 has no order (HL03 = O) level above it",
      "CTT01 says 3 hierarchical levels, the notice has 2",
      "CTT02 hash total 2 differs from the sum of the shipped quantities, 1",
    ]);
  });

  it("warns about a bad BSN date and time, naming the elements", () => {
    const { faults, warnings } = parseBody(["BSN*00*S*20241340*2561", "HL*1**S"]);
    expect(faults).toEqual([]);
    expect(warnings.map((warning) => [warning.segmentId, warning.element, warning.ack.code, warning.segmentIndex])).toEqual([
      ["BSN", 3, "8", 4],
      ["BSN", 4, "9", 4],
    ]);
  });
});

describe("build856", () => {
  const notice: ShipNotice = {
    purpose: "00",
    shipmentId: "SHIP-1",
    date: "2024-05-10",
    time: "08:15",
    structureCode: "0001",
    shippedDate: "2024-05-10",
    deliveryDate: "2024-05-14",
    carrier: { scac: "UPSN", method: "U", routing: "UPS GROUND" },
    packaging: { code: "CTN25", quantity: 2, weightQualifier: "G", weight: 3.5, weightUom: "LB" },
    billOfLading: "BOL-1",
    trackingNumbers: ["SHIPMENT-PRO"],
    references: [{ qualifier: "PK", value: "PACKLIST-1" }],
    parties: [{ entity: "SF", name: "Acme Supply", address: ["9 Dock Rd"], city: "Newark", state: "NJ", zip: "07101" }],
    orders: [
      {
        poNumber: "PO-1001",
        poDate: "2024-05-01",
        trackingNumbers: [],
        references: [{ qualifier: "CO", value: "#1001" }],
        parties: [{ entity: "ST", name: "Jane Doe", address: ["1 Main St", "Apt 4"], city: "Springfield", state: "IL", zip: "62701", country: "US" }],
        packs: [
          {
            level: "P",
            trackingNumbers: ["1ZA"],
            marks: [{ qualifier: "GM", value: "00012345600000000017" }],
            packaging: { code: "CTN25", quantity: 1, weightQualifier: "G", weight: 2, weightUom: "LB" },
          },
          { level: "P", trackingNumbers: ["1ZB"], marks: [] },
        ],
        items: [
          { lineNumber: "3", skus: { SK: "CAP" }, sku: "CAP", quantity: 1, uom: "EA", trackingNumbers: ["SHIPMENT-PRO"] },
          {
            lineNumber: "1",
            skus: { VP: "AC-100", SK: "TSHIRT" },
            sku: "TSHIRT",
            vendorSku: "AC-100",
            quantity: 2,
            uom: "EA",
            orderedQuantity: 3,
            status: "BP",
            description: "T-shirt",
            trackingNumbers: ["1ZA"],
            pack: 0,
          },
          {
            lineNumber: "2",
            skus: { SK: "MUG" },
            sku: "MUG",
            quantity: 1,
            uom: "EA",
            trackingNumbers: ["1ZB", "1ZB-EXTRA"],
            pack: 1,
            marks: [{ qualifier: "UC", value: "10012345678902" }],
          },
        ],
      },
      {
        poNumber: "PO-1002",
        trackingNumbers: ["ORDER-2"],
        references: [],
        parties: [],
        packs: [],
        items: [{ lineNumber: "1", skus: { SK: "PEN" }, sku: "PEN", quantity: 5, uom: "EA", trackingNumbers: ["ORDER-2"] }],
      },
    ],
  };

  it("round-trips through writeInterchange and readX12 with any delimiters", () => {
    expectRoundTrips(build856(notice, "0001"), "SH", parse856, notice);
  });

  it("writes each tracking number once, at the level that owns it", () => {
    const { segments } = build856(notice, "0001");
    const written = segments
      .filter((segment) => (segment[0] === "REF" && segment[1] === "CN") || (segment[0] === "MAN" && segment[1] === "CP"))
      .map((segment) => segment.join("*"));
    expect(written).toEqual(["REF*CN*SHIPMENT-PRO", "MAN*CP*1ZA", "MAN*CP*1ZB", "REF*CN*1ZB-EXTRA", "REF*CN*ORDER-2"]);
    expect(segments.filter((segment) => segment[0] === "HL").map((segment) => segment.slice(1).join(","))).toEqual([
      "1,,S",
      "2,1,O",
      "3,2,I",
      "4,2,P",
      "5,4,I",
      "6,2,P",
      "7,6,I",
      "8,1,O",
      "9,8,I",
    ]);
    expect(segments[segments.length - 1]).toEqual(["CTT", 9, "9"]);
  });
});

describe("856: hostile input is read in linear time, with the right result (issue 16, item 6b)", () => {
  it("reads 10,000 nested HL levels: the item under them gets its order and the pack tracking", async () => {
    const { nestedShipNotice } = await import("../../bench/edi/generate");
    const result = readX12(nestedShipNotice(10_000));
    expect(result.faults).toEqual([]);
    const [located] = mapTransactions(result);
    const mapped = located.mapped!;
    expect(mapped.type).toBe("856");
    const notice = mapped.document as ShipNotice;
    expect(notice.orders).toHaveLength(1);
    const [order] = notice.orders;
    expect(order.poNumber).toBe("PO1");
    expect(order.packs).toHaveLength(10_000 - 3);
    expect(order.items).toHaveLength(1);
    // MAN*CP sits at the item level, under the innermost pack.
    expect(order.items[0]).toMatchObject({ sku: "SKU-1", quantity: 1, trackingNumbers: ["1Z-TRACK"], pack: 10_000 - 4 });
  });

  it("10,000 nested packs, each with its own tracking number: each keeps the 50 nearest, and the notice says so once", async () => {
    const { nestedShipNotice } = await import("../../bench/edi/generate");
    const [located] = mapTransactions(readX12(nestedShipNotice(10_000, { trackingPerPack: true })));
    const notice = located.mapped!.document as ShipNotice;
    const [order] = notice.orders;
    expect(order.packs).toHaveLength(10_000 - 3);
    // The first packs are within the limit: every outer number, root first.
    expect(order.packs[2].trackingNumbers).toEqual(["1Z-P3", "1Z-P4", "1Z-P5"]);
    const innermost = order.packs[order.packs.length - 1].trackingNumbers;
    expect(innermost).toHaveLength(MAX_PACK_TRACKING);
    expect(innermost[innermost.length - 1]).toBe("1Z-P9999");
    expect(innermost[0]).toBe(`1Z-P${9999 - MAX_PACK_TRACKING + 1}`);
    expect(order.items[0].trackingNumbers).toEqual([...innermost, "1Z-TRACK"]);
    const notes = located.mapped!.warnings.filter((warning) => warning.message.includes("nearest"));
    expect(notes).toHaveLength(1);
    expect(notes[0].message).toContain(`more than ${MAX_PACK_TRACKING} packages`);
  });

  it("a pack-first layout (S > P > O > I) still gives the pack to the order below it", () => {
    const notice = parseBody(["BSN*00*S1*20240510*0815", "HL*1**S", "HL*2*1*P", "MAN*CP*TRK-1", "HL*3*2*O", "PRF*PO9", "HL*4*3*I", "LIN**SK*A", "SN1**1*EA"]);
    expect(notice.document.orders.map((o) => [o.poNumber, o.packs.length, o.items[0]?.trackingNumbers])).toEqual([["PO9", 1, ["TRK-1"]]]);
  });
});
