import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readX12 } from "../x12/reader";
import { writeInterchange, type TransactionData } from "../x12/writer";
import { parse850 } from "./850";
import { ack997Interchange, acknowledgeGroup, build997, buildAck997, parse997, type AckGroup } from "./997";
import { mapTransaction, mapTransactions } from "./index";
import { viewTransaction } from "./types";
import { EDI_CORPUS } from "../../tests/support/edi-corpus";
import { cleanDocument, expectEverySetMapped } from "./test-support";
import { isaSegment } from "../../tests/support/x12-interchange";

const CORPUS = EDI_CORPUS;
const readFile = (path: string, mode: "strict" | "tolerant" = "tolerant") => readX12(readFileSync(`${CORPUS}/${path}`), { mode });
const acks = (path: string) => mapTransactions(readFile(path)).flatMap((each) => (each.mapped?.type === "997" ? [each.mapped] : []));

/** A 997 set, written in an interchange, read back and parsed. */
function writeAndParse(transaction: TransactionData, version = "004010") {
  const { text } = writeInterchange({
    delimiters: { element: "*", segment: "~", component: ":", repetition: "^" },
    sender: { qualifier: "ZZ", id: "MERCHANT" },
    receiver: { qualifier: "ZZ", id: "VENDOR" },
    date: "240501",
    time: "1200",
    controlNumber: 5,
    version: version.startsWith("00501") ? "00501" : "00401",
    groups: [
      { functionalId: "FA", sender: "MERCHANT", receiver: "VENDOR", date: "20240501", time: "1200", controlNumber: "5", version, transactions: [transaction] },
    ],
  });
  const result = readX12(text);
  expect(result.faults).toEqual([]);
  return { text, parsed: parse997(viewTransaction(result, result.interchanges[0].groups[0].transactions[0])) };
}

const body = (transaction: TransactionData) =>
  transaction.segments.map((segment) =>
    segment
      .map((value) => (Array.isArray(value) ? value.join(":") : (value ?? "")))
      .join("*")
      .replace(/\**$/, ""),
  );

describe("parse997 on the corpus", () => {
  it("reads simple997.edi: a rejected 837 with its AK3/AK4 detail", () => {
    const document = cleanDocument(acks("997/staedi__simple997.edi")[0]);
    expect(document).toEqual({
      groups: [
        {
          functionalId: "HC",
          controlNumber: "000001",
          status: "rejected",
          statusCode: "R",
          errorCodes: [],
          counts: { included: 1, received: 1, accepted: 0 },
          transactions: [
            {
              setId: "837",
              controlNumber: "0021",
              status: "rejected",
              statusCode: "R",
              errorCodes: ["5"],
              errors: [{ segmentId: "NM1", position: 8, code: "8", elements: [{ position: 8, reference: "66", code: "7", value: "MI" }] }],
            },
          ],
        },
      ],
    });
  });

  it("reads extraDelimiter997.edi (repetitions in AK302/AK304, composites in AK404) without faults", () => {
    const document = cleanDocument(acks("997/staedi__extraDelimiter997.edi")[0]);
    const [error] = document.groups[0].transactions[0].errors;
    expect(error).toEqual({
      segmentId: "NM1",
      code: "AK304-R1^AK304-R2^AK304-R3",
      elements: [{ position: 8, reference: "66", code: "7", value: "AK404-R1-COMP1:AK404-R1-COMP2:AK404-R1-COMP3^AK404-R2-COMP1:AK404-R2-COMP2" }],
    });
  });

  it("faults invalid997.edi: AK101 outside the code list (AK4 7), AK402 not numeric (AK4 6)", () => {
    const [{ faults, warnings }] = acks("997/staedi__invalid997.edi");
    expect(warnings).toEqual([]);
    expect(faults).toEqual([
      {
        level: "element",
        segmentIndex: 4,
        segmentId: "AK1",
        element: 1,
        ack: { segment: "AK4", code: "7" },
        message: 'AK101 "HC NOT IN CODESET" is not a functional identifier code',
        coded: { code: "edi.fault.ak1_functional_id", params: { element: "AK101", value: '"HC NOT IN CODESET"' } },
        positionInTransaction: 2,
        interchange: 0,
        group: 0,
        transaction: 0,
      },
      {
        level: "element",
        segmentIndex: 7,
        segmentId: "AK4",
        element: 2,
        ack: { segment: "AK4", code: "6" },
        message: 'AK402 is not numeric: "66 NON NUMERIC"',
        coded: { code: "edi.fault.not_numeric", params: { element: "AK402", value: '"66 NON NUMERIC"' } },
        positionInTransaction: 5,
        interchange: 0,
        group: 0,
        transaction: 0,
      },
    ]);
  });

  it("faults invalid997_min.edi's AK101, which a strict read refuses for its envelope anyway", () => {
    expect(readFile("997/staedi__invalid997_min.edi", "strict").ok).toBe(false);
    const [{ faults }] = acks("997/staedi__invalid997_min.edi");
    expect(faults.map((fault) => [fault.segmentId, fault.element, fault.ack.code])).toEqual([["AK1", 1, "7"]]);
  });

  it("maps empty997.edi with warnings (no AK1, no AK9), not faults", () => {
    const [{ document, faults, warnings }] = acks("997/staedi__empty997.edi");
    expect(document).toEqual({ groups: [] });
    expect(faults).toEqual([]);
    expect(warnings.map((warning) => [warning.level, warning.segmentId, warning.ack.segment, warning.ack.code])).toEqual([
      ["segment", "AK1", "AK3", "3"],
      ["segment", "AK9", "AK3", "3"],
    ]);
  });

  it("reads the accepted group of optionalInterchangeServices.edi (ISB/ISE) and the three interchanges of simple997-multiple-interchanges.edi", () => {
    const [accepted] = acks("997/staedi__optionalInterchangeServices.edi");
    expect(accepted.document.groups).toEqual([
      {
        functionalId: "HC",
        controlNumber: "000001",
        status: "accepted",
        statusCode: "A",
        errorCodes: [],
        counts: { included: 1, received: 1, accepted: 1 },
        transactions: [],
      },
    ]);
    const three = acks("997/staedi__simple997-multiple-interchanges.edi");
    expect(three.map((each) => each.document.groups[0].status)).toEqual(["rejected", "rejected", "rejected"]);
  });

  it("maps every 997 of every file in 997/", () => {
    expectEverySetMapped("997");
  });
});

describe("parse997 content checks", () => {
  const parseBody = (segments: string[]) =>
    writeAndParse({
      setId: "997",
      controlNumber: "0001",
      segments: segments.map((segment) => segment.split("*").map((value) => (value.includes(":") ? value.split(":") : value))),
    }).parsed;

  it("accepts a 005010 composite AK401 and the 005010 AK403 codes", () => {
    const { faults, document } = parseBody(["AK1*PO*12", "AK2*850*0001", "AK3*PO1*3**8", "AK4*2:1*330*I12*X", "AK5*R*5", "AK9*R*1*1*0"]);
    expect(faults).toEqual([]);
    expect(document.groups[0].transactions[0].errors[0].elements).toEqual([{ position: 2, component: 1, reference: "330", code: "I12", value: "X" }]);
  });

  it("faults bad codes and numbers in AK2, AK4, AK5 and AK9", () => {
    const { faults } = parseBody(["AK1*po*12A", "AK2*85*01", "AK3*PO1*3**8", "AK4*X**11", "AK5*Q", "AK9*Z*1*one*0"]);
    expect(faults.map((fault) => `${fault.segmentId}${String(fault.element).padStart(2, "0")} ${fault.ack.code}`)).toEqual([
      "AK101 7",
      "AK102 6",
      "AK201 4",
      "AK202 4",
      "AK401 6",
      "AK403 7",
      "AK501 7",
      "AK901 7",
      "AK903 6",
    ]);
  });

  it("warns, without faulting, about a well-formed functional identifier outside the 004010 list", () => {
    const { faults, warnings } = parseBody(["AK1*Q9*1", "AK9*A*0*0*0"]);
    expect(faults).toEqual([]);
    expect(warnings.map((warning) => warning.message)).toEqual(['AK101 "Q9" is not in the 004010 functional identifier list']);
  });
});

describe("acknowledging received files", () => {
  it("answers invalid999.edi's bad SE01 with AK5*R*4 and AK9*R", () => {
    const result = readFile("999/staedi__invalid999.edi", "strict");
    expect(result.ok).toBe(false);
    const transaction = buildAck997(result, { controlNumber: "0001" });
    expect(body(transaction)).toEqual(["AK1*FA*287*005010X231", "AK2*999*2870001*005010X231", "AK5*R*4", "AK9*R*1*1*0"]);
    const { parsed } = writeAndParse(transaction, "005010");
    expect(parsed.faults).toEqual([]);
    expect(parsed.document.groups[0]).toMatchObject({
      status: "rejected",
      counts: { included: 1, received: 1, accepted: 0 },
      transactions: [{ status: "rejected", errorCodes: ["4"] }],
    });
  });

  it("answers a group whose GE02 does not match GS06 with AK9 code 4", () => {
    const group = acknowledgeGroup(readFile("997/staedi__invalid997_min.edi"));
    expect(group).toMatchObject({ functionalId: "FA", controlNumber: "000005", status: "rejected", statusCode: "R", errorCodes: ["4"] });
  });

  it("reports document faults (extraFaults) as AK3/AK4 under the set's AK2", () => {
    const text =
      "ISA*00*          *00*          *ZZ*SHOP           *ZZ*VENDOR         *240501*1200*U*00401*000000001*0*P*>~" +
      "GS*PO*SHOP*VENDOR*20240501*1200*1*X*004010~ST*850*0001~BEG*00*DS*PO-1**20240501~PO1*1*12X*EA~CTT*1~SE*5*0001~" +
      "ST*850*0002~BEG*00*DS*PO-2**20240501~PO1*1*1*EA~CTT*1~SE*5*0002~GE*2*1~IEA*1*000000001~";
    const result = readX12(text);
    const group = result.interchanges[0].groups[0];
    // A caller that wants value problems acknowledged as errors passes them on.
    const documentFaults = group.transactions.flatMap((transaction) => parse850(viewTransaction(result, transaction)).warnings);
    expect(documentFaults).toHaveLength(1);

    const transaction = buildAck997(result, { controlNumber: "0007", extraFaults: documentFaults });
    expect(body(transaction)).toEqual(["AK1*PO*1", "AK2*850*0001", "AK3*PO1*3**8", "AK4*2**6*12X", "AK5*R*5", "AK2*850*0002", "AK5*A", "AK9*P*2*2*1"]);

    const lenient = acknowledgeGroup(result, { extraFaults: documentFaults, acceptWithErrors: true });
    expect([lenient.statusCode, lenient.transactions.map((each) => each.statusCode)]).toEqual(["E", ["E", "A"]]);
    const only855 = acknowledgeGroup(result, { supportedSets: ["855"] });
    expect([only855.statusCode, only855.transactions.map((each) => each.errorCodes)]).toEqual(["R", [["1"], ["1"]]]);
  });

  it("round-trips an acknowledgement: acknowledgeGroup → build997 → writeInterchange → readX12 → parse997", () => {
    const result = readFile("999/staedi__invalid999.edi");
    const group = acknowledgeGroup(result);
    const withComponents: AckGroup = {
      ...group,
      transactions: [
        ...group.transactions,
        {
          setId: "999",
          controlNumber: "2870002",
          status: "rejected",
          statusCode: "R",
          errorCodes: ["5"],
          errors: [
            {
              segmentId: "IK3",
              position: 4,
              loop: "2000",
              code: "8",
              elements: [{ position: 2, component: 1, repetition: 2, reference: "720", code: "7", value: "Q" }],
            },
          ],
        },
      ],
      counts: { included: 2, received: 2, accepted: 0 },
    };
    const { parsed } = writeAndParse(build997(withComponents, "0001"), "005010");
    expect(parsed.faults).toEqual([]);
    expect(parsed.warnings).toEqual([]);
    expect(parsed.document).toEqual({ groups: [withComponents] });
  });

  it("answers every group of the dual 810/850 file in one 997 interchange addressed back to the sender", () => {
    const result = readFile("mixed/staedi__invoice810_po850_dual.edi", "strict");
    expect(result.ok).toBe(true);
    const written = ack997Interchange(result, { controlNumbers: { interchange: 100, group: 200, transaction: 1 }, date: new Date("2024-05-01T12:00:00Z") });
    expect(written.controlNumbers).toEqual({ interchange: 101, group: 201, transaction: 3 });
    expect(written.acknowledgements.map((each) => [each.functionalId, each.controlNumber, each.statusCode, each.counts])).toEqual([
      ["IN", "1", "A", { included: 2, received: 2, accepted: 2 }],
      ["PO", "165", "A", { included: 1, received: 1, accepted: 1 }],
    ]);
    expect(written.text).toContain(
      "*ZZ*RECEIVERISA    *ZZ*SENDERISA      *240501*1200*U*00401*000000100*0*T*>~GS*FA*007326879*SENDERDEPT*20240501*1200*200*X*004010~",
    );

    const back = readX12(written.text);
    expect(back.faults).toEqual([]);
    const mapped = back.interchanges[0].groups[0].transactions.map((transaction) => mapTransaction(back, transaction));
    expect(mapped.map((each) => each?.type === "997" && each.document.groups[0])).toEqual(written.acknowledgements);
  });

  it("answers every interchange of a multi-interchange file, each in its own 997 interchange", () => {
    const written = ack997Interchange(readFile("850/node-x12__850_fat.edi"), { controlNumbers: { interchange: 1, group: 1, transaction: 1 } });
    const back = readX12(written.text);
    expect(back.faults).toEqual([]);
    expect(back.interchanges).toHaveLength(2);
    expect(written.acknowledgements.map((each) => each.statusCode)).toEqual(["A", "A"]);
  });
});

describe("what a 997 answers, and how (D73)", () => {
  const isa = (element = "*", version = "00401", ack = "0", repetition = "U") => isaSegment({ element, version, ack, repetition }) + "~";
  const file = (groups: string[], element = "*", version = "00401", repetition = "U") =>
    (isa(element, version, "0", repetition) + groups.join("") + `IEA*${groups.length}*000000001~`).replace(/\*/g, element);
  const group = (gs01: string, gs06: string, sets: string, count = 1) => `GS*${gs01}*VENDOR*SHOP*20240501*1200*${gs06}*X*004010~${sets}GE*${count}*${gs06}~`;
  const set856 = (st02 = "0001") => `ST*856*${st02}~BSN*00*S1*20240501*1200~SE*3*${st02}~`;
  const options = { controlNumbers: { interchange: 1, group: 1, transaction: 1 }, date: new Date("2024-05-01T12:00:00Z") };

  it("never acknowledges a 997 or a 999 (FA groups), even beside another group", () => {
    const received997 = file([group("FA", "5", "ST*997*0001~AK1*PO*1~AK9*A*1*1*1~SE*4*0001~")]);
    expect(ack997Interchange(readX12(received997), options).text).toBe("");
    const mixed = file([group("FA", "5", "ST*997*0001~AK1*PO*1~AK9*A*1*1*1~SE*4*0001~"), group("SH", "6", set856())]);
    const written = ack997Interchange(readX12(mixed), options);
    expect(written.acknowledgements.map((each) => each.functionalId)).toEqual(["SH"]);
  });

  it("writes ISA11 as a repetition separator that is none of the other delimiters (partner's element separator ^)", () => {
    const text = file([group("SH", "6", set856())], "^", "00501", "|").replace("004010", "005010");
    const result = readX12(text);
    expect(result.interchanges[0].delimiters.element).toBe("^");
    const written = ack997Interchange(result, options);
    const isa11 = written.text.split("^")[11];
    expect(isa11).not.toBe("^");
    expect(isa11).toBe("|");
    expect(readX12(written.text).faults).toEqual([]);
    // Given delimiters whose repetition separator is the element separator (a vendor writing "^"): another one is chosen.
    const given = ack997Interchange(result, { ...options, delimiters: { element: "^", component: ">", segment: "~", repetition: "^" } });
    expect(given.text.split("^")[11]).toBe("|");
    expect(readX12(given.text).faults).toEqual([]);
  });

  it("does not answer a group whose GS06 cannot be AK102 (N0 1/9): AK1*PO*ABC is never written", () => {
    const result = readX12(file([group("SH", "ABC", set856())]), { mode: "tolerant" });
    expect(ack997Interchange(result, options).text).toBe("");
    expect(() => build997({ ...acknowledgeGroup(result), controlNumber: "ABC" }, "0001")).toThrow(/AK102/);
  });

  it("leaves out an AK404 copy that is over 99 characters or holds a delimiter, and an AK2 whose ST02 does not fit", () => {
    const big = "X".repeat(1_000_000);
    const text = file([
      group("SH", "6", `ST*856*0001~BSN*00*S>1*20240501*1200~SE*3*0001~ST*856*0002~BSN*00*${big}~SE*3*0002~ST*856*12345678901~SE*2*12345678901~`, 3),
    ]);
    const result = readX12(text, { mode: "tolerant" });
    const faults = [
      {
        level: "element" as const,
        segmentIndex: 4,
        segmentId: "BSN",
        element: 2,
        ack: { segment: "AK4" as const, code: "6" },
        message: "bad date",
        interchange: 0,
        group: 0,
        transaction: 0,
        positionInTransaction: 2,
      },
      {
        level: "element" as const,
        segmentIndex: 7,
        segmentId: "BSN",
        element: 2,
        ack: { segment: "AK4" as const, code: "5" },
        message: "too long",
        interchange: 0,
        group: 0,
        transaction: 1,
        positionInTransaction: 2,
      },
    ];
    const written = ack997Interchange(result, { ...options, extraFaults: faults, delimiters: { element: "*", component: ">", segment: "~", repetition: "^" } });
    expect(written.text).toContain("AK4*2**6~"); // "S>1" holds the component separator
    expect(written.text).toContain("AK4*2**5~");
    expect(written.text).not.toContain("12345678901");
    expect(written.text.length).toBeLessThan(2000);
    const back = readX12(written.text);
    expect(back.faults).toEqual([]);
    const parsed = parse997(viewTransaction(back, back.interchanges[0].groups[0].transactions[0]));
    expect(parsed.faults).toEqual([]);
    expect(parsed.document.groups[0].counts).toEqual({ included: 3, received: 3, accepted: 0 });
    expect(parsed.document.groups[0].transactions.map((each) => each.controlNumber)).toEqual(["0001", "0002"]);
  });

  it("has no AK2 for a set whose ST01 is not a set identifier, and still counts it", () => {
    const result = readX12(file([group("SH", "6", `${set856()}ST*ABC*0002~SE*2*0002~`, 2)]), { mode: "tolerant" });
    const written = ack997Interchange(result, options);
    expect(written.text).not.toContain("AK2*ABC");
    expect(written.text).toContain("AK9*P*2*2*1~");
    const back = readX12(written.text);
    expect(parse997(viewTransaction(back, back.interchanges[0].groups[0].transactions[0])).faults).toEqual([]);
  });

  it("answers 10,000 unclosed groups, each once (faults indexed by group)", () => {
    const text = isa() + Array.from({ length: 10_000 }, (_, g) => `GS*SH*VENDOR*SHOP*20240501*1200*${g + 1}*X*004010~${set856()}`).join("");
    const result = readX12(text, { mode: "tolerant" });
    const written = ack997Interchange(result, options);
    expect(written.acknowledgements).toHaveLength(10_000);
    expect(written.acknowledgements.every((each) => each.statusCode === "R" && each.errorCodes[0] === "3")).toBe(true);
    expect(readX12(written.text).faults).toEqual([]);
  });

  it("wraps its control numbers at 999999999", () => {
    const written = ack997Interchange(readX12(file([group("SH", "6", set856()), group("SH", "7", set856())])), {
      ...options,
      controlNumbers: { interchange: 999_999_999, group: 999_999_999, transaction: 999_999_998 },
    });
    expect(written.controlNumbers).toEqual({ interchange: 1, group: 1, transaction: 1 });
    expect(written.text).toContain("ST*997*999999998~");
    expect(written.text).toContain("ST*997*999999999~");
  });
});
