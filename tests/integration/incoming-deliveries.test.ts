// Incoming files end to end (issue 15 items 1 and 2; D59 to D61), on a real
// loopback SFTP server, the real steps and feeds, and the database:
// - a delivery is the file at its path, never its content: stock 5, 0, 5
//   and a catalogue price 10, 12, 10 end where the last file says;
// - a file taken before and still listed (its release failed) is only released;
// - a file still being written is left for a later run;
// - a listed name that is a path is refused, named, left in place, and the
//   files behind it are taken.
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import type { Vendor } from "../../app/db/generated/client";
import { populateShipResponses, storeIncomingFiles } from "../../app/dropship/flow/populate-responses.server";
import { processShipResponses } from "../../app/dropship/flow/process-responses.server";
import { reloadEnv } from "../../app/env.server";
import { storePreparedFile } from "../../app/transfers/outgoing-files.server";
import { englishText } from "../../app/i18n/english.server";
import { importProductCatalogFiles, PRODUCT_CATALOG_FOLDER, type CatalogReport } from "../../app/products/catalog-file.server";
import { createLoopbackVendor } from "../support/loopback-vendor";
import { useVendorServers } from "../support/vendor-servers";

const PASSWORD = "Deliveries-Pa55";
const tag = `ID${randomBytes(3).toString("hex").toUpperCase()}`;
const servers = useVendorServers("incoming-deliveries", PASSWORD, { as400: true });
let vendors = 0;

const dir = (...parts: string[]) => path.join(servers.root, ...parts);
/** Every file under the server's root, as server paths: nothing may appear outside the folders a test expects. */
const allFiles = (folder = servers.root): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? allFiles(path.join(folder, entry.name)) : [path.relative(servers.root, path.join(folder, entry.name))],
  );

function createVendor(overrides: Partial<Vendor> = {}) {
  const server = { root: servers.root, port: servers.sftp.port, hostKey: servers.sftp.hostKey, password: PASSWORD };
  return createLoopbackVendor(server, `${tag}${++vendors}`, { edi_format: 0, regex_format: "\\.(edi|csv)$", edi846_enabled: 1, ...overrides });
}

const incoming = (vendor: Vendor, ...name: string[]) => dir(vendor.sftp_incoming_folder!.slice(1), ...name);
const stockOf = async (vendor: Vendor, sku: string) =>
  (await prisma.sourceStock.findUnique({ where: { source_code_sku: { source_code: vendor.store_id, sku } } }))?.quantity ?? null;

/**
 * Populate then Process Ship Responses, as the scheduler runs them, for this test's vendor only:
 * other test files' vendors share the database, and their files would change the counts.
 */
async function receive(vendor: Pick<Vendor, "id">) {
  const populated = await populateShipResponses({ vendorId: vendor.id });
  const processed = await processShipResponses({ vendorId: vendor.id });
  return { populated, processed };
}

afterAll(async () => {
  for (const key of ["AS400_TRANSFER_MECHANISM", "AS400_HOST", "AS400_PORT", "AS400_USER", "AS400_PASSWORD", "AS400_HOST_KEY"]) delete process.env[key];
  reloadEnv();
  await prisma.product.deleteMany({ where: { sku: { startsWith: tag } } });
});

describe("a delivery is the file, not its content (D59)", () => {
  it("applies a vendor's 846 that goes 5, then 0, then 5 again: the stock ends at 5", async () => {
    const vendor = await createVendor();
    for (const [round, quantity] of [5, 0, 5].entries()) {
      writeFileSync(incoming(vendor, "stock.csv"), `sku,quantity\nX,${quantity}\n`);
      const { populated } = await receive(vendor);
      expect(populated.message, `round ${round + 1}`).toMatch(/^1 new file stored/);
      expect(await stockOf(vendor, "X"), `round ${round + 1}`).toBe(quantity);
    }
    expect(await prisma.transmission.count({ where: { vendor_id: vendor.id, direction: "in", status: "processed" } })).toBe(3);
    expect(readdirSync(incoming(vendor, "archive"))).toHaveLength(3);
  });

  it("only releases a file taken before whose archiving failed; it is not applied twice", async () => {
    const vendor = await createVendor();
    writeFileSync(incoming(vendor, "stock_1.csv"), "sku,quantity\nY,7\n");
    servers.sftp.faults.denyWrite(vendor.sftp_incoming_folder!);
    try {
      const first = await receive(vendor);
      expect(first.populated.message).toMatch(/^1 new file stored .*stored but not released/);
    } finally {
      servers.sftp.faults.denyWrite(null);
    }
    expect(await stockOf(vendor, "Y")).toBe(7);
    // Staff (or a later file) move the stock on; the same file listed again must not put it back.
    await prisma.sourceStock.update({ where: { source_code_sku: { source_code: vendor.store_id, sku: "Y" } }, data: { quantity: 3 } });
    const second = await receive(vendor);
    expect(second.populated.message).toMatch(/^0 new files stored .*1 file already stored before/);
    expect(await stockOf(vendor, "Y")).toBe(3);
    expect(existsSync(incoming(vendor, "stock_1.csv"))).toBe(false);
    expect(readdirSync(incoming(vendor, "archive"))).toEqual(["stock_1.csv"]);
    const stored = await prisma.transmission.findMany({ where: { vendor_id: vendor.id, direction: "in" } });
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ status: "processed", released_to: `${vendor.sftp_incoming_folder}/archive/stock_1.csv` });
    expect(stored[0].released_at).not.toBeNull();
    expect(await prisma.dropshipLog.count({ where: { vendor_id: vendor.id, file_name: "stock_1.csv", message: { contains: "taken before" } } })).toBe(1);
  });

  it("applies an AS400 catalogue price that goes 10, then 12, then 10 again: the price ends at 10", async () => {
    const sku = `${tag}-LAMP`;
    const folder = dir(PRODUCT_CATALOG_FOLDER.slice(1));
    mkdirSync(folder, { recursive: true });
    for (const [round, price] of ["10.00", "12.00", "10.00"].entries()) {
      writeFileSync(path.join(folder, `${tag}_catalog.csv`), `sku,name,price\n${sku},Lamp,${price}\n`);
      const report: CatalogReport = { counts: {}, problems: [] };
      await importProductCatalogFiles(report);
      expect(report.problems, `round ${round + 1}`).toEqual([]);
      expect(report.counts, `round ${round + 1}`).toMatchObject({ catalog_files_stored: 1 });
      expect((await prisma.product.findUniqueOrThrow({ where: { sku } })).price.toFixed(2), `round ${round + 1}`).toBe(price);
    }
  });
});

describe("a file still being written is left (D60)", () => {
  it("leaves a vendor's file that grows between the two listings, and takes it at the next run", async () => {
    const vendor = await createVendor();
    const folder = vendor.sftp_incoming_folder!;
    writeFileSync(incoming(vendor, "stock.csv"), "sku,quantity\nA,1\n");
    let listings = 0;
    servers.sftp.faults.beforeListing((serverPath) => {
      if (serverPath === folder && ++listings === 2) appendFileSync(incoming(vendor, "stock.csv"), "B,2\n");
    });
    try {
      const first = await receive(vendor);
      expect(listings).toBe(2);
      expect(first.populated.message).toMatch(/^0 new files stored .*1 file still being written \(left for the next run\)/);
      expect(first.populated.error).toBe(false);
      expect(readdirSync(incoming(vendor))).toContain("stock.csv");
      expect(await prisma.dropshipLog.count({ where: { vendor_id: vendor.id, file_name: "stock.csv", message: { contains: "still being written" } } })).toBe(1);
      expect(await prisma.transmission.count({ where: { vendor_id: vendor.id, direction: "in" } })).toBe(0);

      // Finished now: unchanged since the first run's second listing, which was kept as its sighting, so taken
      // whole after one more listing: that listing and the sighting are the two that agree (D60, D252).
      const second = await receive(vendor);
      expect(second.populated.message).toMatch(/^1 new file stored/);
      expect(listings).toBe(3);
      expect([await stockOf(vendor, "A"), await stockOf(vendor, "B")]).toEqual([1, 2]);
    } finally {
      servers.sftp.faults.beforeListing(null);
    }
  });

  it("takes a file older than the vendor's minimum age after one listing", async () => {
    const vendor = await createVendor({ incoming_min_age_seconds: 600 });
    writeFileSync(incoming(vendor, "stock.csv"), "sku,quantity\nC,4\n");
    const older = new Date(Date.now() - 900_000);
    utimesSync(incoming(vendor, "stock.csv"), older, older);
    let listings = 0;
    servers.sftp.faults.beforeListing((serverPath) => {
      if (serverPath === vendor.sftp_incoming_folder) listings++;
    });
    try {
      expect((await receive(vendor)).populated.message).toMatch(/^1 new file stored/);
      expect(listings).toBe(1);
      expect(await stockOf(vendor, "C")).toBe(4);
    } finally {
      servers.sftp.faults.beforeListing(null);
    }
  });

  it("leaves an AS400 file that grows between the two listings, counted in the feed's meta", async () => {
    const folder = dir(PRODUCT_CATALOG_FOLDER.slice(1));
    mkdirSync(folder, { recursive: true });
    const name = `${tag}_growing.csv`;
    writeFileSync(path.join(folder, name), `sku,name,price\n${tag}-G1,Growing,1.00\n`);
    let listings = 0;
    servers.sftp.faults.beforeListing((serverPath) => {
      if (serverPath === PRODUCT_CATALOG_FOLDER && ++listings === 2) appendFileSync(path.join(folder, name), `${tag}-G2,Growing,2.00\n`);
    });
    try {
      const report: CatalogReport = { counts: {}, problems: [] };
      await importProductCatalogFiles(report);
      expect(report.counts).toMatchObject({ catalog_files_still_changing: 1 });
      expect(report.counts.catalog_files_stored).toBeUndefined();
      expect(readdirSync(folder)).toContain(name);
      const again: CatalogReport = { counts: {}, problems: [] };
      await importProductCatalogFiles(again);
      expect(again.counts).toMatchObject({ catalog_files_stored: 1 });
      expect(await prisma.product.count({ where: { sku: { in: [`${tag}-G1`, `${tag}-G2`] } } })).toBe(2);
    } finally {
      servers.sftp.faults.beforeListing(null);
    }
  });
});

describe("a file that grows between runs is left until it stops (D181)", () => {
  it("leaves an AS400 file the exchange writes to between runs, pausing longer than the settle pause, and takes it whole", async () => {
    const folder = dir(PRODUCT_CATALOG_FOLDER.slice(1));
    mkdirSync(folder, { recursive: true });
    const name = `${tag}_slow.csv`;
    writeFileSync(path.join(folder, name), `sku,name,price\n${tag}-S1,Slow,1.00\n`);
    let listings = 0;
    servers.sftp.faults.beforeListing((serverPath) => {
      if (serverPath === PRODUCT_CATALOG_FOLDER && ++listings === 2) appendFileSync(path.join(folder, name), `${tag}-S2,Slow,2.00\n`);
    });
    try {
      const first: CatalogReport = { counts: {}, problems: [] };
      await importProductCatalogFiles(first);
      expect(first.counts).toMatchObject({ catalog_files_still_changing: 1 });
      servers.sftp.faults.beforeListing(null);
      // The writer pauses a whole run, then writes on: both listings of the next run agree, yet the file grew since the last run.
      appendFileSync(path.join(folder, name), `${tag}-S3,Slow,3.00\n`);
      const second: CatalogReport = { counts: {}, problems: [] };
      await importProductCatalogFiles(second);
      expect(second.counts).toMatchObject({ catalog_files_still_changing: 1 });
      expect(second.counts.catalog_files_stored).toBeUndefined();
      expect(readdirSync(folder)).toContain(name);
      const third: CatalogReport = { counts: {}, problems: [] };
      await importProductCatalogFiles(third);
      expect(third.counts).toMatchObject({ catalog_files_stored: 1 });
      expect(await prisma.product.count({ where: { sku: { in: [`${tag}-S1`, `${tag}-S2`, `${tag}-S3`] } } })).toBe(3);
    } finally {
      servers.sftp.faults.beforeListing(null);
    }
  });
});

describe("names from listings are data, not paths (D61)", () => {
  it("stores a name a listing gives twice as two deliveries, each with its own content", async () => {
    const vendor = await createVendor();
    const files = ["first", "second", "other"].map((text, i) => ({
      name: i < 2 ? "twice.csv" : "once.csv",
      path: i < 2 ? "/out/twice.csv" : "/out/once.csv",
      content: Buffer.from(`sku,quantity\n${text},1\n`),
      transactionSet: "846",
    }));
    const stored = await storeIncomingFiles(vendor, files);
    expect(stored.every((each) => each.isNew)).toBe(true);
    expect(new Set(stored.map((each) => each.id)).size).toBe(3);
    const rows = await prisma.transmission.findMany({ where: { id: { in: stored.map((each) => each.id) } } });
    for (const [i, each] of stored.entries()) {
      expect(Buffer.from(rows.find((row) => row.id === each.id)!.content!).toString()).toBe(files[i].content.toString());
    }
  });

  const hostile = ["../../eod/EOD_BATCH_x.csv", "a\\b.edi", "stock\n.csv", `${"n".repeat(296)}.csv`];

  it("refuses a vendor's hostile names in one line naming how many and the first, leaves them, and takes the files behind them", async () => {
    const vendor = await createVendor({ edi846_as400_filepath: "stock" });
    mkdirSync(dir("as400", "inventory", "stock"), { recursive: true });
    servers.sftp.faults.injectListing(
      vendor.sftp_incoming_folder!,
      hostile.map((name) => ({ name, size: 20 })),
    );
    writeFileSync(incoming(vendor, "zz_stock.csv"), "sku,quantity\nZ,9\n");
    const before = allFiles();
    try {
      const { populated, processed } = await receive(vendor);
      expect(populated.error).toBe(true);
      expect(populated.meta).toMatchObject({ names_refused: 4, files_stored: 1 });
      // One problem and one log line for the batch (D180), not one per name: a server listing 50,000 names wrote 50,000 rows.
      expect(populated.meta.problems).toEqual([
        `4 names in ${vendor.sftp_incoming_folder} refused as paths; first: "../../eod/EOD_BATCH_x.csv" (it contains a slash); left on the server`,
      ]);
      const refusals = await prisma.dropshipLog.findMany({ where: { vendor_id: vendor.id, action: "receive_file", status: "error" } });
      expect(refusals).toHaveLength(1);
      expect(refusals[0]!.message).toContain(`4 names listed in ${vendor.sftp_incoming_folder} are refused as paths; first: "../../eod/EOD_BATCH_x.csv"`);
      // The file behind them was taken and applied, and its AS400 copy went where it should.
      expect(await stockOf(vendor, "Z")).toBe(9);
      expect(processed.error).toBe(false);
      expect(readdirSync(dir("as400", "inventory", "stock"))).toEqual(["zz_stock.csv"]);
      // Nothing written anywhere else: only the archive move and the copy are new.
      expect(
        allFiles()
          .filter((file) => !before.includes(file))
          .sort(),
      ).toEqual([path.join(vendor.sftp_incoming_folder!.slice(1), "archive", "zz_stock.csv"), path.join("as400", "inventory", "stock", "zz_stock.csv")].sort());
      expect(existsSync(dir("eod"))).toBe(false);
      expect(await prisma.transmission.count({ where: { vendor_id: vendor.id, direction: "in" } })).toBe(1);
    } finally {
      servers.sftp.faults.injectListing(vendor.sftp_incoming_folder!, []);
    }
  });

  it("never copies a stored file whose name is a path to the AS400", async () => {
    // A file stored before names were checked, with the name of the example.
    const vendor = await createVendor({ edi846_as400_filepath: "stock2" });
    const content = Buffer.from("sku,quantity\nQ,2\n");
    const stored = await prisma.transmission.create({
      data: {
        vendor_id: vendor.id,
        partner: "vendor",
        direction: "in",
        file_name: "../../eod/EOD_BATCH_1.csv",
        remote_path: "/x",
        transaction_set: "846",
        content_hash: "legacy",
        content: new Uint8Array(content),
        size: content.length,
        status: "received",
        transaction_control_numbers: [],
      },
    });
    const before = allFiles();
    await processShipResponses({ vendorId: vendor.id });
    expect(await stockOf(vendor, "Q")).toBe(2);
    expect(await prisma.transmission.count({ where: { partner: "as400", reply_to_id: stored.id } })).toBe(0);
    expect(allFiles()).toEqual(before);
    const line = await prisma.dropshipLog.findFirstOrThrow({ where: { transmission_id: stored.id, action: "as400_copy" } });
    expect(line).toMatchObject({ status: "error" });
    expect(line.message).toContain("not copied to the AS400");
  });

  it("refuses the AS400's hostile names and still takes the files behind them", async () => {
    const folder = dir(PRODUCT_CATALOG_FOLDER.slice(1));
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, `${tag}_after.csv`), `sku,name,price\n${tag}-H1,Behind,3.00\n`);
    servers.sftp.faults.injectListing(
      PRODUCT_CATALOG_FOLDER,
      hostile.map((name) => ({ name })),
    );
    const before = allFiles();
    try {
      const report: CatalogReport = { counts: {}, problems: [] };
      await importProductCatalogFiles(report);
      expect(report.problems).toHaveLength(1);
      // Problems are codes (D116); their English is what the feed log keeps. One for the batch (D180).
      expect(englishText(report.problems[0]!)).toBe(
        '4 names refused as paths; first: "../../eod/EOD_BATCH_x.csv" (it contains a slash); they are left on the server',
      );
      expect(report.counts).toMatchObject({ catalog_files_stored: 1 });
      expect((await prisma.product.findUniqueOrThrow({ where: { sku: `${tag}-H1` } })).price.toFixed(2)).toBe("3.00");
      expect(allFiles().filter((file) => !before.includes(file))).toEqual([path.join("as400", "products", "archive", `${tag}_after.csv`)]);
    } finally {
      servers.sftp.faults.injectListing(PRODUCT_CATALOG_FOLDER, []);
    }
  });
});

describe("AS400 copies stay in their set's folder and replace nothing (D196)", () => {
  const sales = (...name: string[]) => dir("as400", "realtime", "sales", ...name);

  it("never writes a vendor's 846 among the AS400's own files, whatever its stored path says", async () => {
    // The repro: a path saved before paths were confined, and an 846 named like the pending sales file.
    const vendor = await createVendor({ edi846_as400_filepath: "/as400/realtime/sales" });
    mkdirSync(sales(), { recursive: true });
    writeFileSync(sales(`${tag}_SALES.csv`), "the AS400's sales file");
    writeFileSync(incoming(vendor, `${tag}_SALES.csv`), "sku,quantity\nR,4\n");
    await receive(vendor);
    expect(await stockOf(vendor, "R")).toBe(4);
    expect(readFileSync(sales(`${tag}_SALES.csv`), "utf8")).toBe("the AS400's sales file");
    const line = await prisma.dropshipLog.findFirstOrThrow({ where: { vendor_id: vendor.id, action: "as400_copy" } });
    expect(line).toMatchObject({ status: "error" });
    expect(line.message).toContain("not copied to the AS400");
  });

  it("refuses a copy queued outside its root, and fails a copy whose name is taken, logged as a failure and retried", async () => {
    const vendor = await createVendor({ edi846_as400_filepath: "stock3" });
    // Queued before the upgrade, with the path the vendor had then.
    const outside = await storePreparedFile({
      vendorId: vendor.id,
      partner: "as400",
      remotePath: `/as400/realtime/sales/${tag}_OLD.csv`,
      transactionSet: "846",
      content: Buffer.from("sku,quantity\nS,1\n"),
    });
    // A file of the AS400's already under the name the next copy takes.
    mkdirSync(dir("as400", "inventory", "stock3"), { recursive: true });
    writeFileSync(dir("as400", "inventory", "stock3", "taken.csv"), "not ours");
    writeFileSync(incoming(vendor, "taken.csv"), "sku,quantity\nT,2\n");
    await receive(vendor);
    expect(existsSync(sales(`${tag}_OLD.csv`))).toBe(false);
    expect(readFileSync(dir("as400", "inventory", "stock3", "taken.csv"), "utf8")).toBe("not ours");
    const copies = await prisma.transmission.findMany({ where: { vendor_id: vendor.id, partner: "as400" }, orderBy: { id: "asc" } });
    expect(copies.map((copy) => [copy.id === outside!.id ? "outside" : copy.file_name, copy.status, copy.attempts])).toEqual([
      ["outside", "prepared", 1],
      ["taken.csv", "prepared", 1],
    ]);
    const failures = await prisma.dropshipLog.findMany({ where: { vendor_id: vendor.id, action: "as400_copy", status: "error" }, orderBy: { id: "asc" } });
    expect(failures.map((line) => line.message)).toEqual([
      expect.stringContaining("is outside /as400/inventory"),
      expect.stringContaining("A file named taken.csv is already in /as400/inventory/stock3; it was not replaced"),
    ]);
  });
});
