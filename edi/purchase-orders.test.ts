import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EDI_CORPUS } from "../tests/support/edi-corpus";
import { acmeVendorFields } from "../tests/support/edi-samples";
import { readPurchaseOrderCsv } from "./csv/read";
import { writePurchaseOrderCsv } from "./csv/write";
import { mapTransactions } from "./documents";
import type { DropShipOrderRequest } from "./documents/850";
import { onlyPurchaseOrder, purchaseOrderInterchange, type InterchangeNumbers } from "./purchase-orders";
import { tradingProfile } from "./vendor-profile";
import { readX12 } from "./x12/reader";

const NOW = new Date("2026-11-21T14:30:05Z");
const profile = tradingProfile(
  acmeVendorFields({
    test_mode: 1,
    "850_segments": "REF*IA*{vendor_store_id}\nN9*ZZ*{po_number}/{order_number}*{ship_to_name}\nDTM*004*{date}",
  }),
  { qualifier: "ZZ", id: "HOUSEROPS", testQualifier: "ZZ", testId: "HOUSEROPSTEST" },
).profile;

const order = (po: string, orderNumber: string, sku: string): DropShipOrderRequest => ({
  poNumber: po,
  orderNumber,
  date: NOW,
  vendor: { number: "DS07", name: "Acme Outdoor Supply" },
  shipTo: { name: "Pat Doe", address1: "1 Main St", city: "Springfield", state: "IL", zip: "62701", country: "US" },
  lines: [{ lineNumber: 1, sku, quantity: 2, unitPrice: 12.5 }],
});
const ORDERS = [order("PO-1001", "#1001", "SKU-A"), order("PO-1002", "#1002", "SKU-B>C")];
const NUMBERS: InterchangeNumbers = { interchange: "000000041", groups: [{ group: "42", transactions: ["0043", "0044"] }] };

describe("purchaseOrderInterchange", () => {
  it("writes one 850 interchange for the vendor: its profile's envelope, one set per order with the template filled", () => {
    const text = purchaseOrderInterchange(profile, ORDERS, NUMBERS, NOW);
    expect(text.split("\n")[0]).toBe("ISA*00*          *00*          *ZZ*HOUSEROPSTEST  *ZZ*ACMETEST       *261121*1430*U*00401*000000041*0*T*>~");
    expect(text).toContain("\nGS*PO*HOUSEROPSTEST*ACMETEST*20261121*1430*42*X*004010~\n");
    expect(text).toContain("\nST*850*0043~\nBEG*00*DS*PO-1001**20261121~\nREF*IA*DS07~\nN9*ZZ*PO-1001/#1001*Pat Doe~\nDTM*004*20261121~\n");
    expect(text.endsWith("GE*2*42~\nIEA*1*000000041~\n")).toBe(true);
    const read = readX12(Buffer.from(text));
    expect(read.faults).toEqual([]);
    const documents = mapTransactions(read);
    expect(documents.map((each) => [each.controlNumber, each.mapped?.type === "850" && each.mapped.document.poNumber])).toEqual([
      ["0043", "PO-1001"],
      ["0044", "PO-1002"],
    ]);
  });
});

describe("onlyPurchaseOrder", () => {
  it("cuts one PO out of our 850 interchange: the same bytes as the interchange built for that PO alone", () => {
    const both = Buffer.from(purchaseOrderInterchange(profile, ORDERS, NUMBERS, NOW));
    const alone = purchaseOrderInterchange(profile, [ORDERS[1]], { interchange: "000000041", groups: [{ group: "42", transactions: ["0044"] }] }, NOW);
    expect(onlyPurchaseOrder(both, "PO-1002", "x12")?.toString()).toBe(alone);
    expect(onlyPurchaseOrder(both, "PO-9999", "x12")).toBeNull();
  });

  it("cuts the PO out of a corpus 850 with its envelope's IDs and control numbers, and the set reads back the same", () => {
    const content = readFileSync(`${EDI_CORPUS}/850/node-x12__850_fat.edi`);
    const original = readX12(content, { mode: "tolerant" });
    const cut = onlyPurchaseOrder(content, "08292233294", "x12")!;
    const read = readX12(cut, { mode: "tolerant" });
    expect(read.interchanges).toHaveLength(1);
    const [interchange] = read.interchanges;
    expect(interchange).toMatchObject({
      controlNumber: "000003438",
      sender: { qualifier: "12", id: "4405197800" },
      receiver: { qualifier: "01", id: "999999999" },
      date: "101127",
      time: "1719",
      usage: "P",
    });
    expect(
      interchange.groups.map((group) => [group.functionalId, group.controlNumber, group.version, group.transactions.map((set) => set.controlNumber)]),
    ).toEqual([["PO", "1421", "004010VICS", ["000000010"]]]);
    const [first] = mapTransactions(original);
    const [only] = mapTransactions(read);
    expect(only.mapped?.document).toEqual(first.mapped?.document);
    expect(onlyPurchaseOrder(content, "PO-9999", "x12")).toBeNull();
  });

  it("keeps only that PO's rows of a purchase-order CSV", () => {
    const csv = (orders: DropShipOrderRequest[]) =>
      writePurchaseOrderCsv(
        orders.map(({ poNumber, orderNumber, date, shipTo, lines }) => ({
          poNumber,
          orderNumber,
          date,
          shipTo,
          lines: lines.map((line) => ({ ...line, unitPrice: line.unitPrice ?? null })),
        })),
      ).text;
    const cut = onlyPurchaseOrder(Buffer.from(csv(ORDERS)), "PO-1001", "csv")!;
    expect(cut.toString()).toBe(csv([ORDERS[0]]));
    expect(readPurchaseOrderCsv(cut).orders.map((each) => each.poNumber)).toEqual(["PO-1001"]);
    expect(onlyPurchaseOrder(Buffer.from(csv(ORDERS)), "PO-9999", "csv")).toBeNull();
  });
});
