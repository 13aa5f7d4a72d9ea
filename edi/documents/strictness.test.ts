// A vendor's strictness (D219): lenient applies a set whose only faults are a
// length or a code in an element the app does not use, answered AK5 E with the
// AK4 notes; strict refuses it as before. Small synthetic files shaped like the
// real ones of the issue (an 856 with the state written out in N402, an 846
// with a five-character unit in QTY03).
import { describe, expect, it } from "vitest";
import { isaSegment } from "../../tests/support/x12-interchange";
import { describeFault } from "../x12/faults";
import { readX12 } from "../x12/reader";
import { ack997Interchange } from "./997";
import { mapTransactions } from "./index";
import { documentFaults, judgeFaults, type EdiStrictness } from "./strictness";

/** One interchange of one group holding one set of `segments` (ST and SE added, SE01 counted). */
function interchange(functionalId: string, setId: string, segments: string[]) {
  const set = [`ST*${setId}*0001`, ...segments, `SE*${segments.length + 2}*0001`];
  return [isaSegment(), `GS*${functionalId}*VENDOR*SHOP*20240501*1200*7*X*004010`, ...set, "GE*1*7", "IEA*1*000000001"].join("~") + "~";
}

const shipNotice = (state: string, shipped = "2") =>
  interchange("SH", "856", [
    "BSN*00*SHIP1*20240501*1200",
    "HL*1**S",
    "TD5**2*UPSN",
    "REF*CN*1Z9999999999999999",
    "N1*ST*Jane Doe",
    `N4*Springfield*${state}*62701*US`,
    "HL*2*1*O",
    "PRF*PO123",
    "HL*3*2*I",
    "LIN**SK*SKU-1",
    `SN1**${shipped}*EA`,
    "CTT*3",
  ]);

const stockAdvice = (unit: string) => interchange("IB", "846", ["BIA*00*DD*INV1*20240501", "LIN**SK*SKU-1", `QTY*33*5*${unit}`, "CTT*1"]);

function judge(text: string, strictness: EdiStrictness) {
  const result = readX12(text);
  const documents = mapTransactions(result);
  const judged = judgeFaults(result, documentFaults(result, documents), strictness);
  const ack = ack997Interchange(result, { extraFaults: judged.content, controlNumbers: { interchange: 1, group: 1, transaction: 1 } });
  return { result, documents, judged, ack, set: ack.acknowledgements[0].transactions[0] };
}

describe("EDI strictness per vendor (D219)", () => {
  it("applies an 856 whose N402 is 'Illinois' under lenient, answered AK5 E with its AK4; strict refuses it", () => {
    const lenient = judge(shipNotice("Illinois"), "lenient");
    expect(lenient.result.faults).toEqual([]);
    expect(lenient.judged.refusing).toEqual([]);
    expect(lenient.judged.noted.map(describeFault)).toEqual(["segment 9 (N4): N402 is longer than its maximum of 2: 8 characters [AK4 5]"]);
    expect(lenient.set).toMatchObject({
      statusCode: "E",
      errors: [{ segmentId: "N4", position: 7, elements: [{ position: 2, code: "5", value: "Illinois" }] }],
    });
    expect(lenient.ack.text).toContain("AK3*N4*7**8~AK4*2**5*Illinois~AK5*E~AK9*E*1*1*1~");

    const strict = judge(shipNotice("Illinois"), "strict");
    expect(strict.judged.refusing.map(describeFault)).toEqual(["segment 9 (N4): N402 is longer than its maximum of 2: 8 characters [AK4 5]"]);
    expect(strict.judged.noted).toEqual([]);
    expect(strict.ack.text).toContain("AK4*2**5*Illinois~AK5*R*5~AK9*R*1*1*0~");
  });

  it("applies an 846 whose QTY03 has 5 characters under lenient; strict refuses it", () => {
    const lenient = judge(stockAdvice("EACHS"), "lenient");
    expect(lenient.judged.refusing).toEqual([]);
    expect(lenient.ack.text).toContain("AK3*QTY*4**8~AK4*3**5*EACHS~AK5*E~AK9*E*1*1*1~");
    expect(judge(stockAdvice("EACHS"), "strict").ack.text).toContain("AK5*R*5~AK9*R*1*1*0~");
  });

  it("refuses a fault in an element the app applies even under lenient (SN102, the shipped quantity)", () => {
    const lenient = judge(shipNotice("IL", "12345678901"), "lenient");
    expect(lenient.judged.refusing.map(describeFault)).toEqual(["segment 14 (SN1): SN102 is longer than its maximum of 10: 11 characters [AK4 5]"]);
    expect(lenient.set.statusCode).toBe("R");
  });

  it("a clean file is the same under both", () => {
    for (const strictness of ["strict", "lenient"] as const) {
      const { judged, ack } = judge(shipNotice("IL"), strictness);
      expect(judged).toMatchObject({ refusing: [], noted: [] });
      expect(ack.text).toContain("AK5*A~AK9*A*1*1*1~");
    }
  });
});
