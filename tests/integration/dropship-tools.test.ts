// Drop Ship Tools over real HTTP to the running app, against a loopback SFTP
// server: Vendor Testing plays the vendor for a PO our flow sent (its 856, 855,
// 997, 846, our 850 again, a sample 850), Manual Utilities parse a vendor file
// without changing anything, or parse and apply it, upload what is prepared
// and collect what is waiting. Paths that would leave the vendor's folder,
// unknown POs and malformed input are refused.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSftpServer, type SftpTestServer } from "@edi/transport/loopback";
import type { RunningApp } from "../support/app-server";
import { startAppWithDatabase, stopAppWithDatabase, type AppWithDatabase } from "../support/app-with-database";
import { followRun, runEnd } from "../support/runs";
import type { TestDatabase } from "../support/test-database";
import { createPendingAssignment } from "../support/pending-assignment";

const PASSWORD = "Tools-Pa55-word";
const SKU = "SKU-TOOLS-1";
let database: TestDatabase;
let app: RunningApp;
let db: AppWithDatabase["db"];
let root: string;
let sftp: SftpTestServer;
let vendorId: number;
let po: string;
/** A second PO of the same file, still open: sent again by the 850 action. */
let openPo: string;

const dir = (...parts: string[]) => path.join(root, ...parts);
const filesIn = (...parts: string[]) =>
  existsSync(dir(...parts))
    ? readdirSync(dir(...parts), { withFileTypes: true })
        .filter((entry) => entry.isFile() && !entry.name.startsWith("."))
        .map((entry) => entry.name)
    : [];

async function createVendor(name: string, storeId: string, overrides: Record<string, unknown> = {}) {
  const response = await fetch(`${app.url}/api/dropship_vendor`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      name,
      store_id: storeId,
      enabled: 1,
      test_mode: 0,
      is_legacy: 0,
      transfer_mechanism_id: 1,
      sftp_host: "127.0.0.1",
      sftp_port: sftp.port,
      sftp_user: "vendor",
      sftp_pass: PASSWORD,
      sftp_incoming_folder: "/outbound",
      sftp_outcoming_folder: "/inbound",
      edi_format: 1,
      edi_identifier: "TOOLSEDI",
      edi_qualifier: "ZZ",
      sort_files_by_file_contents: 0,
      is_archiving_files: 1,
      use_cost: 0,
      "997_enabled": 1,
      "846_enabled": 1,
      unwrap_846: 0,
      "810_enabled": 0,
      ...overrides,
    }),
  });
  expect(response.status).toBe(200);
  return (await response.json()).id as number;
}

async function tool(action: string, fields: Record<string, string> = {}, id = vendorId) {
  const form = new FormData();
  form.set("vendor_id", String(id));
  form.set("action", action);
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  // Started in the background (202), followed to its end as the page does (D93).
  const { startStatus, body } = await followRun(app.url, await fetch(`${app.url}/api/dropship_tools_submit`, { method: "POST", body: form }));
  expect(JSON.stringify(body)).not.toContain(PASSWORD);
  const { status: _runStatus, ...answer } = body;
  return { status: startStatus, ...(answer as { id?: number; error: boolean; message: string; errors?: Record<string, string[]> }) };
}

async function step(action: string) {
  const form = new FormData();
  form.set("action", action);
  const { startStatus, body } = await followRun(app.url, await fetch(`${app.url}/api/dropship_test_submit`, { method: "POST", body: form }));
  expect(startStatus).toBe(202);
  return body as { error: boolean; message: string };
}

/** An order with one item and a Pending assignment of it to the vendor's store. */
async function pendingAssignment(storeId: string, vendorName: string, orderId: string) {
  return createPendingAssignment(db, { orderId, shopifyOrderId: `88${orderId.slice(-5)}`, sku: SKU, itemName: "Tools test item", qty: 2, storeId, vendorName });
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "dropship-tools-"));
  for (const folder of ["outbound", "inbound"]) mkdirSync(dir(folder));
  sftp = await startSftpServer({ root, users: { vendor: PASSWORD } });
  ({ database, app, db } = await startAppWithDatabase("tools", { SEED_DEMO_DATA: "0", APP_SECRET_KEY: Buffer.alloc(32, 7).toString("base64") }));

  // Vendor Testing puts made-up files into the vendor's folders: only for a vendor in test mode (D66).
  vendorId = await createVendor("Tools Vendor", "DST1", { test_mode: 1, test_identifier: "TOOLSEDI", test_qualifier: "ZZ" });
  await pendingAssignment("DST1", "Tools Vendor", "880000001");
  await pendingAssignment("DST1", "Tools Vendor", "880000002");
  // Saving the vendor made its dropshipper source (D51): its stock, as its last 846 left it.
  expect(await db.inventorySource.findUnique({ where: { source_code: "DST1" } })).toMatchObject({ name: "Tools Vendor", type: "dropshipper", enabled: 1 });
  await db.sourceStock.createMany({
    data: [
      { source_code: "DST1", sku: SKU, quantity: 7 },
      { source_code: "DST1", sku: "SKU-TOOLS-2", quantity: 0 },
    ],
  });
  // The flow sends our 850 first, as it would for any order.
  expect((await step("populateRequests")).error).toBe(false);
  expect(await step("sendRequests")).toMatchObject({ error: false, message: "1 file sent to 1 vendor, carrying 2 new ship requests." });
  [po, openPo] = (await db.dropshipRequest.findMany({ where: { vendor_id: vendorId }, orderBy: { request_id: "asc" } })).map((request) => request.po_number);
}, 120_000);

afterAll(async () => {
  await stopAppWithDatabase({ db, app, database });
  await sftp?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("Vendor Testing and Manual Utilities on one PO", () => {
  let shipNotice: string;

  it("856 with the PO puts the vendor's ship notice into its incoming folder", async () => {
    const answer = await tool("856", { ponum: po });
    expect(answer).toMatchObject({ status: 202, error: false });
    const match = /^Uploaded 856 (\S+) to \/outbound\/(\S+) for PO (\S+), as Tools Vendor would send it\./.exec(answer.message);
    expect(match).not.toBeNull();
    shipNotice = match![1];
    expect(match![2]).toBe(shipNotice);
    expect(match![3]).toBe(po);
    expect(filesIn("outbound")).toEqual([shipNotice]);
    const text = readFileSync(dir("outbound", shipNotice), "utf8");
    expect(text).toContain("ST*856*");
    expect(text).toContain(`PRF*${po}`);
    expect(text).not.toContain(openPo); // the PO asked for only, though our 850 carried both
  });

  it("parse-856 summarises the file and changes nothing", async () => {
    const answer = await tool("parse-856", { filepath: shipNotice });
    expect(answer).toMatchObject({ status: 202, error: false });
    expect(answer.message).toContain(`${shipNotice}: 856 ship notice: shipment `);
    expect(answer.message).toMatch(
      new RegExp(`shipment \\S+ by (UPS|FedEx|USPS)( \\(\\w+\\))?, shipped \\d{4}-\\d{2}-\\d{2}: PO ${po}: ${SKU} × 2, tracking \\w{10,}`),
    );
    expect(answer.message).toContain("No faults.");
    expect(answer.message).toMatch(/Nothing was changed\.$/);
    expect(filesIn("outbound")).toEqual([shipNotice]);
    expect(await db.transmission.count({ where: { direction: "in" } })).toBe(0);
    expect(await db.dropshipResponse.count()).toBe(0);
  });

  it("refuses to parse a file as another document type", async () => {
    const answer = await tool("parse-855", { filepath: shipNotice });
    expect(answer).toMatchObject({ status: 202, error: true, message: `${shipNotice} is a 856 file, not a 855: nothing was done.` });
  });

  it("parse-process-856 stores the file, releases it remotely and applies it", async () => {
    const answer = await tool("parse-process-856", { filepath: shipNotice });
    expect(answer.status).toBe(202);
    expect(answer.message).toMatch(/Stored as transmission \d+\. Processed now \(processed\): 1 file processed, 0 failed/);
    const stored = await db.transmission.findFirstOrThrow({ where: { direction: "in", file_name: shipNotice } });
    expect(stored).toMatchObject({ status: "processed", transaction_set: "856" });
    const response = await db.dropshipResponse.findFirstOrThrow({ where: { response_type: "856" } });
    expect(response).toMatchObject({ po_number: po, item_sku: SKU, qty: 2 });
    expect(response.tracking_number).toMatch(/\w{10,}/);
    // Shipped, and Complete once Shopify has the fulfilment.
    expect((await db.dropshipRequest.findFirstOrThrow({ where: { po_number: po } })).status).toBe("completed");
    // Like Populate Ship Responses: archived on the vendor's server once stored.
    expect(filesIn("outbound")).toEqual([]);
    expect(filesIn("outbound", "archive")).toEqual([shipNotice]);
  });

  it("reads archive/<name>, and never applies a stored file twice", async () => {
    const answer = await tool("parse-process-856", { filepath: `archive/${shipNotice}` });
    expect(answer.error).toBe(false);
    expect(answer.message).toMatch(/It was stored before as transmission \d+ and is processed: it is not applied twice\./);
    expect(await db.transmission.count({ where: { direction: "in" } })).toBe(1);
    expect(await db.dropshipResponse.count({ where: { response_type: "856" } })).toBe(1);
  });

  it("reads the stored copy when the file is gone from the server", async () => {
    rmSync(dir("outbound", "archive", shipNotice));
    const stored = await db.transmission.findFirstOrThrow({ where: { direction: "in", file_name: shipNotice } });
    const answer = await tool("parse-856", { filepath: shipNotice });
    expect(answer.error).toBe(false);
    expect(answer.message).toContain(`${shipNotice} (read from transmission ${stored.id}: the file is no longer on the server): 856 ship notice: shipment `);
    const missing = await tool("parse-810", { filepath: "810_nowhere.edi" });
    expect(missing).toMatchObject({
      status: 202,
      error: true,
      message: "/outbound/810_nowhere.edi is not on Tools Vendor's server, and no file of Tools Vendor named 810_nowhere.edi is stored.",
    });
  });

  it("refuses file paths that would leave the incoming folder, with the reason", async () => {
    for (const [filepath, reason] of [
      ["../etc/passwd", 'it contains "..", which could leave /outbound'],
      ["archive/../../etc/passwd", 'it contains "..", which could leave /outbound'],
      ["/etc/passwd", "it is absolute; give a path inside /outbound"],
      ["archive\\856.edi", "it contains a backslash"],
      ["856\u0000.edi", "it contains a control character (such as NUL or a line break)"],
    ]) {
      const answer = await tool("parse-process-856", { filepath });
      expect(answer).toMatchObject({ status: 202, error: true, message: `The path ${JSON.stringify(filepath)} is not allowed: ${reason}` });
    }
    expect(await db.transmission.count({ where: { direction: "in" } })).toBe(1);
  });

  it("855 and then Receive Files: the vendor's acknowledgement is collected like any vendor file", async () => {
    const answer = await tool("855", { ponum: po });
    expect(answer.error).toBe(false);
    const name = /^Uploaded 855 (\S+) to/.exec(answer.message)![1];
    expect(readFileSync(dir("outbound", name), "utf8")).toContain(`BAK*00*`);
    const received = await tool("receive-files");
    expect(received).toMatchObject({ status: 202, error: false, message: "1 new file stored from 1 vendor." });
    expect(await db.transmission.findFirstOrThrow({ where: { direction: "in", file_name: name } })).toMatchObject({
      status: "received",
      transaction_set: "855",
    });
    expect(filesIn("outbound", "archive")).toContain(name);
  });

  it("997 acknowledges our file that carried the PO", async () => {
    const sent = await db.transmission.findFirstOrThrow({ where: { direction: "out", transaction_set: "850" } });
    const answer = await tool("997", { ponum: po });
    expect(answer.error).toBe(false);
    expect(answer.message).toContain(`acknowledging ${sent.file_name} (which carries PO ${po})`);
    const name = /^Uploaded 997 (\S+) to/.exec(answer.message)![1];
    const text = readFileSync(dir("outbound", name), "utf8");
    expect(text).toContain(`AK1*PO*${sent.group_control_number}`);
    rmSync(dir("outbound", name));
  });

  it("846 advises the vendor's stock rows, or only the PO's SKU", async () => {
    const all = await tool("846");
    expect(all.error).toBe(false);
    expect(all.message).toContain("with 2 stock rows of store DST1");
    const name = /^Uploaded 846 (\S+) to/.exec(all.message)![1];
    expect(readFileSync(dir("outbound", name), "utf8")).toMatch(/LIN\*1\*SK\*SKU-TOOLS-1~\s*QTY\*33\*7\*EA/);
    const one = await tool("846", { ponum: po });
    expect(one.message).toContain("with 1 stock row of store DST1");
    for (const file of filesIn("outbound")) rmSync(dir("outbound", file));
  });

  it("850 sends an open PO again now, and refuses a completed one", async () => {
    const before = filesIn("inbound").filter((name) => name.startsWith("850_"));
    const answer = await tool("850", { ponum: openPo });
    expect(answer).toMatchObject({ error: false, message: `PO ${openPo} marked to be sent again. 1 file sent to 1 vendor, carrying 1 new ship request.` });
    const after = filesIn("inbound").filter((name) => name.startsWith("850_"));
    expect(after).toHaveLength(before.length + 1);
    const again = readFileSync(
      dir(
        "inbound",
        after.find((name) => !before.includes(name))!,
      ),
      "utf8",
    );
    expect(again).toContain(`BEG*05*DS*${openPo}`); // replaces the order sent before
    expect(again).not.toContain(po);
    expect((await db.dropshipRequest.findFirstOrThrow({ where: { po_number: openPo } })).status).toBe("sent");
    expect(await tool("850", { ponum: po })).toMatchObject({ error: true, message: `PO ${po} is completed: it is not sent again.` });
  });

  it("generate-sample-850 uploads a sample order and creates no request", async () => {
    const requests = await db.dropshipRequest.count();
    const answer = await tool("generate-sample-850", { sku: SKU });
    expect(answer.error).toBe(false);
    const match = new RegExp(
      String.raw`^Uploaded sample purchase order (sample_850_DST1_\d{14}_\d{9}\.edi) to /inbound/\1: PO (SAMPLE-\d{14}), ` +
        String.raw`1 × SKU-TOOLS-1, to a test address\. No ship request was created\.$`,
    ).exec(answer.message);
    expect(match).not.toBeNull();
    const text = readFileSync(dir("inbound", match![1]), "utf8");
    expect(text).toContain(`BEG*00*DS*${match![2]}`);
    expect(text).toContain(`SK*${SKU}`);
    expect(await db.dropshipRequest.count()).toBe(requests);
  });

  it("send-generated-files uploads what is prepared, and says when nothing is", async () => {
    expect(await tool("send-generated-files")).toMatchObject({ error: false, message: "No generated files are waiting for Tools Vendor." });
    await db.transmission.create({
      data: {
        vendor_id: vendorId,
        partner: "vendor",
        direction: "out",
        file_name: "997_prepared.edi",
        remote_path: "/inbound/997_prepared.edi",
        transaction_set: "997",
        content_hash: "prepared-997",
        content: new Uint8Array(Buffer.from("ISA*prepared")),
        size: 12,
        status: "prepared",
      },
    });
    expect(await tool("send-generated-files")).toMatchObject({ error: false, message: "1 of 1 generated files uploaded to Tools Vendor." });
    expect(readFileSync(dir("inbound", "997_prepared.edi"), "utf8")).toBe("ISA*prepared");
    expect((await db.transmission.findFirstOrThrow({ where: { file_name: "997_prepared.edi" } })).status).toBe("sent");
  });

  it("wrote a drop-ship log line for each action", async () => {
    const logs = await db.dropshipLog.findMany({ where: { message: { startsWith: "Tools, " } }, orderBy: { id: "asc" } });
    const byAction = new Set(logs.map((log) => `${log.action} ${log.message.slice(7, log.message.indexOf(":"))}`));
    for (const expected of [
      "send_file Send 856 (Ship Notice)",
      "process_responses Parse 856",
      "process_responses Parse & Process 856",
      "receive_file Receive Files",
      "send_file Send 846 (Inventory)",
      "send_requests Resend 850",
      "send_file Generate Sample 850",
      "send_file Send Generated Files",
    ]) {
      expect(byAction).toContain(expected);
    }
    const refused = logs.find((log) => log.message.includes("etc/passwd"));
    expect(refused).toMatchObject({ status: "error", action: "process_responses" });
  });
});

describe("a CSV vendor", () => {
  it("answers its PO with a ship-notice CSV, which parses and applies", async () => {
    for (const folder of ["csv/outbound", "csv/inbound"]) mkdirSync(dir(folder), { recursive: true });
    const csvVendor = await createVendor("Tools CSV Vendor", "DSC1", {
      test_mode: 1,
      edi_format: 0,
      edi_identifier: "",
      edi_qualifier: "",
      sftp_incoming_folder: "/csv/outbound",
      sftp_outcoming_folder: "/csv/inbound",
    });
    await pendingAssignment("DSC1", "Tools CSV Vendor", "880000003");
    await pendingAssignment("DSC1", "Tools CSV Vendor", "880000004");
    expect((await step("populateRequests")).error).toBe(false);
    expect(await step("sendRequests")).toMatchObject({ error: false, message: "1 file sent to 1 vendor, carrying 2 new ship requests." });
    const [csvPo, otherPo] = (await db.dropshipRequest.findMany({ where: { vendor_id: csvVendor }, orderBy: { request_id: "asc" } })).map(
      (request) => request.po_number,
    );

    const answer = await tool("856", { ponum: csvPo }, csvVendor);
    expect(answer.error).toBe(false);
    const name = /^Uploaded 856 (\S+\.csv) to \/csv\/outbound\/\1 for PO/.exec(answer.message)![1];
    const text = readFileSync(dir("csv", "outbound", name), "utf8");
    expect(text.split("\r\n")[0]).toMatch(/^po_number,sku,quantity,tracking_number/);
    expect(text).toContain(`${csvPo},${SKU},2,`);
    expect(text).not.toContain(otherPo);

    const parsed = await tool("parse-856", { filepath: name }, csvVendor);
    expect(parsed.error).toBe(false);
    expect(parsed.message).toMatch(
      new RegExp(`^${name}: 856 ship notice: PO ${csvPo}: ${SKU} × 2, tracking \\w+ \\((UPS|FedEx|USPS)\\)\\. No faults\\. Nothing was changed\\.$`),
    );
    expect(await tool("parse-810", { filepath: name }, csvVendor)).toMatchObject({
      error: true,
      message: `${name} is a 856 file, not a 810: nothing was done.`,
    });

    const applied = await tool("parse-process-856", { filepath: name }, csvVendor);
    expect(applied.message).toContain("Processed now (processed): 1 file processed, 0 failed");
    expect(await db.dropshipResponse.findFirstOrThrow({ where: { po_number: csvPo, response_type: "856" } })).toMatchObject({ item_sku: SKU, qty: 2 });
    expect(await tool("997", { ponum: csvPo }, csvVendor)).toMatchObject({ error: true, message: "Tools CSV Vendor exchanges CSV files, which have no 997." });
  });
});

describe("the vendor's SFTP host key (D64)", () => {
  const hostKeyApi = (body: unknown) =>
    fetch(`${app.url}/api/dropship_vendor/${vendorId}/host_key`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("was trusted on first use, pinned, and recorded in the vendor's log with its fingerprint", async () => {
    expect((await db.vendor.findUniqueOrThrow({ where: { id: vendorId } })).sftp_host_key).toBe(sftp.hostKey);
    const pinned = await db.dropshipLog.findMany({ where: { vendor_id: vendorId, action: "host_key_pinned" } });
    expect(pinned).toHaveLength(1);
    expect(pinned[0]).toMatchObject({ status: "warning", vendor_name: "Tools Vendor" });
    expect(pinned[0].message).toBe(
      `Host key ${sftp.hostKey} of 127.0.0.1:${sftp.port} trusted on first use and pinned: a ` +
        `server showing another key is refused. Compare it with the fingerprint the vendor gives you.`,
    );
  });

  it("a fingerprint staff pin is enforced; after a reset the next connection pins the key it sees, logged again", async () => {
    const other = `SHA256:${Buffer.alloc(32, 4).toString("base64").replace(/=+$/, "")}`;
    expect((await hostKeyApi({ action: "pin", fingerprint: other })).status).toBe(200);
    const refused = await tool("parse-856", { filepath: "none.edi" });
    expect(refused.error).toBe(true);
    expect(refused.message).toContain(`expected ${other}, got ${sftp.hostKey}`);

    expect(await (await hostKeyApi({ action: "reset" })).json()).toMatchObject({ sftp_host_key: null });
    // Connected this time: the file is simply not there.
    expect(await tool("parse-856", { filepath: "none.edi" })).toMatchObject({
      error: true,
      message: "/outbound/none.edi is not on Tools Vendor's server, and no file of Tools Vendor named none.edi is stored.",
    });
    expect((await db.vendor.findUniqueOrThrow({ where: { id: vendorId } })).sftp_host_key).toBe(sftp.hostKey);
    const logs = await db.dropshipLog.findMany({
      where: { vendor_id: vendorId, action: { in: ["host_key_pinned", "host_key_reset"] } },
      orderBy: { id: "asc" },
    });
    expect(logs.map((log) => log.action)).toEqual(["host_key_pinned", "host_key_pinned", "host_key_reset", "host_key_pinned"]);
    expect(logs[1].message).toBe(`Host key ${other} pinned by staff (was ${sftp.hostKey}): a server showing another key is refused.`);
    expect(logs[3].message).toContain(`Host key ${sftp.hostKey} of 127.0.0.1:${sftp.port} trusted on first use`);
  });
});

describe("Vendor Testing only for a vendor in test mode (D66)", () => {
  it("refuses every action that puts made-up files into a vendor's folders, writing nothing", async () => {
    const live = await createVendor("Live Vendor", "DST4", { sftp_incoming_folder: "/live/outbound", sftp_outcoming_folder: "/live/inbound" });
    for (const folder of ["live/outbound", "live/inbound"]) mkdirSync(dir(folder), { recursive: true });
    const message =
      "Live Vendor is not in test mode: this action puts made-up files into the vendor's folders, so " +
      "it runs only for vendors in test mode (Test Mode = Yes on the vendor form). Nothing was done.";
    for (const [action, fields] of [
      ["855", { ponum: po }],
      ["856", { ponum: po }],
      ["810", { ponum: po }],
      ["997", { ponum: po }],
      ["846", {}],
      ["generate-sample-850", { sku: SKU }],
    ] as const) {
      expect(await tool(action, fields, live), action).toMatchObject({ status: 202, error: true, message });
    }
    expect(filesIn("live", "outbound")).toEqual([]);
    expect(filesIn("live", "inbound")).toEqual([]);
    expect(await db.transmission.count({ where: { vendor_id: live } })).toBe(0);
    const form = new FormData();
    form.set("vendor_id", String(live));
    form.set("action", "generate-sample-850");
    form.set("sku", SKU);
    const { body: de } = await followRun(app.url, await fetch(`${app.url}/api/dropship_tools_submit?locale=de`, { method: "POST", body: form }));
    expect(de).toMatchObject({ error: true, message: expect.stringMatching(/^Live Vendor ist nicht im Testmodus/) });
    // Each refusal is in the vendor's log.
    expect(await db.dropshipLog.count({ where: { vendor_id: live, status: "error", message: { contains: "is not in test mode" } } })).toBe(7);
    // Resend 850 sends a real order again: not a made-up file, so not held back by test mode (here refused as another vendor's PO).
    expect((await tool("850", { ponum: po }, live)).message).toBe(`PO ${po} belongs to Tools Vendor, not to Live Vendor.`);
    // The Tools list tells the page which vendors are in test mode.
    const list = (await (await fetch(`${app.url}/api/dropship_tools`)).json()) as Array<{ id: number; test_mode: number }>;
    expect(list.find((vendor) => vendor.id === live)?.test_mode).toBe(0);
    expect(list.find((vendor) => vendor.id === vendorId)?.test_mode).toBe(1);
  });
});

describe("refusals", () => {
  it("names an unknown PO and a PO of another vendor", async () => {
    expect(await tool("856", { ponum: "NO-SUCH-PO" })).toMatchObject({ status: 202, error: true, message: "No ship request has PO NO-SUCH-PO." });
    const other = await createVendor("Other Vendor", "DST2", { test_mode: 1, test_identifier: "OTHEREDI", test_qualifier: "ZZ" });
    expect(await tool("855", { ponum: po }, other)).toMatchObject({
      status: 202,
      error: true,
      message: `PO ${po} belongs to Tools Vendor, not to Other Vendor.`,
    });
  });

  it("answers malformed input with 422, one message per field", async () => {
    const missing = await tool("856");
    expect(missing.status).toBe(422);
    expect(missing.errors).toEqual({ ponum: ["ponum is required for 856."] });
    const long = await tool("855", { ponum: "P".repeat(23) });
    expect(long.status).toBe(422);
    expect(long.errors).toEqual({ ponum: ["The PO number must be 1 to 22 characters."] });
    const noPath = await tool("parse-process-810", { filepath: "  " });
    expect(noPath.errors).toEqual({ filepath: ["filepath is required for parse-process-810."] });
    const noSku = await tool("generate-sample-850", { sku: "" }, 0);
    expect(Object.keys(noSku.errors!).sort()).toEqual(["sku", "vendor_id"]);
    expect((await tool("receive-files", {}, 999_999)).status).toBe(404);
  });

  it("gives the transport's words when the vendor cannot be reached", async () => {
    const gone = await createVendor("Gone Vendor", "DST3", { sftp_port: 1, test_mode: 1, test_identifier: "GONEEDI", test_qualifier: "ZZ" });
    const answer = await tool("generate-sample-850", { sku: SKU }, gone);
    expect(answer).toMatchObject({ status: 202, error: true });
    expect(answer.message).toMatch(/unreachable/i);
    // The same run read from a German page: the error is a code, rendered in German (D117).
    const german = await runEnd(app.url, answer.id as number, { locale: "de" });
    expect(german.message).toBe("Gone Vendor: 127.0.0.1:1 ist nicht erreichbar (Verbindung abgelehnt)");
    // A path typed by staff, refused with its reason in German.
    const form = new FormData();
    form.set("vendor_id", String(vendorId));
    form.set("action", "parse-856");
    form.set("filepath", "../etc/passwd");
    const { body } = await followRun(app.url, await fetch(`${app.url}/api/dropship_tools_submit?locale=de`, { method: "POST", body: form }));
    expect(body.message).toBe('Der Pfad "../etc/passwd" ist nicht erlaubt: er enthält "..", womit er /outbound verlassen könnte');
  });

  it("never wrote the password to the server's output", () => {
    expect(app.output()).not.toContain(PASSWORD);
  });
});

describe("Parse answers in the reader's language (D124)", () => {
  it("names an 856's faults in German: our sentences translated, the file's segments and values as they are", async () => {
    const name = "broken-856.edi";
    // SE01 counts 9 segments where the set has 3 (ST, BSN, SE).
    const x12 = [
      "ISA*00*          *00*          *ZZ*T18SENDER      *ZZ*T18RECEIVER    *261126*1200*U*00401*000000001*0*P*>",
      "GS*SH*T18SENDER*T18RECEIVER*20261126*1200*1*X*004010",
      "ST*856*0001",
      "BSN*00*SHIP-T18*20261126*1200",
      "SE*9*0001",
      "GE*1*1",
      "IEA*1*000000001",
    ].join("~\n");
    writeFileSync(dir("outbound", name), x12);
    try {
      const form = new FormData();
      form.set("vendor_id", String(vendorId));
      form.set("action", "parse-856");
      form.set("filepath", name);
      const { body } = await followRun(app.url, await fetch(`${app.url}/api/dropship_tools_submit?locale=de`, { method: "POST", body: form }));
      const { message } = body as { message: string };
      expect(message).toContain('Segment 5 (SE): SE01 nennt "9" Segmente, der Transaktionssatz hat 3 [AK5 4]');
      expect(message).not.toMatch(/ says |segments, the transaction set/);
    } finally {
      rmSync(dir("outbound", name), { force: true });
    }
  });
});

describe("cancellations from Tools (issue 29, D234)", () => {
  it("Send Cancellation, the vendor's answer played, then parsed and processed; with the refusals", async () => {
    for (const folder of ["c9/outbound", "c9/inbound", "c9/cancel_in", "c9/cancel_out"]) mkdirSync(dir(folder), { recursive: true });
    const id = await createVendor("Cancel Vendor", "DST9", {
      test_mode: 1,
      test_identifier: "TOOLSEDI",
      test_qualifier: "ZZ",
      sftp_incoming_folder: "/c9/outbound",
      sftp_outcoming_folder: "/c9/inbound",
      sftp_cancellation_put_folder: "/c9/cancel_in",
      sftp_cancellation_pull_folder: "/c9/cancel_out",
    });
    await pendingAssignment("DST9", "Cancel Vendor", "889100011");
    await pendingAssignment("DST9", "Cancel Vendor", "889100012");
    await step("populateRequests");
    await step("sendRequests");
    const [first, second] = await db.dropshipRequest.findMany({ where: { vendor_id: id }, orderBy: { request_id: "asc" } });
    expect(first.status).toBe("sent");

    const sent = await tool("send-cancellation", { ponum: first.po_number }, id);
    expect(sent).toMatchObject({ status: 202, error: false });
    expect(sent.message).toMatch(new RegExp(`^Cancel Vendor is asked to cancel PO ${first.po_number}\\. Send Ship Requests: 1 file sent to 1 vendor`));
    expect(filesIn("c9", "cancel_in")).toEqual([expect.stringMatching(/^860_CANCEL_DST9_/)]);
    expect(await db.dropshipCancellation.findFirstOrThrow({ where: { po_number: first.po_number } })).toMatchObject({ cause: "tools", status: "sent" });
    // Asked once.
    expect((await tool("send-cancellation", { ponum: first.po_number }, id)).message).toBe(
      `PO ${first.po_number} is already Cancel Requested: no second cancellation is sent.`,
    );

    const answered = await tool("cancellation-answer", { ponum: first.po_number }, id);
    expect(answered).toMatchObject({ error: false });
    const [answer] = filesIn("c9", "cancel_out");
    expect(answered.message).toBe(
      `Uploaded ${answer} to /c9/cancel_out/${answer}: Cancel Vendor accepts the cancellation of PO ${first.po_number}. ` +
        "Receive Files (or Populate Ship Responses) picks it up.",
    );

    const parsed = await tool("parse-cancellation", { filepath: answer }, id);
    expect(parsed.error).toBe(false);
    expect(parsed.message).toContain(`PO ${first.po_number}, change 1: accepted (AT ID)`);
    expect(await db.dropshipRequest.findUniqueOrThrow({ where: { request_id: first.request_id } })).toMatchObject({ status: "cancel_requested" });

    const processed = await tool("parse-process-cancellation", { filepath: answer }, id);
    expect(processed.error).toBe(false);
    expect(await db.dropshipRequest.findUniqueOrThrow({ where: { request_id: first.request_id } })).toMatchObject({ status: "cancelled", qty_cancelled: 2 });
    expect(filesIn("c9", "cancel_out")).toEqual([]);
    expect(await db.dropshipLog.count({ where: { vendor_id: id, action: "cancel_answers", status: "success" } })).toBeGreaterThan(0);

    // Refusals: a shipped PO, a PO of another vendor, one not sent yet.
    await db.dropshipRequest.update({ where: { request_id: second.request_id }, data: { status: "shipped" } });
    expect((await tool("send-cancellation", { ponum: second.po_number }, id)).message).toBe(
      `Cancel Vendor has already shipped PO ${second.po_number} (Shipped): it can no longer be cancelled.`,
    );
    expect((await tool("send-cancellation", { ponum: po }, id)).message).toBe(`PO ${po} belongs to Tools Vendor, not to Cancel Vendor.`);
    await pendingAssignment("DST9", "Cancel Vendor", "889100013");
    await step("populateRequests");
    const unsent = await db.dropshipRequest.findFirstOrThrow({ where: { vendor_id: id, status: "pending" } });
    expect((await tool("send-cancellation", { ponum: unsent.po_number }, id)).message).toBe(
      `PO ${unsent.po_number} has not been sent yet: nothing to cancel at the vendor. Delete or reassign its assignment instead.`,
    );
  });
});
