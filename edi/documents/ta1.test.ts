import { describe, expect, it } from "vitest";
import { readX12 } from "../x12/reader";
import { ack997Interchange } from "./997";
import { planTa1, ta1Interchanges } from "./ta1";
import { isaSegment } from "../../tests/support/x12-interchange";

const isa = (o: { element?: string; ack?: string; control?: string; sender?: string; component?: string } = {}) =>
  isaSegment({ control: "000000042", ...o }) + "~";
const group = (gs06 = "7", gs01 = "SH") => `GS*${gs01}*VENDOR*SHOP*20240501*1200*${gs06}*X*004010~ST*856*0001~BSN*00*S1*20240501*1200~SE*3*0001~GE*1*${gs06}~`;
const options = { controlNumber: 500, date: new Date("2024-05-02T08:30:00Z") };
const ta1Of = (text: string) => text.split("~").find((segment) => segment.startsWith("TA1"));

describe("TA1 (D73)", () => {
  it("answers ISA14 = 1 with TA1 A 000 beside the 997, and reads back", () => {
    const result = readX12(isa({ ack: "1" }) + group() + "IEA*1*000000042~");
    const written = ta1Interchanges(result, options);
    expect(ta1Of(written.text)).toBe("TA1*000000042*240501*1200*A*000");
    expect(written.controlNumber).toBe(501);
    const back = readX12(written.text);
    expect(back.faults).toEqual([]);
    expect(back.interchanges[0].groups).toEqual([]);
    expect(ack997Interchange(result, { controlNumbers: { interchange: 1, group: 1, transaction: 1 } }).acknowledgements).toHaveLength(1);
  });

  it("rejects an interchange whose IEA02 does not match when asked (ISA14 = 1), with note 001", () => {
    const result = readX12(isa({ ack: "1" }) + group() + "IEA*1*000000043~");
    expect(planTa1(result, options)).toMatchObject([{ code: "R", note: "001", reason: "requested" }]);
  });

  it("does not send one for an interchange fault when not asked and a 997 can carry the answer", () => {
    const result = readX12(isa() + group() + "IEA*1*000000043~");
    expect(planTa1(result, options)).toEqual([]);
  });

  it("answers with TA1 R, in our delimiters, an interchange whose component separator is its element separator (no 997)", () => {
    const text = isa({ element: "|", component: "|" }).replace(/\*/g, "|") + group().replace(/\*/g, "|") + "IEA|1|000000042~";
    const result = readX12(text);
    const written = ta1Interchanges(result, options);
    expect(ta1Of(written.text)).toMatch(/^TA1\*000000042\*240501\*1200\*R\*02[27]$/);
    expect(written.text.startsWith("ISA*00*")).toBe(true);
    expect(readX12(written.text).faults).toEqual([]);
    expect(ack997Interchange(result, { controlNumbers: { interchange: 1, group: 1, transaction: 1 } }).text).toBe("");
  });

  it("answers a group whose GS06 cannot be named in AK102 with TA1 R 024, not a 997", () => {
    const result = readX12(isa() + group("ABC") + "IEA*1*000000042~", { mode: "tolerant" });
    expect(planTa1(result, options)).toMatchObject([{ code: "R", note: "024", reason: "no_997" }]);
    expect(readX12(ta1Interchanges(result, options).text).faults).toEqual([]);
  });

  it("echoes a broken ISA13 as zeros and cleans a partner ID holding our delimiters", () => {
    const result = readX12(isa({ ack: "1", control: "00000004X", sender: "VEN~DOR*       " }).replace("VEN~DOR*", "VEN>DOR^") + group() + "IEA*1*00000004X~", {
      mode: "tolerant",
    });
    const written = ta1Interchanges(result, options);
    expect(ta1Of(written.text)).toMatch(/^TA1\*000000000\*240501\*1200\*E\*018$/);
    const back = readX12(written.text);
    expect(back.faults).toEqual([]);
    expect(back.interchanges[0].receiver.id).toBe("VEN DOR");
  });

  it("never answers an acknowledgement-only interchange unless asked, nor a TA1 with a TA1", () => {
    const fa = readX12(isa() + "GS*FA*VENDOR*SHOP*20240501*1200*9*X*004010~ST*997*0001~AK1*PO*1~AK9*A*1*1*1~SE*4*0001~GE*1*9~IEA*1*000000043~");
    expect(planTa1(fa, options)).toEqual([]);
    const ta1 = readX12(isa({ ack: "1" }) + "TA1*000000001*240501*1200*A*000~IEA*0*000000042~");
    expect(planTa1(ta1, options)).toEqual([]);
  });
});
