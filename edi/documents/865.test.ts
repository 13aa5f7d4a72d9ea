import { describe, expect, it } from "vitest";
import { readX12 } from "../x12/reader";
import { build865, parse865, type PurchaseOrderChangeAck, type PurchaseOrderChangeAckInput } from "./865";
import { mapTransactions } from "./index";
import { expectRoundTrips, writeAndReadSet } from "./test-support";

const input: PurchaseOrderChangeAckInput = {
  purpose: "04",
  poNumber: "PO100045001-7",
  changeNumber: "1",
  poDate: "2026-11-21",
  lines: [
    { lineNumber: "1", changeType: "DI", quantity: 2, quantityLeft: 0, sku: "SKU-10001" },
    { lineNumber: "3", changeType: "QD", quantity: 3, quantityLeft: 3, sku: "SKU-10003", acks: [{ code: "IR", quantity: 2, uom: "EA" }] },
  ],
};

const expected: PurchaseOrderChangeAck = {
  purpose: "04",
  ackType: "AT",
  status: "accepted",
  poNumber: "PO100045001-7",
  changeNumber: "1",
  poDate: "2026-11-21",
  references: [],
  parties: [],
  lines: [
    {
      lineNumber: "1",
      changeType: "DI",
      quantity: 2,
      quantityLeft: 0,
      uom: "EA",
      skus: { SK: "SKU-10001" },
      sku: "SKU-10001",
      status: "rejected",
      acks: [{ code: "ID", status: "rejected", quantity: 2, uom: "EA" }],
    },
    {
      lineNumber: "3",
      changeType: "QD",
      quantity: 3,
      quantityLeft: 3,
      uom: "EA",
      skus: { SK: "SKU-10003" },
      sku: "SKU-10003",
      status: "rejected",
      acks: [{ code: "IR", status: "rejected", quantity: 2, uom: "EA" }],
    },
  ],
  totals: { lineCount: 2, hashTotal: 5 },
};

/** One 865 in an envelope; `body` without ST/SE. */
const file = (body: string[]) =>
  "ISA*00*          *00*          *ZZ*A              *ZZ*B              *240510*0815*U*00401*000000001*0*P*>~" +
  `GS*CA*A*B*20240510*0815*1*X*004010~ST*865*0001~${body.join("~")}~SE*${body.length + 2}*0001~GE*1*1~IEA*1*000000001~`;

describe("865 purchase order change acknowledgment", () => {
  it("reads back what build865 writes, with every delimiter set (functional group CA)", () => {
    // ID (item deleted) is 'rejected' as a line status (LINE_STATUS_CODES, the 855's); cancellationAnswersFrom865 reads it as the cancellation accepted.
    expectRoundTrips(build865(input, "0001"), "CA", parse865, expected);
  });

  it("is mapped by mapTransaction as type 865", () => {
    const { text } = writeAndReadSet(build865(input, "0001"), { element: "*", segment: "~", component: ">" }, "CA");
    const [located] = mapTransactions(readX12(text));
    expect(located.mapped?.type).toBe("865");
    expect(located.mapped?.faults).toEqual([]);
  });

  it("a missing BCA03 is a fault naming the element; a missing BCA a warning naming the segment", () => {
    const [missingPo] = mapTransactions(readX12(file(["BCA*04*AT***1*20261121", "POC*1*DI*2*0*EA**SK*A", "ACK*ID*2*EA", "CTT*1"])));
    expect(missingPo.mapped?.faults.map((fault) => `${fault.segmentId}${fault.element} AK4 ${fault.ack.code}`)).toEqual(["BCA3 AK4 1"]);
    const [noBca] = mapTransactions(readX12(file(["POC*1*DI*2*0*EA**SK*A"])));
    expect(noBca.mapped?.warnings.map((warning) => warning.segmentId)).toEqual(["BCA"]);
  });

  it("notes an ACK before any POC and an unknown BCA02, and keeps reading", () => {
    const [located] = mapTransactions(readX12(file(["BCA*04*XX*PO1***20261121", "ACK*ID*2*EA", "POC*1*DI*2*0*EA**SK*A", "ACK*IA*2*EA"])));
    expect(located.mapped?.warnings.map((warning) => warning.message)).toEqual([
      'BCA02 "XX" is not an acknowledgment type code',
      "ACK before any POC: it acknowledges no line",
    ]);
    expect(located.mapped?.type === "865" && located.mapped.document.lines[0].status).toBe("accepted");
  });
});
