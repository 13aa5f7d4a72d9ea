// An upload lease names the run that holds it (issue 28 item 8, D184). After
// the app was killed mid-upload, Send Ship Requests said "0 files sent" for ten
// minutes with no reason, though the run holding the lease was known dead: its
// feed's lock went with its process. Now such a lease is taken at once, and a
// file a live run holds is named in the summary with the run that holds it.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { LOCK_KEYS } from "../../app/db/lock-keys";
import { StepReport } from "../../app/dropship/flow/context.server";
import { deliverVendorFiles } from "../../app/dropship/flow/outbound.server";
import { englishText } from "../../app/i18n/english.server";
import { withLogContext } from "../../app/observability/context.server";
import { storePreparedFile } from "../../app/transfers/outgoing-files.server";
import { claimUpload, uploadHolder } from "../../app/transfers/upload-lease.server";
import type { VendorTransport } from "@edi/transport";

const FEED = "send_ship_requests_lease_test";
let holder: pg.Client;
let vendorId: number;

beforeAll(async () => {
  holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await holder.connect();
  const vendor = await prisma.vendor.create({ data: { name: "Lease Holder Co", store_id: `LH${Date.now() % 100000}`, sftp_host: "127.0.0.1" } });
  vendorId = vendor.id;
});

afterAll(async () => {
  await holder.end();
  await prisma.transmission.deleteMany({ where: { vendor_id: vendorId } });
  await prisma.feedLog.deleteMany({ where: { feed_name: FEED } });
  await prisma.vendor.delete({ where: { id: vendorId } });
});

let files = 0;
async function preparedFile() {
  const stored = await storePreparedFile({
    vendorId,
    partner: "vendor",
    remotePath: `/in/850_lease_${++files}_${Date.now()}.edi`,
    transactionSet: "850",
    content: Buffer.from(`lease ${files}`),
  });
  return stored!;
}

/** A run of the feed: its starting log, as the feed runner writes it. */
const startedRun = async () => (await prisma.feedLog.create({ data: { feed_name: FEED, type: "starting" } })).id;
const lockFeed = () => holder.query("SELECT pg_advisory_lock($1, hashtext($2))", [LOCK_KEYS.feedRun, `feed:${FEED}`]);
const unlockFeed = () => holder.query("SELECT pg_advisory_unlock($1, hashtext($2))", [LOCK_KEYS.feedRun, `feed:${FEED}`]);

describe("the upload lease's holder (D184)", () => {
  it("takes at once a lease whose run died (its feed's lock is held by nobody)", async () => {
    const file = await preparedFile();
    const deadRun = await startedRun();
    // The dead run claimed it a moment ago (the process was killed mid-upload; its lock went with it).
    expect(await withLogContext({ feed: FEED, run_id: deadRun }, () => claimUpload(file.id))).not.toBeNull();
    const next = await withLogContext({ feed: FEED, run_id: deadRun + 1000 }, () => claimUpload(file.id));
    expect(next).not.toBeNull();
  });

  it("takes at once a lease whose run's end is logged, even while a later run of its feed holds the lock", async () => {
    const file = await preparedFile();
    const earlier = await startedRun();
    expect(await withLogContext({ feed: FEED, run_id: earlier }, () => claimUpload(file.id))).not.toBeNull();
    await prisma.feedLog.create({ data: { feed_name: FEED, type: "failed", meta: { started_log_id: earlier } } });
    await lockFeed();
    try {
      expect(await claimUpload(file.id)).not.toBeNull();
    } finally {
      await unlockFeed();
    }
  });

  it("leaves a file a live run holds, and the summary says which run holds it", async () => {
    const file = await preparedFile();
    const liveRun = await startedRun();
    await lockFeed();
    try {
      expect(await withLogContext({ feed: FEED, run_id: liveRun }, () => claimUpload(file.id))).not.toBeNull();
      expect(await claimUpload(file.id)).toBeNull();
      expect(await uploadHolder(file.id)).toMatchObject({ feed: FEED, runId: liveRun });
      // Send Ship Requests' upload of the vendor's files: nothing is uploaded, and the report says why.
      const report = new StepReport();
      const transport = { inFlight: 1, upload: () => Promise.reject(new Error("must not upload a held file")) } as unknown as VendorTransport;
      const vendor = await prisma.vendor.findUniqueOrThrow({ where: { id: vendorId } });
      await prisma.transmission.updateMany({ where: { vendor_id: vendorId, status: "prepared", id: { not: file.id } }, data: { status: "sent" } });
      await deliverVendorFiles(vendor, transport, report);
      expect(report.counts).toMatchObject({ files_held: 1 });
      expect(englishText(report.notes[0]!)).toMatch(new RegExp(`^${file.file_name} not sent: run ${liveRun} \\(${FEED}, started \\d{4}-\\d\\d-\\d\\dT`));
    } finally {
      await unlockFeed();
    }
  });
});
