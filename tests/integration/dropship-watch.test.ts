// Two-minute freshness (issue 31 item 5, D250–D252), against a real loopback SFTP
// server, the database and the Shopify stand-in: one run of the minute watch takes
// a vendor's 856 to a Shopify fulfilment, and a new assignment to its 850 on the
// vendor's server; it downloads nothing itself; a vendor that is down fails alone;
// a chained step running elsewhere still runs after it ends; a disabled one is not run.
import { existsSync, readdirSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import type { Vendor } from "../../app/db/generated/client";
import { LOCK_KEYS } from "../../app/db/lock-keys";
import { populateShipRequests } from "../../app/dropship/flow/populate-requests.server";
import { sendShipRequests } from "../../app/dropship/flow/send-requests.server";
import { runStepChain } from "../../app/dropship/flow/steps.server";
import { DROPSHIP_WATCH_FEED, dropshipWatchJob } from "../../app/dropship/flow/watch.server";
import { closeFeedPool, runFeed } from "../../app/feeds/runner.server";
import { freePort } from "../support/app-server";
import { createLoopbackVendor } from "../support/loopback-vendor";
import { createPendingAssignment } from "../support/pending-assignment";
import { until } from "../support/until";
import { answerPurchaseOrders, dropAnswers, purchaseOrderFiles, serverFolder } from "../support/vendor-answers";
import { useVendorServers } from "../support/vendor-servers";

const PASSWORD = "Watch-Pa55word";
const servers = useVendorServers("dropship-watch", PASSWORD);
let nextOrder = 0;

function createVendor(storeId: string, overrides: Partial<Vendor> = {}) {
  const x12 = { edi_format: 1, edi_identifier: `${storeId}EDI`, edi_qualifier: "ZZ", regex_format: "\\.(edi|csv)$", edi997_enabled: 1 };
  const server = { root: servers.root, port: servers.sftp.port, hostKey: servers.sftp.hostKey, password: PASSWORD };
  return createLoopbackVendor(server, storeId, { ...x12, edi810_enabled: 0, edi846_enabled: 0, ...overrides }, `Watch ${storeId}`);
}

function pendingAssignment(vendor: Vendor, sku: string) {
  nextOrder++;
  return createPendingAssignment(prisma, {
    orderId: `93000${nextOrder}`,
    shopifyOrderId: String(9300000 + nextOrder),
    sku,
    qty: 1,
    storeId: vendor.store_id,
    vendorName: vendor.name,
  });
}

/** A vendor with one PO sent to it and its answers (997, 855, 856) on its server, not yet taken. */
async function answeredVendor(storeId: string, controlNumberStart: number) {
  const vendor = await createVendor(storeId);
  await pendingAssignment(vendor, `${storeId}-SKU`);
  await populateShipRequests();
  await sendShipRequests();
  const answers = answerPurchaseOrders(servers.root, vendor, { controlNumberStart });
  for (const answer of answers) dropAnswers(servers.root, vendor, answer);
  return vendor;
}

/** One run of the watch feed, as its cron or Run Feed starts it. */
const watch = () => runFeed(DROPSHIP_WATCH_FEED.name, dropshipWatchJob, { trigger: "manual", defaultCron: DROPSHIP_WATCH_FEED.defaultCron });

const incomingFiles = (vendor: Vendor) => {
  const folder = serverFolder(servers.root, vendor.sftp_incoming_folder!);
  return existsSync(folder) ? readdirSync(folder).filter((name) => name !== "archive") : [];
};

async function fulfilments() {
  const calls = (await (await fetch(`${servers.standIn.url}/__calls`)).json()) as Array<{ operation: string }>;
  return calls.filter((call) => call.operation === "FulfillmentCreate");
}

/** The feed's logs, as "type/trigger". */
async function feedLogs(feed: string) {
  const logs = await prisma.feedLog.findMany({ where: { feed_name: feed }, orderBy: { id: "asc" } });
  return logs.map((log) => `${log.type}/${(log.meta as { trigger?: string }).trigger ?? ""}`);
}

/** Holds a feed's lock from another session, as a run of it on another instance does. */
async function holdFeedLock(feed: string) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query("SELECT pg_advisory_lock($1, hashtext($2))", [LOCK_KEYS.feedRun, `feed:${feed}`]);
  return { release: () => client.end() };
}

beforeEach(async () => {
  await prisma.$executeRawUnsafe(
    `TRUNCATE dropship_cancellation, dropship_response, dropship_request, dropship_log, transmission, dnh_transfer, assignment, order_item, order_grid,
      dropship_vendor, inventory_source_item, inventory_source, feed_log, feed, incoming_file_sighting, partner_contact RESTART IDENTITY CASCADE`,
  );
  await fetch(`${servers.standIn.url}/__state`, { method: "DELETE" });
});

afterAll(async () => {
  await closeFeedPool();
});

describe("the minute watch (D252)", () => {
  it("takes a vendor's 856 to a Shopify fulfilment in one run: Take, then Process, chained", async () => {
    const vendor = await answeredVendor("WTA", 700);
    expect(incomingFiles(vendor).length).toBeGreaterThan(0);

    const result = await watch();

    expect(result.status).toBe("finished");
    expect(result.meta).toMatchObject({ vendors_listed: 1, started: ["populate_ship_responses", "process_ship_responses"] });
    expect(await fulfilments()).toHaveLength(1);
    expect(incomingFiles(vendor)).toEqual([]);
    expect(await feedLogs("populate_ship_responses")).toEqual(["starting/chain", "finished/"]);
    expect(await feedLogs("process_ship_responses")).toEqual(["starting/chain", "finished/"]);
  });

  it("puts a new assignment's 850 on the vendor's server in one run: Populate, then Send, chained", async () => {
    const vendor = await createVendor("WTB");
    await pendingAssignment(vendor, "WTB-SKU");

    const result = await watch();

    expect(result.meta).toMatchObject({ assignments_waiting: 1, started: ["populate_ship_requests", "send_ship_requests"] });
    expect(purchaseOrderFiles(servers.root, vendor)).toHaveLength(1);
    expect(await feedLogs("send_ship_requests")).toEqual(["starting/chain", "finished/"]);
    // Nothing waits any more: the next minute starts nothing.
    expect((await watch()).meta).toMatchObject({ assignments_waiting: 0, steps_started: 0 });
  });

  it("downloads nothing itself: with Take running elsewhere the file stays, with no skipped log; the next watch takes it", async () => {
    const vendor = await answeredVendor("WTC", 800);
    const files = incomingFiles(vendor);
    const take = await holdFeedLock("populate_ship_responses");
    let busy;
    try {
      busy = await watch();
    } finally {
      await take.release();
    }
    expect(busy.meta).toMatchObject({ files_to_take: files.length, busy: ["populate_ship_responses"], steps_started: 0 });
    expect(incomingFiles(vendor).sort()).toEqual(files.sort());
    expect(await prisma.transmission.count({ where: { direction: "in" } })).toBe(0);
    expect(await feedLogs("populate_ship_responses")).toEqual([]);
    // Young files were remembered, so the next Take needs no second listing of its own (D60).
    expect(await prisma.incomingFileSighting.count()).toBe(files.length);

    await watch();
    expect(await fulfilments()).toHaveLength(1);
    expect(incomingFiles(vendor)).toEqual([]);
    expect(await prisma.incomingFileSighting.count()).toBe(0);
  });

  it("lists the others when a vendor is down; the one down is noted as a failed contact", async () => {
    const down = await createVendor("WTD", { sftp_port: await freePort() });
    const vendor = await answeredVendor("WTE", 900);

    const result = await watch();

    expect(result.status).toBe("finished");
    expect(result.meta).toMatchObject({ vendors_listed: 1, vendors_not_listed: 1, not_listed: [down.name] });
    expect(await fulfilments()).toHaveLength(1);
    expect(incomingFiles(vendor)).toEqual([]);
    const contact = await prisma.partnerContact.findUnique({ where: { partner: `vendor:${down.id}` } });
    // Twice: the watch's listing, then the Take it started (which reads every vendor).
    expect(contact?.failures).toBe(2);
  });

  it("writes nothing when nothing changed: a second look at a file being written changes no row", async () => {
    const vendor = await createVendor("WTF");
    const take = await holdFeedLock("populate_ship_responses");
    try {
      dropAnswers(servers.root, vendor, { file: "-", purchaseOrders: [], files: [{ name: "late.edi", content: "ISA*00*" }] });
      await watch();
      const [seen] = await prisma.incomingFileSighting.findMany();
      await watch();
      const [again] = await prisma.incomingFileSighting.findMany();
      expect(again!.last_seen_at).toEqual(seen!.last_seen_at);
    } finally {
      await take.release();
    }
  });
});

describe("chained steps (D250, D251)", () => {
  it("runs Send after the run of it going elsewhere when Populate finishes: the wake-up is not lost", async () => {
    const vendor = await createVendor("WTG");
    await pendingAssignment(vendor, "WTG-SKU");
    const send = await holdFeedLock("send_ship_requests");
    let chain: ReturnType<typeof runStepChain> | undefined;
    try {
      chain = runStepChain("populateRequests", { whenBusy: "skip_quietly" });
      await until(feedLogs.bind(null, "populate_ship_requests"), (logs) => logs.includes("finished/"), "Populate's run to finish");
      expect(purchaseOrderFiles(servers.root, vendor)).toHaveLength(0);
    } finally {
      await send.release();
    }
    const runs = await chain;
    expect(runs.map((run) => [run.action, run.result?.status])).toEqual([
      ["populateRequests", "finished"],
      ["sendRequests", "finished"],
    ]);
    expect(purchaseOrderFiles(servers.root, vendor)).toHaveLength(1);
    expect(await feedLogs("send_ship_requests")).toEqual(["starting/chain", "finished/"]);
  });

  it("does not start a disabled Send: the request waits for it", async () => {
    const vendor = await createVendor("WTH");
    await pendingAssignment(vendor, "WTH-SKU");
    await prisma.feed.create({ data: { name: "send_ship_requests", cron_expression: "5,20,35,50 * * * *", enabled: 0 } });

    const result = await watch();

    expect(result.meta).toMatchObject({ started: ["populate_ship_requests"] });
    expect(await prisma.dropshipRequest.count({ where: { vendor_id: vendor.id, status: "pending" } })).toBe(1);
    expect(purchaseOrderFiles(servers.root, vendor)).toHaveLength(0);
    expect(await feedLogs("send_ship_requests")).toEqual([]);
  });
});
