import { describe, expect, it } from "vitest";
import { headerLine } from "./headers";
import { CONTENTS_REGEX_ORDER, compileVendorRegex, documentTypeOfHeader, recogniseCsvFile as recogniseWithCode, RECOGNISE_BYTES } from "./recognise";

/** The recognition as these tests read it: its English reason (the coded one is checked apart, below). */
const recogniseCsvFile = (...args: Parameters<typeof recogniseWithCode>) => {
  const { reasonCoded: _coded, ...recognition } = recogniseWithCode(...args);
  return recognition;
};

const files = {
  acknowledgement: "\uFEFFPO Number,SKU,Quantity,Status,Expected Date,Message\r\nPO-1,A,1,accepted,,\r\n",
  shipNotice: "po_number,sku,quantity,tracking_number,carrier,ship_date\nPO-1,A,1,1Z999,UPS,2026-11-21\n",
  inventory: "\n\nSKU, Quantity\nA,5\n",
  invoice: `${headerLine("810")}\nINV-1,2026-11-21,PO-1,A,1,5.00,5.00,0,0,5.00\n`,
};

describe("recogniseCsvFile without vendor regexes", () => {
  it("accepts every file and recognises documents by their header row", () => {
    expect(recogniseCsvFile("ack.csv", files.acknowledgement, {})).toEqual({
      accept: true,
      type: "855",
      reason: "the header row is an acknowledgement (855) header",
    });
    expect(recogniseCsvFile("asn.csv", Buffer.from(files.shipNotice), { regex_format: "" })).toMatchObject({ accept: true, type: "856" });
    expect(recogniseCsvFile("stock.csv", files.inventory, { regex_format: null })).toMatchObject({ type: "846" });
    expect(recogniseCsvFile("inv.csv", new Uint8Array(Buffer.from(files.invoice)), {})).toMatchObject({ type: "810" });
  });

  it("recognises nothing it cannot place, saying why", () => {
    expect(recogniseCsvFile("x.csv", "po_number,sku,quantity,stauts\nP,A,1,accepted\n", {})).toEqual({
      accept: true,
      type: null,
      reason: "the header row (po_number, sku, quantity, stauts) fits no document; closest is an acknowledgement (855), missing status",
    });
    expect(recogniseCsvFile("x.csv", "po_number,sku,quantity,status,tracking_number\n", {}).reason).toBe(
      "the header row (po_number, sku, quantity, status, tracking_number) fits no document; " +
        "closest is an acknowledgement (855), with tracking_number, which it does not have",
    );
    expect(recogniseCsvFile("po.csv", `${headerLine("850")}\n`, {})).toMatchObject({
      type: null,
      reason: "the header row is our own purchase order header, not a vendor document",
    });
    expect(recogniseCsvFile("empty.csv", "", {})).toMatchObject({ accept: true, type: null, reason: "the file has no readable header row" });
    expect(recogniseCsvFile("broken.csv", '"po_number,sku\n', {})).toMatchObject({ type: null });
  });

  it("does not take a file with columns of another document for inventory", () => {
    expect(documentTypeOfHeader(["sku", "quantity"]).type).toBe("846");
    expect(documentTypeOfHeader(["sku", "quantity", "warehouse"]).type).toBe("846");
    expect(documentTypeOfHeader(["po_number", "sku", "quantity"]).type).toBeNull();
    expect(documentTypeOfHeader(["invoice_number", "sku", "quantity"]).type).toBeNull();
  });
});

describe("recogniseCsvFile with vendor regexes", () => {
  const vendor = {
    regex_format: "^(ACK|ASN|INV|STK)_\\d+\\.csv$",
    "997_file_contents_regex": "^FA,",
    "856_file_contents_regex": "tracking_number",
    "810_file_contents_regex": "/^invoice_number/i",
    "846_file_contents_regex": "/sku/i",
  };

  it("picks up only files whose name matches regex_format", () => {
    expect(recogniseCsvFile("ACK_1.csv", files.acknowledgement, vendor).accept).toBe(true);
    expect(recogniseCsvFile("report.csv", files.acknowledgement, vendor)).toEqual({
      accept: false,
      type: null,
      reason: 'the file name "report.csv" does not match regex_format "^(ACK|ASN|INV|STK)_\\\\d+\\\\.csv$"',
    });
    expect(recogniseCsvFile("ack_1.csv", files.acknowledgement, vendor).accept).toBe(false);
    expect(recogniseCsvFile("ack_1.csv", files.acknowledgement, { regex_format: "/^ack_\\d+\\.csv$/i" }).accept).toBe(true);
  });

  it("tries the contents regexes in their documented order before the header", () => {
    expect(CONTENTS_REGEX_ORDER).toEqual(["997", "856", "810", "846"]);
    expect(recogniseCsvFile("ASN_1.csv", files.shipNotice, vendor)).toEqual({
      accept: true,
      type: "856",
      reason: 'the contents match 856_file_contents_regex "tracking_number"',
    });
    expect(recogniseCsvFile("INV_1.csv", files.invoice, vendor)).toMatchObject({ type: "810" });
    expect(recogniseCsvFile("STK_1.csv", files.inventory, vendor)).toMatchObject({ type: "846" });
    expect(recogniseCsvFile("ACK_2.csv", "FA,PO-1,accepted\n", vendor)).toMatchObject({ type: "997" });
    // The loose inventory regex also matches an acknowledgement: regexes win over the header.
    expect(recogniseCsvFile("ACK_1.csv", files.acknowledgement, vendor)).toMatchObject({
      type: "846",
      reason: 'the contents match 846_file_contents_regex "/sku/i"',
    });
    // Without it, the header decides.
    expect(recogniseCsvFile("ACK_1.csv", files.acknowledgement, { ...vendor, "846_file_contents_regex": null })).toEqual({
      accept: true,
      type: "855",
      reason: "no contents regex matched; the header row is an acknowledgement (855) header",
    });
  });

  it("reads the Prisma model's field names too", () => {
    const prismaVendor = { regex_format: null, edi856_file_contents_regex: "1Z\\w+", edi846_file_contents_regex: "" };
    expect(recogniseCsvFile("a.csv", files.shipNotice, prismaVendor)).toMatchObject({
      type: "856",
      reason: 'the contents match 856_file_contents_regex "1Z\\\\w+"',
    });
  });

  it("looks at the first RECOGNISE_BYTES only", () => {
    const late = `${headerLine("846")}\n${"A,1\n".repeat(RECOGNISE_BYTES / 4)}MARKER\n`;
    expect(recogniseCsvFile("a.csv", late, { "997_file_contents_regex": "MARKER" }).type).toBe("846");
  });

  it("never throws on invalid regexes, and says which field is broken", () => {
    expect(recogniseCsvFile("ACK_1.csv", files.acknowledgement, { regex_format: "*.csv" })).toEqual({
      accept: false,
      type: null,
      reason:
        'regex_format "*.csv" is not a valid regular expression, so no file is picked up: Invalid regular ' +
        "expression: /*.csv/: Nothing to repeat (a wildcard like *.csv is written .*\\.csv$ as a regular expression)",
    });
    const result = recogniseCsvFile("ASN_1.csv", files.shipNotice, {
      ...vendor,
      "997_file_contents_regex": "(unclosed",
      "856_file_contents_regex": "/tracking/x",
      "846_file_contents_regex": null,
    });
    expect(result.type).toBe("856");
    expect(result.reason).toBe(
      '997_file_contents_regex "(unclosed" is not a valid regular expression and was skipped: Invalid regular expression: /(unclosed/: Unterminated group; ' +
        '856_file_contents_regex "/tracking/x" is not a valid regular expression and was skipped: flag x is not supported (use i, m, s or u); ' +
        "no contents regex matched; the header row is a ship notice (856) header",
    );
  });
});

describe("compileVendorRegex", () => {
  it("takes plain patterns and delimited ones with flags", () => {
    expect(compileVendorRegex("")).toBeNull();
    expect(compileVendorRegex("   ")).toBeNull();
    expect(compileVendorRegex("^a.c$")).toEqual(/^a.c$/);
    expect(compileVendorRegex("/^a.c$/i")).toEqual(/^a.c$/i);
    expect(compileVendorRegex("#^x/y#")).toEqual(/^x\/y/);
    expect(compileVendorRegex("~abc~imsD")).toEqual(/abc/ims);
    expect(compileVendorRegex("/a/g")).toEqual({ error: "flag g is not supported (use i, m, s or u)" });
    // Not delimited: the same character does not close it.
    expect(compileVendorRegex("/inbound/.*")).toEqual(/\/inbound\/.*/);
  });
});

describe("the reason as a code (D124)", () => {
  it("gives each part of the reason its code, with the same words as parameters", () => {
    const vendor = { "997_file_contents_regex": "[", "856_file_contents_regex": "tracking_number" };
    const { reason, reasonCoded } = recogniseWithCode("ASN_1.csv", files.shipNotice, vendor);
    expect(reason).toMatch(
      /^997_file_contents_regex "\[" is not a valid regular expression and was skipped: .+; the contents match 856_file_contents_regex "tracking_number"$/,
    );
    expect(reasonCoded).toMatchObject({ code: "edi.recognise.parts" });
    const parts = (reasonCoded as unknown as { params: { parts: Array<{ code: string; params: Record<string, unknown> }> } }).params.parts;
    expect(parts.map((part) => part.code)).toEqual(["edi.recognise.contents_regex_invalid", "edi.recognise.contents_match"]);
    expect(parts[1].params).toEqual({ regex: '856_file_contents_regex "tracking_number"' });
  });
});
