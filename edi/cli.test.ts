// The command line as people use it: real processes, real files.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mapTransactions } from "./documents";
import { readX12 } from "./x12/reader";
import { EDI_CORPUS } from "../tests/support/edi-corpus";

const CORPUS = EDI_CORPUS;
const work = mkdtempSync(path.join(tmpdir(), "edi-cli-"));
/** `value` as JSON in a file of the work folder: its path. */
const jsonFile = (name: string, value: unknown) => {
  const file = path.join(work, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
};
/** The interchange's sender and receiver of the build commands' JSON. */
const PARTIES = { sender: { qualifier: "ZZ", id: "US" }, receiver: { qualifier: "ZZ", id: "THEM" } };
afterAll(() => rmSync(work, { recursive: true, force: true }));

const edi = (...args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", "edi/cli.ts", ...args], { encoding: "utf8", cwd: path.resolve(__dirname, "..") });

describe("npm run edi", () => {
  it("parse prints the interchange as JSON with the mapped document, exit 0", () => {
    const run = edi("parse", path.join(CORPUS, "856/node-x12__856.edi"));
    expect(run.status).toBe(0);
    const json = JSON.parse(run.stdout);
    const transaction = json.interchanges[0].groups[0].transactions[0];
    expect(json.interchanges[0].envelope.delimiters).toMatchObject({ element: "*", segment: "~", repetition: "-" });
    expect(transaction.setId).toBe("856");
    expect(transaction.segments[0]).toEqual({ index: 3, id: "ST", elements: ["856", "0008"] });
    expect(transaction.document.trackingNumbers).toEqual(["5787970539"]);
  }, 30_000);

  it("parse prints one line per fault and exits 1 on a malformed file", () => {
    const run = edi("parse", path.join(CORPUS, "999/staedi__invalid999.edi"));
    expect(run.status).toBe(1);
    // A 999 has no reader here: refused as the app refuses it (D220), as well as its SE01.
    expect(run.stdout.trim().split("\n")).toEqual([
      'segment 3 (ST): ST01 "999" (set "2870001") is not a transaction set this app reads (810, 846, 850, 855, 856, 997): refused [AK5 1]',
      'segment 20 (SE): SE01 says "16" segments, the transaction set has 18 [AK5 4]',
    ]);
    const content = edi("parse", path.join(CORPUS, "997/staedi__invalid997.edi"));
    expect(content.status).toBe(1);
    expect(content.stdout).toContain("segment 4 (AK1): AK101");
  }, 30_000);

  it("parse --tolerant reads a file with envelope faults", () => {
    expect(edi("parse", path.join(CORPUS, "997/staedi__invalid997_min.edi")).status).toBe(1);
    expect(edi("parse", "--tolerant", path.join(CORPUS, "997/staedi__invalid997_min.edi")).status).toBe(0);
  }, 30_000);

  it("parse refuses a set no reader here maps, with the line the app logs, exit 1 (D220)", () => {
    const run = edi("parse", path.join(CORPUS, "other/staedi__ts214_ellipses_segterm.edi"));
    expect(run.status).toBe(1);
    expect(run.stdout.trim().split("\n")).toEqual([
      'segment 3 (ST): ST01 "214" (set "757760001") is not a transaction set this app reads (810, 846, 850, 855, 856, 997): refused [AK5 1]',
    ]);
    // --tolerant forgives envelope faults, not a set the app never applies.
    expect(edi("parse", "--tolerant", path.join(CORPUS, "other/pyx12__multiple_st_loops.txt")).status).toBe(1);
  }, 30_000);

  it("parse says a file that is neither X12 nor CSV is not one, exit 1 (D218)", () => {
    const pdf = path.join(work, "invoice.pdf");
    writeFileSync(pdf, Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.from([0xe2, 0xe3, 0xcf, 0xd3, 0, 1, 2, 3])]));
    const ebcdic = path.join(work, "ship.edi");
    // "ISA*00*" and a few fields in EBCDIC (code page 037), as an AS400 writes it unconverted.
    writeFileSync(ebcdic, Buffer.from("c9e2c15cf0f05c40404040404040404040405cf0f05c404040404040404040405ce9e95ce5c5d5c4d6d9".repeat(4), "hex"));
    expect(edi("parse", pdf)).toMatchObject({ status: 1, stdout: `${pdf}: not an X12 or CSV file: a PDF document\n` });
    expect(edi("parse", ebcdic)).toMatchObject({
      status: 1,
      stdout: `${ebcdic}: not an X12 or CSV file: EBCDIC text (an AS400 file not converted to ASCII?)\n`,
    });
  }, 30_000);

  it("ack answers every group, rejecting what is faulty", () => {
    // A 999 is an acknowledgement: never acknowledged (D73).
    const run = edi("ack", "--control", "77", path.join(CORPUS, "999/staedi__invalid999.edi"));
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("");

    const accepted = edi("ack", path.join(CORPUS, "mixed/staedi__invoice810_po850_dual.edi"));
    expect(accepted.status).toBe(0);
    expect(readX12(accepted.stdout).interchanges[0].groups[0].transactions).toHaveLength(2); // one 997 per group received
    expect(accepted.stdout).toContain("AK9*A*2*2*2");
  }, 30_000);

  it("build 850 writes an interchange from JSON, with the vendor's delimiters and template", () => {
    const input = jsonFile("po.json", {
      vendor: {
        edi_identifier: "ACMEEDI",
        edi_qualifier: "01",
        output_delimiter: "|",
        output_segmenter: "\\n",
        test_mode: 1,
        test_identifier: "ACMETEST",
        test_qualifier: "ZZ",
        "850_segments": "MSG*Drop ship {order_number}",
      },
      ours: { qualifier: "ZZ", id: "HOUSEROPS" },
      controlNumber: 5001,
      purchaseOrders: [
        {
          poNumber: "PO100045001-7",
          orderNumber: "100045001",
          date: "2026-11-21",
          shipTo: { name: "Jane Doe", address1: "12 Main St", city: "Chicago", state: "IL", zip: "60601", country: "US" },
          lines: [{ lineNumber: 1, sku: "SKU-10001", quantity: 2, unitPrice: 19.95 }],
        },
      ],
    });
    const run = edi("build", "850", input);
    expect(run.status).toBe(0);
    const result = readX12(run.stdout);
    expect(result.ok).toBe(true);
    expect(result.interchanges[0]).toMatchObject({
      usage: "T",
      receiver: { id: "ACMETEST" },
      sender: { id: "HOUSEROPS" },
      delimiters: { element: "|", segment: "\n" },
    });
    const [po] = mapTransactions(result);
    expect(po.mapped?.type).toBe("850");
    expect(po.mapped?.document).toMatchObject({ poNumber: "PO100045001-7" });
    expect(run.stdout).toContain("MSG|Drop ship 100045001");
  }, 30_000);

  it("build 850 from control number 999999999 with two orders wraps ST02 to 0001, never ten digits (D73)", () => {
    const order = (po: string) => ({
      poNumber: po,
      orderNumber: po,
      date: "2026-11-21",
      shipTo: { name: "Jane Doe", address1: "12 Main St", city: "Chicago", state: "IL", zip: "60601", country: "US" },
      lines: [{ lineNumber: 1, sku: "SKU-1", quantity: 1 }],
    });
    const input = jsonFile("top.json", { ...PARTIES, controlNumber: 999_999_999, purchaseOrders: [order("PO-1"), order("PO-2")] });
    const run = edi("build", "850", input);
    expect(run.status).toBe(0);
    const result = readX12(run.stdout);
    expect(result.ok).toBe(true);
    expect(result.interchanges[0].groups[0].transactions.map((each) => each.controlNumber)).toEqual(["999999999", "0001"]);
  }, 30_000);

  it("build 850 names every bad field of its JSON, exit 1; a bad command line is exit 2", () => {
    const input = jsonFile("bad.json", {
      ...PARTIES,
      purchaseOrders: [{ poNumber: "", date: "yesterday", shipTo: {}, lines: [] }],
    });
    const run = edi("build", "850", input);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("purchaseOrders.0.poNumber");
    expect(run.stdout).toContain("purchaseOrders.0.date");
    expect(run.stdout).toContain("purchaseOrders.0.lines");
    expect(edi("build", "856", input).status).toBe(2);
    expect(edi("frobnicate").status).toBe(2);
    expect(edi("parse", path.join(work, "missing.edi")).stderr).toContain("ENOENT");
  }, 30_000);

  it("parse reads a CSV vendor file too", () => {
    const file = path.join(work, "tracking.csv");
    writeFileSync(file, "\uFEFFpo_number,sku,quantity,tracking_number,carrier,ship_date\r\nPO1,SKU-1,2,1Z999,UPS,2026-11-21\r\n");
    const run = edi("parse", file);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ format: "csv", type: "856", rows: [{ trackingNumber: "1Z999" }] });
  }, 30_000);
});
