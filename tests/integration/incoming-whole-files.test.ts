// A file is taken only when whole (issue 28 item 7, D181), against real
// loopback SFTP and FTP servers, the real steps and the database. The vendor
// writes its 856 in 150-byte pieces and pauses between them longer than the
// settle pause (a whole run passes between two pieces): every run leaves the
// file where it is; once whole it is stored once, archived once, and the
// shipment is fulfilled once. Before, the first 150 bytes were stored and
// archived, the rest was written into the archived copy, and the 856 was
// refused ("no IEA") with a rejecting 997: the shipment was lost.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import type { Vendor } from "../../app/db/generated/client";
import { populateShipRequests } from "../../app/dropship/flow/populate-requests.server";
import { populateShipResponses } from "../../app/dropship/flow/populate-responses.server";
import { processShipResponses } from "../../app/dropship/flow/process-responses.server";
import { sendShipRequests } from "../../app/dropship/flow/send-requests.server";
import { answerPurchaseOrderFile } from "../../app/dropship/tools/vendor-answers";
import { closeFeedPool } from "../../app/feeds/runner.server";
import { databaseCatalog } from "../../app/shopify/stand-in-catalog.server";
import { startShopifyStandIn } from "../../app/shopify/stand-in.server";
import { startSftpServer, type SftpTestServer } from "@edi/transport/loopback";
import { startFtpServer, type FtpTestServer } from "../support/ftp-server";
import { AS400_USERS, as400EnvFor } from "../support/loopback-as400";
import { createLoopbackVendor } from "../support/loopback-vendor";
import { createPendingAssignment } from "../support/pending-assignment";

const PASSWORD = "Whole-Pa55word";
let root: string;
let sftp: SftpTestServer;
let ftp: FtpTestServer;
let standIn: Awaited<ReturnType<typeof startShopifyStandIn>>;

const dir = (...parts: string[]) => path.join(root, ...parts);
const seeded = (seed: number) => () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;

async function fulfilmentCalls() {
  const all = (await (await fetch(`${standIn.url}/__calls`)).json()) as Array<{ operation: string }>;
  return all.filter((call) => call.operation === "FulfillmentCreate");
}

/** An X12 vendor with one Pending assignment sent in our 850, and the 856 it answers with (not yet written anywhere). */
async function vendorWithShipNotice(storeId: string, overrides: Partial<Vendor>): Promise<{ vendor: Vendor; name: string; content: Buffer }> {
  const vendor = await createLoopbackVendor(
    { root, port: sftp.port, password: PASSWORD },
    storeId,
    {
      edi_format: 1,
      edi_identifier: `${storeId}EDI`,
      edi_qualifier: "ZZ",
      regex_format: "\\.(edi|csv)$",
      edi997_enabled: 1,
      // Every listed file is old enough at once: no second listing, so only the new rules keep a file back.
      incoming_min_age_seconds: 0,
      ...overrides,
    },
    "Slow Writer Supply",
  );
  await createPendingAssignment(prisma, {
    orderId: `81000${storeId.slice(-2)}`,
    shopifyOrderId: `88100${storeId.slice(-2)}`,
    sku: `SKU-${storeId}`,
    qty: 1,
    storeId: vendor.store_id,
    vendorName: vendor.name,
    street: "1 Slow Lane",
  });
  await populateShipRequests();
  expect((await sendShipRequests({ vendorId: vendor.id })).error).toBe(false);
  const inbound = vendor.sftp_outcoming_folder!.slice(1);
  const [purchaseOrder] = readdirSync(dir(inbound)).filter((name) => name.startsWith("850_"));
  const answer = answerPurchaseOrderFile(vendor as never, purchaseOrder!, readFileSync(dir(inbound, purchaseOrder!)), {
    now: new Date(),
    controlNumberStart: 700,
    random: seeded(3),
  });
  if ("error" in answer) throw new Error(answer.error);
  const shipNotice = [...answer.immediate, ...answer.later].find((file) => file.name.startsWith("856"))!;
  return { vendor, name: shipNotice.name, content: Buffer.from(shipNotice.content) };
}

beforeAll(async () => {
  process.env.APP_SECRET_KEY = Buffer.alloc(32, 11).toString("base64");
  root = mkdtempSync(path.join(tmpdir(), "whole-files-"));
  mkdirSync(dir("as400", "invoices"), { recursive: true });
  sftp = await startSftpServer({ root, users: { vendor: PASSWORD, ...AS400_USERS } });
  ftp = await startFtpServer({ root, users: { vendor: PASSWORD } });
  standIn = await startShopifyStandIn({ catalog: databaseCatalog(prisma) });
  process.env.SHOPIFY_STAND_IN_URL = standIn.url;
  Object.assign(process.env, as400EnvFor(sftp));
}, 60_000);

afterAll(async () => {
  await closeFeedPool();
  await standIn?.stop();
  await ftp?.stop();
  await sftp?.stop();
  rmSync(root, { recursive: true, force: true });
});

beforeEach(async () => {
  await prisma.$executeRawUnsafe(
    `TRUNCATE dropship_cancellation, dropship_response, dropship_request, dropship_log, transmission, incoming_file_sighting, dnh_transfer, assignment,
      order_item, order_grid, dropship_vendor, inventory_source_item, inventory_source, feed_log, feed RESTART IDENTITY CASCADE`,
  );
  await fetch(`${standIn.url}/__state`, { method: "DELETE" });
});

const mechanisms = [
  { label: "SFTP", storeId: "DS81", overrides: () => ({}) },
  { label: "FTP", storeId: "DS82", overrides: () => ({ transfer_mechanism_id: 3, sftp_port: ftp.port }) },
];

describe.each(mechanisms)("a vendor writing its 856 slowly over $label (D181)", ({ storeId, overrides }) => {
  it("leaves it in place while it is written, and records the shipment once, when whole", async () => {
    const { vendor, name, content } = await vendorWithShipNotice(storeId, overrides());
    const folder = vendor.sftp_incoming_folder!.slice(1);
    const file = dir(folder, name);
    const stored = () => prisma.transmission.count({ where: { vendor_id: vendor.id, direction: "in" } });
    // An old modification time: the file is taken at once by the age rule of D60, as in the repro.
    const age = () => utimesSync(file, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000 + Math.random() * 1000));
    for (let offset = 0; offset < content.length; offset += 150) {
      appendFileSync(file, content.subarray(offset, offset + 150));
      age();
      // The vendor pauses: a whole run passes before its next piece.
      await populateShipResponses({ vendorId: vendor.id });
      expect(await stored(), `after ${offset + 150} bytes`).toBe(0);
      expect(readdirSync(dir(folder)), `after ${offset + 150} bytes`).toContain(name);
      expect(existsSync(dir(folder, "archive", name))).toBe(false);
    }
    expect(readFileSync(file)).toEqual(content);
    // Whole now, and unchanged since the last run: taken, stored once, archived once.
    for (let run = 0; run < 3; run++) await populateShipResponses({ vendorId: vendor.id });
    expect(await stored()).toBe(1);
    expect(readdirSync(dir(folder))).not.toContain(name);
    expect(readFileSync(dir(folder, "archive", name))).toEqual(content);
    const transmission = await prisma.transmission.findFirstOrThrow({ where: { vendor_id: vendor.id, direction: "in" } });
    expect(Buffer.from(transmission.content!)).toEqual(content);
    const logs = await prisma.dropshipLog.findMany({ where: { vendor_id: vendor.id, action: "receive_file" }, orderBy: { id: "asc" } });
    expect(logs.some((line) => line.message.includes("has no closing IEA yet"))).toBe(true);
    // The shipment is recorded and fulfilled once; nothing was refused.
    expect((await processShipResponses({ vendorId: vendor.id })).error).toBe(false);
    expect(await prisma.dropshipResponse.count({ where: { response_type: "856" } })).toBe(1);
    expect(await fulfilmentCalls()).toHaveLength(1);
    expect(await prisma.transmission.count({ where: { vendor_id: vendor.id, direction: "in", status: "failed" } })).toBe(0);
    expect(await prisma.incomingFileSighting.count()).toBe(0);
  });

  it("takes a file that never becomes whole after the vendor's longest wait, and refuses it", async () => {
    const { vendor, name, content } = await vendorWithShipNotice(`${storeId}9`, { ...overrides(), incoming_max_wait_minutes: 5 });
    const folder = vendor.sftp_incoming_folder!.slice(1);
    writeFileSync(dir(folder, name), content.subarray(0, 300));
    await populateShipResponses({ vendorId: vendor.id });
    expect(await prisma.transmission.count({ where: { vendor_id: vendor.id, direction: "in" } })).toBe(0);
    // Six minutes later, still without its IEA.
    await prisma.incomingFileSighting.updateMany({ data: { first_seen_at: new Date(Date.now() - 6 * 60_000) } });
    await populateShipResponses({ vendorId: vendor.id });
    expect(await prisma.transmission.count({ where: { vendor_id: vendor.id, direction: "in" } })).toBe(1);
    const line = await prisma.dropshipLog.findFirstOrThrow({ where: { vendor_id: vendor.id, message: { contains: "without becoming whole" } } });
    expect(line.status).toBe("warning");
    await processShipResponses({ vendorId: vendor.id });
    expect(await prisma.transmission.count({ where: { vendor_id: vendor.id, direction: "in", status: "failed" } })).toBe(1);
  });
});
