// What an X12 file may get slightly wrong without losing its sets (D215–D218):
// a repeated ST02 within a group or GS06 within an interchange is noted (AK5 23,
// AK9 19, accepted with errors), a Ctrl-Z after the last IEA is tolerated and
// named, control characters are never printed raw. And a 997 never accepts a
// set whose interchange or group a refusing envelope fault set aside (D217).
import { describe, expect, it } from "vitest";
import { isaSegment } from "../../tests/support/x12-interchange";
import { ack997Interchange } from "../documents/997";
import { planTa1 } from "../documents/ta1";
import { describeFault } from "./faults";
import { readX12 } from "./reader";

const set = (control: string) => [`ST*856*${control}`, "BSN*00*SHIP1*20240501*1200", `SE*3*${control}`];
const group = (control: string, sets: string[][], date = "20240501") => [
  `GS*SH*VENDOR*SHOP*${date}*1200*${control}*X*004010`,
  ...sets.flat(),
  `GE*${sets.length}*${control}`,
];
const file = (groups: string[][], iea = `IEA*${groups.length}*000000001`, isa = isaSegment()) => [isa, ...groups.flat(), iea].join("~") + "~";
const ack = (text: string) => ack997Interchange(readX12(text), { controlNumbers: { interchange: 1, group: 1, transaction: 1 } });

describe("duplicate control numbers are noted, not refused (D216)", () => {
  it("a repeated ST02 in a group: both sets read, the second answered AK5 E 23, the group AK9 E", () => {
    const text = file([group("7", [set("0001"), set("0001")])]);
    const result = readX12(text);
    expect(result.faults).toEqual([]);
    expect(result.warnings.map(describeFault)).toEqual([
      'segment 6 (ST): ST02 "0001" is used by an earlier transaction set of group "7"; noted, the set is still read [AK5 23]',
    ]);
    expect(ack(text).text).toContain("AK2*856*0001~AK5*A~AK2*856*0001~AK5*E*23~AK9*E*2*2*2~");
  });

  it("a repeated GS06 in an interchange: both groups read, the second answered AK9 E 19", () => {
    const text = file([group("7", [set("0001")]), group("7", [set("0002")])]);
    const result = readX12(text);
    expect(result.faults).toEqual([]);
    expect(result.warnings.map(describeFault)).toEqual([
      'segment 7 (GS): GS06 "7" is used by an earlier functional group of interchange "000000001"; noted, the group is still read [AK9 19]',
    ]);
    const { text: answer, acknowledgements } = ack(text);
    expect(acknowledgements.map((each) => each.statusCode)).toEqual(["A", "E"]);
    expect(answer).toContain("AK9*E*1*1*1*19~");
  });

  it("the same numbers in different groups or interchanges are not repeats", () => {
    const text = file([group("7", [set("0001")]), group("8", [set("0001")])]) + file([group("7", [set("0001")])]);
    expect(readX12(text).warnings).toEqual([]);
  });
});

describe("control characters (D218)", () => {
  it("tolerates a Ctrl-Z after the last IEA, and names it", () => {
    const text = file([group("7", [set("0001")])]) + "\x1a";
    const result = readX12(text);
    expect(result.faults).toEqual([]);
    expect(result.warnings.map(describeFault)).toEqual(["segment 8 (?): <SUB> after the last IEA: an end-of-file mark (Ctrl-Z is 0x1A), ignored [TA1 024]"]);
    expect(ack(text).text).toContain("AK5*A~AK9*A*1*1*1~");
    expect(planTa1(result)).toEqual([]);
  });

  it("names a control character in a refused file's message, never prints it raw", () => {
    const result = readX12(file([group("7", [set("0001")])]) + "\x1aJUNK\x00");
    const lines = result.faults.map(describeFault);
    expect(lines).toEqual(["segment 8 (<SUB>JU): <SUB>JU outside an interchange (no ISA before it) [TA1 022]"]);
    // eslint-disable-next-line no-control-regex -- what must not be there
    expect(lines.join("")).not.toMatch(/[\u0000-\u001f]/);
  });
});

describe("a 997 never accepts a set that was not applied (D217)", () => {
  it("IEA02 not matching ISA13: the interchange is refused, its sets AK5 R and the group AK9 R", () => {
    const text = file([group("7", [set("0001")])], "IEA*1*000000099");
    const result = readX12(text);
    expect(result.faults.map(describeFault)).toEqual(['segment 7 (IEA): IEA02 "000000099" does not match ISA13 "000000001" [TA1 001]']);
    expect(ack(text).text).toContain("AK2*856*0001~AK5*R~AK9*R*1*1*0~");
  });

  it("IEA01 counting the groups wrong, or a bad GS04: rejected, never AK9 A", () => {
    expect(ack(file([group("7", [set("0001")])], "IEA*2*000000001")).text).toContain("AK5*R~AK9*R*1*1*0~");
    expect(ack(file([group("7", [set("0001")], "2024BAD1")])).text).toContain("AK5*R~AK9*R*1*1*0~");
  });

  it("an ISA element of the wrong width (ISA06 of 14 characters): the sets are rejected, never accepted", () => {
    const text = file([group("7", [set("0001")])], undefined, isaSegment({ sender: "VENDOR        " }));
    expect(readX12(text).faults.map((fault) => fault.ack)).toEqual([{ segment: "TA1", code: "006" }]);
    expect(ack(text).text).toContain("AK5*R~AK9*R*1*1*0~");
  });

  it("GE02 not matching GS06: the group's sets are rejected with it", () => {
    const text = [isaSegment(), "GS*SH*VENDOR*SHOP*20240501*1200*7*X*004010", ...set("0001"), "GE*1*8", "IEA*1*000000001"].join("~") + "~";
    expect(ack(text).text).toContain("AK5*R~AK9*R*1*1*0*4~");
  });
});
