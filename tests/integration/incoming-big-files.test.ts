// A big vendor download is stored in slices (issue 28, D221): the stored row
// holds the file byte for byte with its sha256 and size, alone or in a batch
// beside small files, and a store cut between slices (its database connection
// killed, as when the app or PostgreSQL dies) leaves no row at all: the file is
// still on the vendor's server and is taken whole next run.
import { createHash, randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { storeIncomingFile, storeIncomingFiles } from "../../app/dropship/flow/populate-responses.server";
import { storeInboundFile } from "../../app/as400/inbound-files.server";
import { createLoopbackVendor } from "../support/loopback-vendor";

const tag = `BF${randomBytes(3).toString("hex").toUpperCase()}`;
let vendors = 0;
const createVendor = () => createLoopbackVendor({ root: `/tmp/${tag.toLowerCase()}`, port: 22, password: "unused" }, `${tag}${++vendors}`);
const sha256 = (content: Buffer) => createHash("sha256").update(content).digest("hex");

async function storedRow(id: number) {
  return prisma.transmission.findUniqueOrThrow({ where: { id }, select: { content: true, content_hash: true, size: true, status: true } });
}

afterAll(async () => {
  await prisma.transmission.deleteMany({ where: { vendor: { store_id: { startsWith: tag } } } });
});

describe("a big incoming file", () => {
  it("is stored byte for byte with its sha256 and size, and found again as the delivery taken before", async () => {
    const vendor = await createVendor();
    const content = randomBytes(5 * 1024 * 1024 + 123);
    const file = { name: "big.edi", path: "/big/outbound/big.edi", content, transactionSet: "856", modifiedAt: new Date("2026-11-27T10:00:00Z") };
    const stored = await storeIncomingFile(vendor, file);
    expect(stored.isNew).toBe(true);
    const row = await storedRow(stored.id);
    expect(row.size).toBe(content.length);
    expect(row.content_hash).toBe(sha256(content));
    expect(Buffer.from(row.content!).equals(content)).toBe(true);
    // Listed again (its archiving failed): the same delivery, not a second row.
    expect(await storeIncomingFile(vendor, file)).toEqual({ id: stored.id, isNew: false });
  });

  it("is stored whole in a batch beside small files, each in its own row and order", async () => {
    const vendor = await createVendor();
    const sizes = [100, 3 * 1024 * 1024 + 7, 256 * 1024, 256 * 1024 - 1, 2 * 1024 * 1024];
    const files = sizes.map((size, i) => ({ name: `f${i}.csv`, path: `/b/f${i}.csv`, content: randomBytes(size), transactionSet: "846" }));
    const stored = await storeIncomingFiles(vendor, files);
    for (const [i, each] of stored.entries()) {
      const row = await storedRow(each.id);
      expect(row.size).toBe(sizes[i]);
      expect(row.content_hash).toBe(sha256(files[i].content));
      expect(Buffer.from(row.content!).equals(files[i].content)).toBe(true);
    }
  });

  it("leaves no row when its store is cut between slices", async () => {
    const vendor = await createVendor();
    const content = randomBytes(24 * 1024 * 1024);
    const path = "/cut/outbound/cut.edi";
    // The store's connection is killed once it has written a slice (and before the last: 24 of them).
    let killed = 0;
    const killer = (async () => {
      for (let tries = 0; tries < 20_000 && killed === 0; tries++) {
        const rows = await prisma.$queryRaw<Array<{ killed: boolean }>>`
          SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity
           WHERE pid <> pg_backend_pid() AND query LIKE 'INSERT INTO incoming_content_slice%' AND xact_start IS NOT NULL`;
        killed += rows.filter((row) => row.killed).length;
      }
    })();
    await expect(storeIncomingFile(vendor, { name: "cut.edi", path, content, transactionSet: "856" })).rejects.toThrow();
    await killer;
    expect(killed).toBe(1);
    expect(await prisma.transmission.count({ where: { vendor_id: vendor.id, remote_path: path } })).toBe(0);
    // Next run takes it whole.
    const stored = await storeIncomingFile(vendor, { name: "cut.edi", path, content, transactionSet: "856" });
    expect(stored.isNew).toBe(true);
    expect(Buffer.from((await storedRow(stored.id)).content!).equals(content)).toBe(true);
  });

  it("from the AS400 is stored the same way", async () => {
    const content = randomBytes(1024 * 1024 + 5);
    const kind = { partner: "as400", transactionSet: `T${tag}`, storeLockNamespace: 1 } as Parameters<typeof storeInboundFile>[0];
    const stored = await storeInboundFile(kind, "sales.csv", `/as400/${tag}/sales.csv`, content);
    const row = await storedRow(stored.transmissionId);
    expect(row.size).toBe(content.length);
    expect(row.content_hash).toBe(sha256(content));
    expect(Buffer.from(row.content!).equals(content)).toBe(true);
    await prisma.transmission.delete({ where: { id: stored.transmissionId } });
  });
});
