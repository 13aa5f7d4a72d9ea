// The local-mode demo vendor against the test database and a real SFTP
// client: demo vendors are pointed at its server (password stored encrypted,
// host key pinned), an 850 uploaded the way the app uploads it is answered
// with a 997 and an 855 at once and an 856 and an 810 later, pending answers
// survive a restart, and 846s go out for 846-enabled vendors.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoVendor, type RunningDemoVendor } from "../../app/demo/demo-vendor.server";
import { createPrismaClient } from "../../app/db/client.server";
import type { Vendor } from "../../app/db/generated/client";
import { vendorConnectionSettings } from "../../app/dropship/vendor-connection.server";
import { decryptSecret, vendorPasswordBinding } from "../../app/lib/secrets.server";
import { readAcknowledgementCsv, readInvoiceCsv, readShipNoticeCsv } from "@edi/csv";
import { writePurchaseOrderCsv } from "@edi/csv";
import { mapTransactions, type MappedDocument } from "@edi/documents";
import { build850, build860, type DropShipOrderRequest } from "@edi/documents";
import { withTransport, type VendorTransport } from "@edi/transport";
import { readX12 } from "@edi/x12";
import { writeInterchange } from "@edi/x12";

const OURS = { qualifier: "ZZ", id: "HOUSEROPS" };
const tag = randomBytes(3).toString("hex").toUpperCase();
const db = createPrismaClient(process.env.DATABASE_URL!, 2);
let dataDir: string;
let demo: RunningDemoVendor | undefined;
const ids: number[] = [];
let x12: Vendor;
let csv: Vendor;
let outsider: Vendor;

const common = {
  enabled: 1,
  sftp_user: "ops",
  sftp_incoming_folder: "/outbound",
  sftp_outcoming_folder: "/inbound",
  sftp_cancellation_put_folder: "/cancellations/in",
  input_segmenter: "~",
  input_delimiter: "*",
  output_segmenter: "~",
  output_delimiter: "*",
};

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "demo-vendor-"));
  const create = async (data: Parameters<typeof db.vendor.create>[0]["data"]) => {
    const row = await db.vendor.create({ data });
    ids.push(row.id);
    return row;
  };
  /** A vendor of the demo's kind: named Demo, its store id `${code}${tag}`, its host edi.<store id>.example.com. */
  const demoVendor = (kind: string, code: string, data: Omit<Parameters<typeof create>[0], "name" | "store_id">) =>
    create({
      ...common,
      name: `Demo ${kind} ${tag}`,
      store_id: `${code}${tag}`,
      sftp_host: `edi.${code.toLowerCase()}${tag.toLowerCase()}.example.com`,
      ...data,
    });
  // An FTP vendor of the seed: the demo serves SFTP only.
  x12 = await demoVendor("X12", "DVX", {
    transfer_mechanism_id: 2,
    sftp_port: 21,
    edi_format: 1,
    edi_identifier: `DVX${tag}`,
    edi_qualifier: "ZZ",
    regex_format: "\\.(edi|x12|txt)$",
    edi997_enabled: 1,
    edi810_enabled: 1,
    edi846_enabled: 1,
    edi810_as400_filepath: `DVX${tag}`,
  });
  csv = await demoVendor("CSV", "DVC", {
    transfer_mechanism_id: 1,
    sftp_port: 22,
    edi_format: 0,
    regex_format: "\\.csv$",
    edi856_file_contents_regex: "tracking_number",
    edi997_enabled: 0,
    edi810_enabled: 1,
    edi846_enabled: 0,
  });
  outsider = await create({
    ...common,
    name: `Real vendor ${tag}`,
    store_id: `DVR${tag}`,
    sftp_host: "sftp.partner.net",
    sftp_port: 22,
    edi_identifier: "REAL",
    edi_qualifier: "ZZ",
  });
  await db.inventorySource.create({ data: { source_code: x12.store_id, name: x12.name, type: "dropshipper" } });
  await db.sourceStock.createMany({ data: [1, 2, 3].map((n) => ({ source_code: x12.store_id, sku: `SKU-${tag}-${n}`, quantity: n * 10 })) });

  demo = await start({ laterDelayMs: 50 });
}, 60_000);

afterAll(async () => {
  await demo?.stop();
  await db.inventorySource.deleteMany({ where: { source_code: x12?.store_id } });
  await db.vendor.deleteMany({ where: { id: { in: ids } } });
  await db.$disconnect();
  rmSync(dataDir, { recursive: true, force: true });
});

function start(overrides: { laterDelayMs?: number; inventoryEveryMs?: number } = {}) {
  // Passes only when the test asks (tick), never on the timer.
  return startDemoVendor({ databaseUrl: process.env.DATABASE_URL!, dataDir, pollMs: 3_600_000, inventoryEveryMs: 3_600_000, ourIdentity: OURS, ...overrides });
}

const reload = (vendor: Vendor) => db.vendor.findUniqueOrThrow({ where: { id: vendor.id } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const asVendor = async <T>(vendor: Vendor, work: (transport: VendorTransport) => Promise<T>) =>
  withTransport({ ...vendorConnectionSettings(await reload(vendor)), retries: 0 }, work);
const names = (transport: VendorTransport, folder: string) => transport.list(folder).then((files) => files.map((file) => file.name).sort());

const order = (poNumber: string, skus: string[]): DropShipOrderRequest => ({
  poNumber,
  orderNumber: `#${poNumber}`,
  date: new Date("2026-11-20T00:00:00Z"),
  shipTo: { name: "Ann O'Neil", address1: "12 Main St", city: "Albany", state: "NY", zip: "01234", country: "US" },
  lines: skus.map((sku, i) => ({ lineNumber: i + 1, sku, quantity: i + 1, unitPrice: 12.5 })),
});

/** Our 850 interchange as the app builds it, one set per PO. */
function our850(vendor: Vendor, orders: DropShipOrderRequest[], control: number) {
  return writeInterchange({
    delimiters: { element: "*", segment: "~", component: ">" },
    sender: OURS,
    receiver: { qualifier: vendor.edi_qualifier!, id: vendor.edi_identifier! },
    date: "261121",
    time: "1400",
    controlNumber: control,
    groups: [
      {
        functionalId: "PO",
        sender: OURS.id,
        receiver: vendor.edi_identifier!,
        date: "20261121",
        time: "1400",
        controlNumber: String(control),
        transactions: orders.map((each, i) => build850(each, String(i + 1).padStart(4, "0"))),
      },
    ],
  }).text;
}

function x12Documents(content: Buffer) {
  const read = readX12(content);
  expect(read.faults).toEqual([]);
  return mapTransactions(read).map((each) => {
    expect(each.mapped?.faults).toEqual([]);
    return each.mapped as MappedDocument;
  });
}

describe("the demo vendor", () => {
  it("points the demo vendors at its server, and only them", async () => {
    const row = await reload(x12);
    expect(row).toMatchObject({
      sftp_host: "127.0.0.1",
      sftp_port: demo!.sftp.port,
      transfer_mechanism_id: 1,
      sftp_user: `demo_dvx${tag.toLowerCase()}`,
      sftp_host_key: demo!.sftp.hostKey,
    });
    expect(decryptSecret(row.sftp_pass!, vendorPasswordBinding(row.id))).toMatch(/^[\w-]{20,}$/);
    expect((await reload(csv)).sftp_user).toBe(`demo_dvc${tag.toLowerCase()}`);
    expect(await reload(outsider)).toEqual(outsider);

    // Each vendor has a folder tree of its own, with its folders made.
    await asVendor(x12, async (transport) => {
      expect(transport.hostKey).toBe(demo!.sftp.hostKey);
      expect(await names(transport, "/")).toEqual(["cancellations", "inbound", "outbound"]);
      expect(await names(transport, "/..")).toEqual(["cancellations", "inbound", "outbound"]);
    });
  });

  it("answers an X12 850 with a 997 and an 855 at once, an 856 and an 810 later", async () => {
    const sent = our850(x12, [order(`PO${tag}-1`, ["SKU-A", "SKU-B"]), order(`PO${tag}-2`, ["SKU-C"])], 4711);
    await asVendor(x12, (transport) => transport.upload("/inbound", `850_${x12.store_id}_20261121140000_4711.edi`, Buffer.from(sent)));
    await demo!.tick();

    const immediate = await asVendor(x12, async (transport) => {
      expect(await names(transport, "/inbound")).toEqual(["processed"]);
      expect(await names(transport, "/inbound/processed")).toEqual([`850_${x12.store_id}_20261121140000_4711.edi`]);
      const files = await names(transport, "/outbound");
      expect(files.map((name) => name.slice(0, 4))).toEqual(["855_", "997_"]);
      return Promise.all(files.map((name) => transport.download(`/outbound/${name}`)));
    });
    const [ack855, ack997] = immediate.map(x12Documents);
    const functionalAck = ack997.find((each) => each.type === "997")!.document as Extract<MappedDocument, { type: "997" }>["document"];
    expect(functionalAck.groups[0]).toMatchObject({ functionalId: "PO", controlNumber: "4711", statusCode: "A" });
    expect(ack855.map((each) => each.type === "855" && each.document.poNumber)).toEqual([`PO${tag}-1`, `PO${tag}-2`]);

    await sleep(60);
    await demo!.tick();
    const later = await asVendor(x12, async (transport) => {
      const files = (await names(transport, "/outbound")).filter((name) => /^(856|810)_/.test(name));
      expect(files.map((name) => name.slice(0, 3)).sort()).toEqual(["810", "810", "856", "856"]);
      return Promise.all(files.map(async (name) => ({ name, content: await transport.download(`/outbound/${name}`) })));
    });
    const documents = later.flatMap((file) => x12Documents(file.content));
    const poNumbers = (type: "856" | "810") =>
      documents
        .flatMap((each) => (each.type === type ? (each.type === "856" ? each.document.orders.map((o) => o.poNumber) : [each.document.poNumber]) : []))
        .sort();
    expect(poNumbers("856")).toEqual([`PO${tag}-1`, `PO${tag}-2`]);
    expect(poNumbers("810")).toEqual([`PO${tag}-1`, `PO${tag}-2`]);
    for (const each of documents)
      if (each.type === "856") expect(each.document.orders[0].items[0].trackingNumbers[0]).toMatch(/^(1Z[0-9A-Z]{16}|\d{12}|\d{22})$/);
  });

  it("answers a purchase-order CSV with CSV files the app reads without errors", async () => {
    const sent = writePurchaseOrderCsv([order(`PO${tag}-3`, ["SKU-D", "SKU-E"])]).text;
    await asVendor(csv, (transport) => transport.upload("/inbound", `PO_${csv.store_id}_20261121140000_12.csv`, Buffer.from(sent)));
    await demo!.tick();
    const acknowledgement = await asVendor(csv, async (transport) => {
      const files = await names(transport, "/outbound");
      expect(files.map((name) => name.slice(0, 4))).toEqual(["855_"]); // no 997: CSV vendors send none
      return transport.download(`/outbound/${files[0]}`);
    });
    const acks = readAcknowledgementCsv(acknowledgement);
    expect(acks.errors).toEqual([]);
    expect(acks.rows.map((row) => [row.poNumber, row.sku])).toEqual([
      [`PO${tag}-3`, "SKU-D"],
      [`PO${tag}-3`, "SKU-E"],
    ]);

    await sleep(60);
    await demo!.tick();
    await asVendor(csv, async (transport) => {
      const files = await names(transport, "/outbound");
      expect(files.map((name) => name.slice(0, 3))).toEqual(["810", "855", "856"]);
      const invoices = readInvoiceCsv(await transport.download(`/outbound/${files[0]}`));
      expect(invoices.errors).toEqual([]);
      expect(invoices.invoices.map((each) => each.poNumber)).toEqual([`PO${tag}-3`]);
      const shipments = readShipNoticeCsv(await transport.download(`/outbound/${files[2]}`));
      expect(shipments.errors).toEqual([]);
      expect(shipments.rows.map((row) => row.poNumber)).toEqual([`PO${tag}-3`, `PO${tag}-3`]);
    });
  });

  it("gives the AS400 a user and folder tree of its own", async () => {
    const { as400 } = demo!;
    const settings = {
      mechanism: 1 as const,
      host: as400.host,
      port: as400.port,
      user: as400.user,
      password: as400.password,
      hostKey: as400.hostKey,
      retries: 0,
    };
    await withTransport(settings, async (transport) => {
      expect(await names(transport, "/")).toEqual([as400.folder.slice(1)]);
      expect(await transport.exists(`/as400/invoices/DVX${tag}`)).toBe("folder");
      expect(await transport.exists("/inbound")).toBe(false);
    });
  });

  it("answers our cancellations with an 865: accepted while the 856 waits (which is then dropped), refused once shipped", async () => {
    const po = `PO${tag}-9`;
    const sent = our850(x12, [order(po, ["SKU-Z"])], 4712);
    const cancel = (poNumber: string, control: number) =>
      writeInterchange({
        delimiters: { element: "*", segment: "~", component: ">" },
        sender: OURS,
        receiver: { qualifier: x12.edi_qualifier!, id: x12.edi_identifier! },
        date: "261121",
        time: "1500",
        controlNumber: control,
        groups: [
          {
            functionalId: "PC",
            sender: OURS.id,
            receiver: x12.edi_identifier!,
            date: "20261121",
            time: "1500",
            controlNumber: String(control),
            transactions: [
              build860(
                {
                  poNumber,
                  poDate: new Date("2026-11-20T00:00:00Z"),
                  changeNumber: 1,
                  changeDate: new Date("2026-11-21T00:00:00Z"),
                  wholeOrder: true,
                  lines: [{ lineNumber: 1, sku: "SKU-Z", ordered: 1, cancelled: 1 }],
                },
                "0001",
              ),
            ],
          },
        ],
      }).text;
    await asVendor(x12, async (transport) => {
      await transport.upload("/inbound", `850_${x12.store_id}_20261121150000_4712.edi`, Buffer.from(sent));
      await transport.upload("/cancellations/in", `860_CANCEL_${x12.store_id}_20261121150000_4713.edi`, Buffer.from(cancel(po, 4713)));
      // PO-1 was shipped by the test above: its cancellation comes too late.
      await transport.upload("/cancellations/in", `860_CANCEL_${x12.store_id}_20261121150001_4714.edi`, Buffer.from(cancel(`PO${tag}-1`, 4714)));
    });
    await demo!.tick();
    await sleep(60);
    await demo!.tick();
    const answers = await asVendor(x12, async (transport) => {
      expect(await names(transport, "/cancellations/in")).toEqual(["processed"]);
      const files = (await names(transport, "/outbound")).filter((name) => name.startsWith("865_"));
      expect(files).toHaveLength(2);
      // Accepted: the PO's 856 and 810 never come.
      const shipped = (await names(transport, "/outbound")).filter((name) => /^856_/.test(name));
      const shipments = await Promise.all(shipped.map((name) => transport.download(`/outbound/${name}`)));
      expect(shipments.some((content) => content.toString().includes(po))).toBe(false);
      return Promise.all(files.map((name) => transport.download(`/outbound/${name}`)));
    });
    const outcomes = answers
      .flatMap(x12Documents)
      .flatMap((each) => (each.type === "865" ? [[each.document.poNumber, each.document.ackType]] : []))
      .sort();
    expect(outcomes).toEqual([
      [`PO${tag}-1`, "RJ"],
      [po, "AT"],
    ]);
  });

  it("keeps answers due later across a restart, with the same host key, and sends inventory", async () => {
    const before = await reload(x12);
    await demo!.stop();
    demo = await start({ laterDelayMs: 300 });
    const sent = our850(x12, [order(`PO${tag}-4`, ["SKU-F"])], 4712);
    await asVendor(x12, (transport) => transport.upload("/inbound", `850_${x12.store_id}_20261121150000_4712.edi`, Buffer.from(sent)));
    await demo.tick();
    await demo.stop(); // before the 856 is due
    const state = JSON.parse(readFileSync(path.join(dataDir, "demo-vendor", "state.json"), "utf8"));
    expect(state.pending.map((file: { name: string }) => file.name.slice(0, 3)).sort()).toEqual(["810", "856"]);

    demo = await start({ inventoryEveryMs: 1 });
    const after = await reload(x12);
    expect(demo.sftp.hostKey).toBe(before.sftp_host_key);
    expect(after.sftp_host_key).toBe(before.sftp_host_key);
    // A fresh password each start.
    const password = (row: typeof after) => decryptSecret(row.sftp_pass!, vendorPasswordBinding(row.id));
    expect(password(after)).not.toBe(password(before));
    await sleep(320);
    await demo.tick();
    await asVendor(x12, async (transport) => {
      const files = await names(transport, "/outbound");
      const notices = await Promise.all(files.filter((name) => name.startsWith("856_")).map((name) => transport.download(`/outbound/${name}`)));
      const poNumbers = notices.flatMap((content) =>
        x12Documents(content).flatMap((each) => (each.type === "856" ? each.document.orders.map((o) => o.poNumber) : [])),
      );
      expect(poNumbers).toContain(`PO${tag}-4`);

      const inventory = files.filter((name) => name.startsWith("846_"));
      expect(inventory).toHaveLength(1);
      const [advice] = x12Documents(await transport.download(`/outbound/${inventory[0]}`));
      expect(advice.type).toBe("846");
      if (advice.type === "846") expect(advice.document.records.map((record) => record.sku)).toEqual([1, 2, 3].map((n) => `SKU-${tag}-${n}`));
    });
    // Not 846-enabled: no inventory.
    await asVendor(csv, async (transport) => expect((await names(transport, "/outbound")).some((name) => name.startsWith("846_"))).toBe(false));
  });
});
