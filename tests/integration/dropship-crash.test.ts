// Crash-safety of the drop-ship flow at volume (issue 20, D103): the worker runs
// in a process of its own and is killed with SIGKILL at points between and
// inside its batches (after a download, after a batch is applied, after an
// upload, after a Shopify fulfilment call), then run again. The end state is
// the one an uninterrupted run leaves: every assignment Complete, exactly one
// FulfillmentCreate per request, every received group acknowledged once in
// the 997s the vendor got, nothing left received, prepared or waiting.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { answerPurchaseOrderFile } from "../../app/dropship/tools/vendor-answers";
import prisma from "../../app/db.server";
import { populateShipRequests } from "../../app/dropship/flow/populate-requests.server";
import { sendShipRequests } from "../../app/dropship/flow/send-requests.server";
import { mapTransactions } from "@edi/documents";
import { readX12 } from "@edi/x12";
import { createLoopbackVendor } from "../support/loopback-vendor";
import { useVendorServers } from "../support/vendor-servers";
import { createPendingAssignment } from "../support/pending-assignment";

const PASSWORD = "Crash-Pa55word";
const REQUESTS = 6;
const servers = useVendorServers("dropship-crash", PASSWORD);

const seeded = (seed: number) => () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
const dir = (...parts: string[]) => path.join(servers.root, ...parts);
const filesIn = (...parts: string[]) =>
  existsSync(dir(...parts))
    ? readdirSync(dir(...parts), { withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name)
    : [];

/** Runs the worker (tests/support/dropship-worker.ts) on the steps; answers how it ended. */
function worker(steps: string[], crashAt?: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "tests/support/dropship-worker.ts", ...steps], {
      env: { ...process.env, NODE_ENV: "test", DROPSHIP_TEST_FILES_PER_BATCH: "3", ...(crashAt ? { DROPSHIP_CRASH_AT: crashAt } : { DROPSHIP_CRASH_AT: "" }) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve({ code, signal, output }));
  });
}

beforeAll(async () => {
  for (const key of ["AS400_HOST", "AS400_PORT", "AS400_USER", "AS400_PASSWORD", "AS400_HOST_KEY"]) delete process.env[key];
  await prisma.$executeRawUnsafe(
    `TRUNCATE x12_group_ack, dropship_cancellation, dropship_response, dropship_request, dropship_log, transmission, dnh_transfer, assignment,
      order_item, order_grid, dropship_vendor, inventory_source_item, inventory_source, feed_log, feed RESTART IDENTITY CASCADE`,
  );
  await fetch(`${servers.standIn.url}/__state`, { method: "DELETE" });
}, 60_000);

it("ends as an uninterrupted run after SIGKILLs after a download, an applied batch, an upload and a fulfilment call", async () => {
  const x12 = { edi_format: 1, edi_identifier: "DC90EDI", edi_qualifier: "ZZ", regex_format: "\\.edi$" };
  const documents = { edi997_enabled: 1, edi810_enabled: 0, edi846_enabled: 0 };
  const vendor = await createLoopbackVendor(
    { root: servers.root, port: servers.sftp.port, password: PASSWORD },
    "DC90",
    { ...x12, ...documents },
    "Crash Outdoor",
  );
  for (let n = 1; n <= REQUESTS; n++) {
    await createPendingAssignment(prisma, {
      orderId: `95000${n}`,
      shopifyOrderId: String(9500000 + n),
      sku: `SKU-950${n}`,
      itemName: `Item ${n}`,
      qty: 1,
      storeId: "DC90",
      vendorName: vendor.name,
    });
  }
  await populateShipRequests();
  expect((await sendShipRequests()).error).toBe(false);

  // The vendor answers its 850: a 997, an 855 and an 856 per PO.
  const [po] = filesIn("dc90", "inbound").filter((name) => name.startsWith("850_"));
  const answer = answerPurchaseOrderFile(vendor as never, po, readFileSync(dir("dc90", "inbound", po)), {
    now: new Date(),
    controlNumberStart: 3000,
    random: seeded(5),
  });
  if ("error" in answer) throw new Error(answer.error);
  for (const file of [...answer.immediate, ...answer.later]) writeFileSync(dir("dc90", "outbound", file.name), file.content);
  // The groups a 997 answers: every group the vendor sent except its own 997 (FA).
  const sentGroups = [...answer.immediate, ...answer.later]
    .flatMap((file) => readX12(file.content).interchanges.flatMap((interchange) => interchange.groups))
    .filter((group) => group.functionalId !== "FA")
    .map((group) => `${group.functionalId}/${group.controlNumber}`)
    .sort();
  expect(sentGroups.length).toBeGreaterThanOrEqual(REQUESTS + 1);

  const steps = ["populateResponses", "processResponses"];
  for (const crashAt of ["after-download:3", "after-apply:2", "after-upload:1", "after-fulfilment-call:2"]) {
    const run = await worker(steps, crashAt);
    expect(run.signal, `${crashAt}: ${run.output}`).toBe("SIGKILL");
    // The lease of an upload cut short lapses (ten minutes, D69): as if the time had passed.
    await prisma.$executeRawUnsafe(
      "UPDATE transmission SET processed_at = processed_at - interval '1 hour' WHERE status = 'prepared' AND processed_at IS NOT NULL",
    );
  }
  const last = await worker(steps);
  expect(last.code, last.output).toBe(0);

  // Every assignment Complete, one fulfilment per request.
  expect(await prisma.assignment.count({ where: { assign_status: { not: 4 } } })).toBe(0);
  const calls = (
    (await (await fetch(`${servers.standIn.url}/__calls`)).json()) as Array<{
      operation: string;
      variables: { fulfillment?: { trackingInfo?: { number?: string } } };
    }>
  ).filter((call) => call.operation === "FulfillmentCreate");
  expect(calls).toHaveLength(REQUESTS);
  expect(new Set(calls.map((call) => call.variables.fulfillment?.trackingInfo?.number)).size).toBe(REQUESTS);
  expect(await prisma.dropshipResponse.count({ where: { response_type: "856", status: "fulfilled" } })).toBe(REQUESTS);
  // Every received group acknowledged once, in the 997s the vendor has.
  const acknowledged = filesIn("dc90", "inbound")
    .filter((name) => name.startsWith("997_"))
    .flatMap((name) => mapTransactions(readX12(readFileSync(dir("dc90", "inbound", name)))))
    .flatMap((set) =>
      (set.mapped!.document as { groups: Array<{ functionalId: string; controlNumber: string }> }).groups.map(
        (group) => `${group.functionalId}/${group.controlNumber}`,
      ),
    )
    .sort();
  expect(acknowledged).toEqual(sentGroups);
  expect(await prisma.x12GroupAck.count({ where: { ack_transmission_id: null } })).toBe(0);
  // Nothing left claimed or waiting, and each vendor file stored once.
  expect(await prisma.transmission.count({ where: { status: { in: ["received", "prepared"] } } })).toBe(0);
  expect(await prisma.transmission.count({ where: { direction: "in" } })).toBe(answer.immediate.length + answer.later.length);
  expect(filesIn("dc90", "outbound")).toEqual([]);
}, 300_000);
