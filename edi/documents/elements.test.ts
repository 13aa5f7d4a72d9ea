// Issue 16 item 5: the element table (elements.ts), applied to every document the app reads.
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readX12 } from "../x12/reader";
import { readInventoryStream } from "./846";
import { mapTransactions } from "./index";

/** One set in a valid envelope; `body` without ST/SE. */
function file(setId: string, functionalId: string, body: string[]) {
  return (
    "ISA*00*          *00*          *ZZ*A              *ZZ*B              *240510*0815*U*00401*000000001*0*P*>~" +
    `GS*${functionalId}*A*B*20240510*0815*1*X*004010~ST*${setId}*0001~${body.join("~")}~SE*${body.length + 2}*0001~GE*1*1~IEA*1*000000001~`
  );
}
const codesOf = (text: string) => {
  const result = readX12(text);
  expect(result.faults).toEqual([]);
  return mapTransactions(result)
    .flatMap((d) => d.mapped?.faults ?? [])
    .map((f) => `${f.segmentId}${String(f.element).padStart(2, "0")} AK4 ${f.ack.code}`);
};

describe("element checks: one table for every document read", () => {
  it("a control character or U+FFFD in an element is AK4 6", () => {
    expect(codesOf(file("856", "SH", ["BSN*00*SHIP\u0001*20240510*0815", "HL*1**S"]))).toEqual(["BSN02 AK4 6"]);
    expect(codesOf(file("810", "IN", ["BIG*20240510*INV\ufffd1"]))).toEqual(["BIG02 AK4 6"]);
    expect(codesOf(file("855", "PR", ["BAK*00*AC*PO1*20240510", "N1*ST*JANE\tDOE"]))).toEqual(["N102 AK4 6"]);
  });
  it("an element longer than its maximum is AK4 5 (R counts digits only)", () => {
    expect(codesOf(file("850", "PO", ["BEG*00*DS*" + "P".repeat(23) + "**20240510"]))).toEqual(["BEG03 AK4 5"]);
    expect(codesOf(file("856", "SH", ["BSN*00*S1*20240510*0815", "HL*1**S", "REF*CN*" + "1".repeat(51)]))).toEqual(["REF02 AK4 5"]);
    // SN102 is R 1/10: "-12345.67890" has 10 digits, within its maximum.
    expect(codesOf(file("856", "SH", ["BSN*00*S1*20240510*0815", "HL*1**S", "HL*2*1*O", "HL*3*2*I", "LIN**SK*A", "SN1**12345.67890*EA"]))).toEqual([]);
  });
  it("a missing mandatory element is AK4 1", () => {
    expect(codesOf(file("810", "IN", ["BIG*20240510*INV1", "IT1*1*2*EA*1.5", "TDS*"]))).toEqual(["TDS01 AK4 1"]);
    expect(codesOf(file("856", "SH", ["BSN*00*S1*20240510*0815", "HL*1"]))).toEqual(["HL03 AK4 1"]);
  });
  it("the 846 stream applies the same table", async () => {
    const text = file("846", "IB", ["BIA*00*MM*INV1*20240510", "LIN**SK*A\u0007", "QTY*33*5*EA"]);
    const streamed = await readInventoryStream(Readable.from([Buffer.from(text)]), () => {});
    expect(streamed.faults.map((f) => `${f.segmentId}${String(f.element).padStart(2, "0")} AK4 ${f.ack.code}`)).toEqual(["LIN03 AK4 6"]);
    expect(codesOf(text)).toEqual(["LIN03 AK4 6"]);
  });
});
