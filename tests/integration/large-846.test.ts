// A vendor's 846 of 60,000 lines (issue 15, 3c), X12 and CSV, through the
// real steps (loopback SFTP, Populate Ship Responses, Process Ship
// Responses' processStoredFile, the database): read as a stream from the stored bytes and applied a batch at a
// time, every line landing where it should. And a set at fault in a streamed
// 846 is rejected alone, as when a file is read whole. No timing here: the
// figures are in bench/dropship (npm run bench).
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import type { Vendor } from "../../app/db/generated/client";
import { populateShipResponses } from "../../app/dropship/flow/populate-responses.server";
import { StepReport } from "../../app/dropship/flow/context.server";
import { prepareVendor997s } from "../../app/dropship/flow/ack-997.server";
import { processStoredFile } from "../../app/dropship/flow/process-responses.server";
import { generate846 } from "@edi/documents";
import { createLoopbackVendor } from "../support/loopback-vendor";
import { useVendorServers } from "../support/vendor-servers";

const PASSWORD = "Large846-Pa55";
// Twelve batches of 5,000 SKUs; the memory figures for a 50 MB file are bench/dropship/stock-846.ts's.
const LINES = 60_000;
const tag = `L${randomBytes(3).toString("hex").toUpperCase()}`;
const servers = useVendorServers("large-846", PASSWORD);
let vendors = 0;

function createVendor(overrides: Partial<Vendor>) {
  const server = { root: servers.root, port: servers.sftp.port, hostKey: servers.sftp.hostKey, password: PASSWORD };
  return createLoopbackVendor(server, `${tag}${++vendors}`, { regex_format: "\\.(edi|csv)$", edi846_enabled: 1, ...overrides });
}

/** The generator's quantity for line n (QTY*33). */
const quantityOf = (line: number) => (line * 7919) % 500;
const expectedTotal = (lines: number) => Array.from({ length: lines }, (_, i) => quantityOf(i + 1)).reduce((sum, quantity) => sum + quantity, 0);

async function stockSummary(vendor: Vendor) {
  const [row] = await prisma.$queryRaw<
    Array<{ rows: bigint; total: bigint }>
  >`SELECT count(*) AS rows, coalesce(sum(quantity), 0) AS total FROM inventory_source_item WHERE source_code = ${vendor.store_id}`;
  return { rows: Number(row.rows), total: Number(row.total) };
}
/**
 * Process Ship Responses' work on the vendor's stored files (processStoredFile, in the step's order),
 * without the step's Shopify push afterwards: sending 60,000 stock levels to the stand-in is
 * another feature's cost (shopify-sync), tested there.
 */
async function processStored(vendor: Vendor) {
  const report = new StepReport();
  for (const { id } of await prisma.transmission.findMany({
    where: { vendor_id: vendor.id, direction: "in", status: "received" },
    orderBy: { id: "asc" },
    select: { id: true },
  })) {
    await processStoredFile(id, vendor, report);
  }
  // The run's 997 (D100), counted apart from the files.
  await prepareVendor997s(vendor);
  return report.counts;
}
const stockOf = async (vendor: Vendor, sku: string) =>
  (await prisma.sourceStock.findUnique({ where: { source_code_sku: { source_code: vendor.store_id, sku } } }))?.quantity;

afterAll(async () => {
  // Its 60,000 stock levels were never pushed to Shopify: left behind, every later Process Ship Responses
  // in this run (other files share the database) would push them first.
  await prisma.sourceStock.deleteMany({ where: { source_code: { startsWith: tag } } });
  await prisma.vendor.updateMany({ where: { store_id: { startsWith: tag } }, data: { enabled: 0 } });
});

describe("a large 846 is applied as a stream", () => {
  it("applies an X12 846 of 60,000 lines, every SKU with its quantity, and accepts it in our 997", async () => {
    const vendor = await createVendor({ edi_format: 1, edi_identifier: "VENDOR", edi_qualifier: "ZZ", edi997_enabled: 1 });
    const prefix = `${vendor.store_id}-`;
    writeFileSync(path.join(servers.root, vendor.sftp_incoming_folder!.slice(1), "846_big.edi"), generate846(LINES, { skuPrefix: prefix, lineBreak: "\n" }));
    expect((await populateShipResponses({ vendorId: vendor.id })).message).toMatch(/^1 new file stored/);
    expect(await processStored(vendor)).toEqual({ files_processed: 1 });
    const stored = await prisma.transmission.findFirstOrThrow({ where: { vendor_id: vendor.id, direction: "in" } });
    expect(stored).toMatchObject({ status: "processed", error: null, transaction_set: "846" });
    expect(await stockSummary(vendor)).toEqual({ rows: LINES, total: expectedTotal(LINES) });
    for (const line of [1, 4_999, 5_000, 5_001, 42_457, LINES])
      expect(await stockOf(vendor, `${prefix}${String(line).padStart(7, "0")}`)).toBe(quantityOf(line));
    const log = await prisma.dropshipLog.findFirstOrThrow({ where: { transmission_id: stored.id, message: { startsWith: "846:" } } });
    expect(log.message).toBe(`846: ${LINES} SKU lines read, ${LINES} stock levels changed for ${vendor.name}.`);
    const ack = await prisma.transmission.findFirstOrThrow({ where: { vendor_id: vendor.id, direction: "out", transaction_set: "997" } });
    // Sets of 10,000 lines, every one accepted.
    expect(Buffer.from(ack.content).toString()).toContain(`AK9*A*${LINES / 10_000}*${LINES / 10_000}*${LINES / 10_000}`);
  });

  it("applies an inventory CSV of 60,000 lines", async () => {
    const vendor = await createVendor({ edi_format: 0 });
    const rows = Array.from({ length: LINES }, (_, i) => `${vendor.store_id}-${i + 1},${quantityOf(i + 1)}`);
    writeFileSync(path.join(servers.root, vendor.sftp_incoming_folder!.slice(1), "stock_big.csv"), `sku,quantity\n${rows.join("\n")}\n`);
    expect((await populateShipResponses({ vendorId: vendor.id })).message).toMatch(/^1 new file stored/);
    expect(await processStored(vendor)).toEqual({ files_processed: 1 });
    expect(await stockSummary(vendor)).toEqual({ rows: LINES, total: expectedTotal(LINES) });
    expect(await stockOf(vendor, `${vendor.store_id}-${LINES}`)).toBe(quantityOf(LINES));
  });

  it("rejects a set at fault alone: the other sets are applied and our 997 says which", async () => {
    const vendor = await createVendor({ edi_format: 1, edi_identifier: "VENDOR", edi_qualifier: "ZZ", edi997_enabled: 1 });
    const prefix = `${vendor.store_id}-`;
    // Two sets of ten lines; the second set's SE count is wrong.
    const text = generate846(20, { skuPrefix: prefix, linesPerTransaction: 10 }).replace(
      /SE\*(\d+)\*0002~/,
      (_, count: string) => `SE*${Number(count) + 5}*0002~`,
    );
    writeFileSync(path.join(servers.root, vendor.sftp_incoming_folder!.slice(1), "846_partly.edi"), text);
    await populateShipResponses({ vendorId: vendor.id });
    await processStored(vendor);
    const stored = await prisma.transmission.findFirstOrThrow({ where: { vendor_id: vendor.id, direction: "in" } });
    expect(stored.status).toBe("processed");
    expect(stored.error).toMatch(/SE/);
    expect(await stockSummary(vendor)).toEqual({ rows: 10, total: expectedTotal(10) });
    expect(await stockOf(vendor, `${prefix}0000011`)).toBeUndefined();
    const ack = Buffer.from(
      (await prisma.transmission.findFirstOrThrow({ where: { vendor_id: vendor.id, direction: "out", transaction_set: "997" } })).content,
    ).toString();
    expect(ack).toContain("AK9*P*2*2*1");
  });
});
