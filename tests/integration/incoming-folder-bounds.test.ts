// What a run takes from a vendor's folder (issue 28 items 2 and 7, D180, D181):
// at most MAX_FILES_PER_FOLDER files a run, oldest first, the rest next run;
// and a file that changes on the server after it was taken is not archived
// (the vendor would go on writing into the archived copy) but taken again, as a
// new delivery, at the next run. Real loopback SFTP server and database; the
// vendor's writing "while we download" is a hook on the transport's download.
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, readFileSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { Vendor } from "../../app/db/generated/client";
import { createLoopbackVendor } from "../support/loopback-vendor";
import { useVendorServers } from "../support/vendor-servers";

// After a download of the armed path completes, the vendor writes more into the file.
let afterDownload: { path: string; write: () => void } | null = null;
vi.mock("@edi/transport", async (importOriginal) => {
  const original = await importOriginal<typeof import("@edi/transport")>();
  return {
    ...original,
    withTransport: (settings: Parameters<typeof original.withTransport>[0], work: Parameters<typeof original.withTransport>[1]) =>
      original.withTransport(settings, (transport) =>
        work(
          Object.assign(Object.create(transport) as typeof transport, {
            download: async (remotePath: string, expectedSize?: number) => {
              const content = await transport.download(remotePath, expectedSize);
              if (afterDownload?.path === remotePath) {
                afterDownload.write();
                afterDownload = null;
              }
              return content;
            },
          }),
        ),
      ),
  };
});

const PASSWORD = "Bounds-Pa55";
const tag = `FB${randomBytes(2).toString("hex").toUpperCase()}`;
const servers = useVendorServers("incoming-folder-bounds", PASSWORD);
let vendors = 0;

const prismaModule = () => import("../../app/db.server").then((module) => module.default);
const createVendor = () =>
  createLoopbackVendor({ root: servers.root, port: servers.sftp.port, hostKey: servers.sftp.hostKey, password: PASSWORD }, `${tag}${++vendors}`, {
    edi_format: 0,
    regex_format: "\\.csv$",
    edi846_enabled: 1,
  });
const incoming = (vendor: Vendor, ...name: string[]) => path.join(servers.root, vendor.sftp_incoming_folder!.slice(1), ...name);

afterAll(async () => {
  delete process.env.MAX_FILES_PER_FOLDER;
  (await import("../../app/env.server")).reloadEnv();
});

describe("a vendor's folder, bounded per run (D180)", () => {
  it("takes MAX_FILES_PER_FOLDER files a run, oldest first, and says how many are left", async () => {
    const prisma = await prismaModule();
    const { populateShipResponses } = await import("../../app/dropship/flow/populate-responses.server");
    process.env.MAX_FILES_PER_FOLDER = "2";
    (await import("../../app/env.server")).reloadEnv();
    const vendor = await createVendor();
    // Names against their age: z is the oldest, a the newest.
    const names = ["z.csv", "y.csv", "b.csv", "a.csv"];
    names.forEach((name, i) => {
      writeFileSync(incoming(vendor, name), `sku,quantity\n${name},${i}\n`);
      const when = new Date(Date.now() - (10 - i) * 3_600_000);
      utimesSync(incoming(vendor, name), when, when);
    });
    const first = await populateShipResponses({ vendorId: vendor.id });
    expect(first.meta).toMatchObject({ files_stored: 2, files_left_for_next_run: 2 });
    const stored = async () => (await prisma.transmission.findMany({ where: { vendor_id: vendor.id }, orderBy: { id: "asc" } })).map((t) => t.file_name);
    expect(await stored()).toEqual(["z.csv", "y.csv"]);
    const line = await prisma.dropshipLog.findFirstOrThrow({ where: { vendor_id: vendor.id, message: { contains: "left for the next run" } } });
    expect(line.message).toBe(`2 more files in ${vendor.sftp_incoming_folder} are left for the next run (at most 2 a run, oldest first).`);
    await populateShipResponses({ vendorId: vendor.id });
    expect(await stored()).toEqual(["z.csv", "y.csv", "b.csv", "a.csv"]);
    delete process.env.MAX_FILES_PER_FOLDER;
    (await import("../../app/env.server")).reloadEnv();
  });
});

describe("a file changed after it was taken (D181)", () => {
  it("is not archived, and is taken again whole, as a new delivery, at the next run", async () => {
    const prisma = await prismaModule();
    const { populateShipResponses } = await import("../../app/dropship/flow/populate-responses.server");
    const vendor = await createVendor();
    const file = incoming(vendor, "stock.csv");
    writeFileSync(file, "sku,quantity\nA,1\n");
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(file, old, old);
    afterDownload = { path: `${vendor.sftp_incoming_folder}/stock.csv`, write: () => appendFileSync(file, "B,2\n") };
    await populateShipResponses({ vendorId: vendor.id });
    expect(afterDownload).toBeNull();
    // Stored as it was downloaded, but left in place: the vendor was still writing.
    expect(existsSync(file)).toBe(true);
    expect(existsSync(incoming(vendor, "archive", "stock.csv"))).toBe(false);
    const line = await prisma.dropshipLog.findFirstOrThrow({
      where: { vendor_id: vendor.id, message: { contains: "changed on the server after it was taken" } },
    });
    expect(line.message).toContain("(17 bytes stored, 21 there now)");
    // The next run takes the whole file as a new delivery and archives it.
    await populateShipResponses({ vendorId: vendor.id });
    const stored = await prisma.transmission.findMany({ where: { vendor_id: vendor.id, direction: "in" }, orderBy: { id: "asc" } });
    expect(stored.map((t) => Buffer.from(t.content!).toString())).toEqual(["sku,quantity\nA,1\n", "sku,quantity\nA,1\nB,2\n"]);
    expect(readFileSync(incoming(vendor, "archive", "stock.csv"), "utf8")).toBe("sku,quantity\nA,1\nB,2\n");
    expect(readdirSync(incoming(vendor))).toEqual(["archive"]);
  });
});
