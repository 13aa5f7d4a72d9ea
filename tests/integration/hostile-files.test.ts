// Hostile vendor files (issue 28) through the real steps (loopback SFTP,
// Populate Ship Responses, Process Ship Responses' processStoredFile, the
// database): a CSV of 50,000 bad rows is stored, refused with its first errors
// and the count of the rest, and answered; a file the parse worker dies on
// fails alone. No timing here: the figures are bench/hostile-files's.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import type { Vendor } from "../../app/db/generated/client";
import { populateShipResponses } from "../../app/dropship/flow/populate-responses.server";
import { StepReport } from "../../app/dropship/flow/context.server";
import { processStoredFile } from "../../app/dropship/flow/process-responses.server";
import { MAX_CSV_ERRORS_KEPT } from "@edi/csv";
import { createLoopbackVendor } from "../support/loopback-vendor";
import { useVendorServers } from "../support/vendor-servers";
import { big855, hostileCsv } from "../support/hostile-files";

const PASSWORD = "Hostile-Pa55";
const tag = `H${randomBytes(3).toString("hex").toUpperCase()}`;
const servers = useVendorServers("hostile-files", PASSWORD);
let vendors = 0;

function createVendor(overrides: Partial<Vendor>) {
  const server = { root: servers.root, port: servers.sftp.port, hostKey: servers.sftp.hostKey, password: PASSWORD };
  return createLoopbackVendor(server, `${tag}${++vendors}`, { regex_format: "\\.(edi|csv)$", ...overrides });
}

async function processStored(vendor: Vendor) {
  const report = new StepReport();
  for (const { id } of await prisma.transmission.findMany({
    where: { vendor_id: vendor.id, direction: "in", status: "received" },
    orderBy: { id: "asc" },
    select: { id: true },
  }))
    await processStoredFile(id, vendor, report);
  return report;
}

const put = (vendor: Vendor, name: string, content: string) => writeFileSync(path.join(servers.root, vendor.sftp_incoming_folder!.slice(1), name), content);

afterEach(() => {
  delete process.env.PARSE_WORKER_CRASH_ON;
});

afterAll(async () => {
  await prisma.vendor.updateMany({ where: { store_id: { startsWith: tag } }, data: { enabled: 0 } });
});

describe("hostile vendor files", () => {
  it("refuses a CSV of 50,000 bad rows with its first errors and the count of the rest, stored and answered", async () => {
    const vendor = await createVendor({ edi_format: 0 });
    const rows = 50_000;
    put(vendor, "855_hostile.csv", hostileCsv(rows));
    expect((await populateShipResponses({ vendorId: vendor.id })).message).toMatch(/^1 new file stored/);
    const report = await processStored(vendor);
    expect(report.counts).toEqual({ files_failed: 1 });
    const stored = await prisma.transmission.findFirstOrThrow({ where: { vendor_id: vendor.id, direction: "in" } });
    // Three errors a row, every one counted.
    expect(stored).toMatchObject({ status: "failed", transaction_set: "855" });
    expect(stored.error).toBe(`line 2, quantity: "x" is not a whole number (and ${3 * rows - 1} more errors)`);
    const logs = await prisma.dropshipLog.findMany({ where: { transmission_id: stored.id }, orderBy: { id: "asc" } });
    const rowErrors = logs.filter((log) => log.message.startsWith("855_hostile.csv: line "));
    expect(rowErrors).toHaveLength(20);
    expect(logs.map((log) => log.message)).toContain(`855_hostile.csv: ${3 * rows - 20} more row errors, not listed one by one`);
    expect(logs.at(-1)?.message).toMatch(/^Could not process 855_hostile.csv: line 2, quantity/);
    expect(report.problems.join("\n")).toContain("855_hostile.csv");
    expect(MAX_CSV_ERRORS_KEPT).toBe(100);
  });

  it("fails only the file the parse worker died on: the vendor's next file is applied", async () => {
    const vendor = await createVendor({ edi_format: 1, edi_identifier: "VENDOR", edi_qualifier: "ZZ" });
    // Over 64 KB each, so both are read in the worker.
    put(vendor, "855_a.edi", big855(3_000, { poNumber: "PO-A", note: "CRASH-HERE", controlNumber: 1 }));
    put(vendor, "855_b.edi", big855(3_000, { poNumber: "PO-B", controlNumber: 2 }));
    await populateShipResponses({ vendorId: vendor.id });
    process.env.PARSE_WORKER_CRASH_ON = "CRASH-HERE";
    const report = await processStored(vendor);
    expect(report.counts).toEqual({ files_failed: 1, files_processed: 1 });
    const files = await prisma.transmission.findMany({ where: { vendor_id: vendor.id, direction: "in" }, orderBy: { file_name: "asc" } });
    expect(files.map((file) => [file.file_name, file.status])).toEqual([
      ["855_a.edi", "failed"],
      ["855_b.edi", "processed"],
    ]);
    expect(files[0].error).toMatch(/^the file could not be read: the parse worker stopped/);
    expect(await prisma.dropshipResponse.count({ where: { transmission_id: files[1].id } })).toBe(3_000);
  });
});
