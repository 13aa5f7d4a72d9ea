// A prepared outbound file is leased while it uploads (D69), and the lease is
// renewed for as long as the upload takes: a second run during a slow upload
// does not send the file again. Real SFTP (the loopback server playing the
// AS400) and the real database; the upload is held at a gate the test opens,
// and the lease is shortened to 600 ms by the functions' test option.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { SftpTestServer } from "@edi/transport/loopback";
import { startLoopbackAs400 } from "../support/loopback-as400";

// Every upload through withTransport is recorded; the first one after arm() waits for open().
const uploads: string[] = [];
let held: { arrived: () => void; opened: Promise<void> } | null = null;
vi.mock("@edi/transport", async (importOriginal) => {
  const original = await importOriginal<typeof import("@edi/transport")>();
  return {
    ...original,
    withTransport: (settings: Parameters<typeof original.withTransport>[0], work: Parameters<typeof original.withTransport>[1]) =>
      original.withTransport(settings, (transport) =>
        work(
          Object.assign(Object.create(transport) as typeof transport, {
            upload: async (folder: string, name: string, content: Buffer) => {
              uploads.push(name);
              const gate = held;
              held = null;
              if (gate) {
                gate.arrived();
                await gate.opened;
              }
              return transport.upload(folder, name, content);
            },
          }),
        ),
      ),
  };
});

const LEASE_MS = 600;
let sftp: SftpTestServer;
let root: string;
let prisma: typeof import("../../app/db.server").default;
let outbound: typeof import("../../app/dropship/flow/outbound.server");
let outgoing: typeof import("../../app/transfers/outgoing-files.server");
let exporter: typeof import("../../app/as400/realtime-export.server");
let StepReport: typeof import("../../app/dropship/flow/context.server").StepReport;
const created: number[] = [];

function arm() {
  let arrived!: () => void;
  let open!: () => void;
  const arrival = new Promise<void>((resolve) => (arrived = resolve));
  const opened = new Promise<void>((resolve) => (open = resolve));
  held = { arrived, opened };
  return { arrival, open };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "upload-lease-"));
  sftp = await startLoopbackAs400(root);
  prisma = (await import("../../app/db.server")).default;
  outbound = await import("../../app/dropship/flow/outbound.server");
  outgoing = await import("../../app/transfers/outgoing-files.server");
  exporter = await import("../../app/as400/realtime-export.server");
  ({ StepReport } = await import("../../app/dropship/flow/context.server"));
  // Prepared files of other test files must not be uploaded here.
  await prisma.transmission.updateMany({ where: { direction: "out", status: "prepared", partner: "as400" }, data: { status: "failed" } });
}, 60_000);

afterAll(async () => {
  await prisma?.transmission.deleteMany({ where: { id: { in: created } } });
  await sftp?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

async function prepared(remotePath: string, transactionSet: string) {
  const stored = await outgoing.storePreparedFile({
    vendorId: null,
    partner: "as400",
    remotePath,
    transactionSet,
    content: Buffer.from(`${transactionSet} ${remotePath}\n`.repeat(50)),
  });
  created.push(stored!.id);
  return stored!;
}

describe("a slow upload keeps its lease", () => {
  it("an AS400 copy (810) held past its lease is not sent again by a second run, and is sent once", async () => {
    const file = await prepared(`/as400/invoices/INV-${Date.now()}.810`, "810");
    uploads.length = 0;
    const gate = arm();
    const first = outbound.deliverAs400Copies(new StepReport(), "810", { leaseMs: LEASE_MS });
    await gate.arrival;
    await sleep(LEASE_MS * 3); // past the lease: without renewals, the claim would have lapsed

    const second = new StepReport();
    await outbound.deliverAs400Copies(second, "810", { leaseMs: LEASE_MS });
    expect(uploads).toEqual([file.file_name]);
    expect(second.counts.as400_copies ?? 0).toBe(0);

    gate.open();
    await first;
    expect(uploads).toEqual([file.file_name]);
    const after = await prisma.transmission.findUniqueOrThrow({ where: { id: file.id } });
    expect(after).toMatchObject({ status: "sent", attempts: 1, error: null });
    expect(readdirSync(path.join(root, "as400", "invoices"))).toContain(file.file_name);
  });

  it("a realtime sales file held past its lease is not sent again by a second export, and is sent once", async () => {
    // Realtime rows other tests left in the shared database go out first, so the exports below have only this file.
    await exporter.exportRealtimeLogs();
    const file = await prepared(`/as400/realtime/sales/RT-${Date.now()}.csv`, "realtime_sales");
    uploads.length = 0;
    const gate = arm();
    const first = exporter.exportRealtimeLogs(undefined, { leaseMs: LEASE_MS });
    await gate.arrival;
    await sleep(LEASE_MS * 3);

    const second = await exporter.exportRealtimeLogs(undefined, { leaseMs: LEASE_MS });
    expect(uploads).toEqual([file.file_name]);
    expect(second.meta).toMatchObject({ files_sent: 0, files_failed: 0 });

    gate.open();
    expect((await first).meta).toMatchObject({ files_sent: 1 });
    expect(uploads).toEqual([file.file_name]);
    expect(await prisma.transmission.findUniqueOrThrow({ where: { id: file.id } })).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("a run whose claim was taken over while it uploaded leaves the outcome to the run that took it", async () => {
    const file = await prepared(`/as400/invoices/INV-${Date.now()}-b.810`, "810");
    const gate = arm();
    const report = new StepReport();
    const first = outbound.deliverAs400Copies(report, "810", { leaseMs: LEASE_MS });
    await gate.arrival;
    // Another run's claim (as if this one had been frozen past its lease).
    await prisma.transmission.update({ where: { id: file.id }, data: { processed_at: new Date(Date.now() + 60_000) } });
    await sleep(LEASE_MS);
    gate.open();
    await first;
    expect(report.counts.as400_copies ?? 0).toBe(0);
    expect(report.problems).toEqual([expect.stringMatching(/another run claimed it while this one uploaded it/)]);
    expect(await prisma.transmission.findUniqueOrThrow({ where: { id: file.id } })).toMatchObject({ status: "prepared", attempts: 0 });
  });
});
