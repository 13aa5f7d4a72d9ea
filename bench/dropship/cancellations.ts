// `npm run bench:cancellations [-- --requests N --vendors M]`: cancellations at
// volume (issue 29, D225). Not part of `npm test`.
// N requests (default 10,000) over M X12 vendors (default 10, half on 860s, half
// on 850 BEG01 01) are sent as usual (steps 1 and 2, timed as setup), then every
// one is taken back one transaction at a time, as staff deletes and order
// webhooks do (`takeBackFromVendor`, with the order, item and assignment locked);
// Send Ship Requests writes and uploads the cancellation files; each vendor
// answers (accepts) with an 865 per PO into its cancellation pull folder, timed
// apart (not app time); Populate and Process Ship Responses read and settle them.
// Against a loopback SFTP server in this process and a database of its own.
// Figures go to the console (one line a script can read last) and to
// bench/dropship/cancellations.json.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { createTestDatabase } from "../../tests/support/test-database";
import { forgetShopifyAndAs400 } from "../support/bench-env";

const RESULTS = fileURLToPath(new URL("./cancellations.json", import.meta.url));
const PASSWORD = "Bench-Pa55word";
const ORDER_BASE = 710_000_000;

const { values: args } = parseArgs({ options: { requests: { type: "string", default: "10000" }, vendors: { type: "string", default: "10" } } });
const REQUESTS = Number(args.requests);
const VENDORS = Number(args.vendors);
if (!Number.isInteger(REQUESTS) || REQUESTS < 1 || !Number.isInteger(VENDORS) || VENDORS < 1 || VENDORS > 99 || VENDORS > REQUESTS)
  throw new Error("--requests and --vendors are whole numbers, 1 ≤ vendors ≤ min(99, requests)");

const seconds = (ms: number) => Math.round(ms / 10) / 100;
const database = await createTestDatabase("bench_cancellations");
forgetShopifyAndAs400();
process.env.DATABASE_URL = database.url;
process.env.APP_SECRET_KEY = Buffer.alloc(32, 29).toString("base64");
process.env.OUTBOUND_ALLOW = "loopback";
process.env.INCOMING_SETTLE_SECONDS = "0.05";
const root = mkdtempSync(path.join(os.tmpdir(), "bench-cancellations-"));
const own = new pg.Client({ connectionString: database.url });
await own.connect();

try {
  const { startSftpServer } = await import("@edi/transport/loopback");
  const { default: prisma } = await import("../../app/db.server");
  const { encryptSecret, vendorPasswordBinding } = await import("../../app/lib/secrets.server");
  const { populateShipRequests } = await import("../../app/dropship/flow/populate-requests.server");
  const { sendShipRequests } = await import("../../app/dropship/flow/send-requests.server");
  const { populateShipResponses } = await import("../../app/dropship/flow/populate-responses.server");
  const { processShipResponses } = await import("../../app/dropship/flow/process-responses.server");
  const { answerCancellationFile } = await import("../../app/dropship/tools/cancellation-answers");
  const { takeBackFromVendor } = await import("../../app/sales/vendor-cancellations.server");
  const sftp = await startSftpServer({ root, users: { vendor: PASSWORD } });

  const vendors = [];
  for (let i = 0; i < VENDORS; i++) {
    const n = String(i + 1).padStart(2, "0");
    const folder = `dsc${n}`;
    for (const sub of ["inbound", "outbound", "cancel_in", "cancel_out"]) mkdirSync(path.join(root, folder, sub), { recursive: true });
    const vendor = await prisma.vendor.create({
      data: {
        name: `Bench Vendor ${n}`,
        store_id: `DSC${n}`,
        transfer_mechanism_id: 1,
        sftp_host: "127.0.0.1",
        sftp_port: sftp.port,
        sftp_user: "vendor",
        sftp_host_key: sftp.hostKey,
        sftp_incoming_folder: `/${folder}/outbound`,
        sftp_outcoming_folder: `/${folder}/inbound`,
        sftp_cancellation_put_folder: `/${folder}/cancel_in`,
        sftp_cancellation_pull_folder: `/${folder}/cancel_out`,
        edi_identifier: `BENCHC${n}`,
        edi_qualifier: "ZZ",
        regex_format: "\\.edi$",
        edi997_enabled: 1,
        cancellation_format: i % 2 ? "850" : "860",
      },
    });
    vendors.push(await prisma.vendor.update({ where: { id: vendor.id }, data: { sftp_pass: encryptSecret(PASSWORD, vendorPasswordBinding(vendor.id)) } }));
    await prisma.inventorySource.create({ data: { source_code: vendor.store_id, name: vendor.name, type: "dropshipper" } });
  }
  await own.query(
    `INSERT INTO order_grid (order_id, shopify_order_id, concat_ship_to_name, ship_first_name, ship_last_name, ship_street, ship_city, ship_region,
                             ship_postcode, ship_country_id, magento_status)
     SELECT ($2::bigint + g)::text, (6600000000 + g)::text, 'Ada Lovelace', 'Ada', 'Lovelace', '12 Analytical Way', 'Chicago', 'IL', '60601', 'US', 'processing'
       FROM generate_series(1, $1::int) AS g`,
    [REQUESTS, ORDER_BASE],
  );
  await own.query(
    `INSERT INTO order_item (order_id, sku, name, qty_ordered, update_time) SELECT id, 'BENCH-' || (id % 500), 'Bench item', 2, now() FROM order_grid`,
  );
  await own.query(
    `INSERT INTO assignment (order_increment_id, shopify_order_id, item_id, product_sku, qty_assigned, store_id, dropshipper_name, assign_status, update_time)
     SELECT o.order_id, o.shopify_order_id, i.item_id, i.sku, 2, v.store_id, v.name, 1, now()
       FROM order_item i JOIN order_grid o ON o.id = i.order_id
       JOIN unnest($1::text[], $2::text[]) WITH ORDINALITY AS v(store_id, name, k) ON v.k = o.id % $3 + 1`,
    [vendors.map((v) => v.store_id), vendors.map((v) => v.name), VENDORS],
  );
  await own.query("ANALYZE");
  let start = performance.now();
  await populateShipRequests();
  await sendShipRequests();
  const setup = seconds(performance.now() - start);
  const sent = await prisma.dropshipRequest.count({ where: { status: "sent" } });
  console.log(`${REQUESTS.toLocaleString("en-US")} requests sent to ${VENDORS} vendors in ${setup} s (setup, not measured)`);

  const rows: Array<{ step: string; seconds: number; handled: number; per_second: number }> = [];
  const row = (step: string, ms: number, handled: number) => {
    rows.push({ step, seconds: seconds(ms), handled, per_second: Math.round(handled / (ms / 1000)) });
    console.log(`${step.padEnd(44)} ${seconds(ms).toFixed(2).padStart(8)} s  ${String(handled).padStart(7)}  ${Math.round(handled / (ms / 1000))}/s`);
  };

  // Taken back one at a time, as staff and webhooks do: a transaction each, the locks in the writers' order.
  const assignments = await own.query<{ id: number; order_row: number; order_increment_id: string; product_sku: string; qty_assigned: number }>(
    `SELECT a.id, i.order_id AS order_row, a.order_increment_id, a.product_sku, a.qty_assigned
       FROM assignment a JOIN order_item i ON i.item_id = a.item_id ORDER BY a.id`,
  );
  start = performance.now();
  for (const a of assignments.rows) {
    await prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM order_grid WHERE id = ${a.order_row} FOR UPDATE`;
      await tx.$queryRaw`SELECT a.id FROM order_item i JOIN assignment a ON a.item_id = i.item_id WHERE a.id = ${a.id} FOR UPDATE OF i, a`;
      await takeBackFromVendor(tx, a, "order_cancelled");
    });
  }
  row("take back (one transaction each)", performance.now() - start, assignments.rows.length);

  start = performance.now();
  await sendShipRequests();
  const cancelled = await prisma.dropshipCancellation.count({ where: { status: "sent" } });
  row("Send Ship Requests: cancellation files", performance.now() - start, cancelled);

  start = performance.now();
  let answered = 0;
  for (const vendor of vendors) {
    const folder = path.join(root, vendor.store_id.toLowerCase());
    for (const name of readdirSync(path.join(folder, "cancel_in"))) {
      const answer = answerCancellationFile(vendor as never, name, readFileSync(path.join(folder, "cancel_in", name)), {
        now: new Date(),
        controlNumberStart: 1000,
        refusal: () => null,
      });
      if ("error" in answer) throw new Error(answer.error);
      // One file holding every 865 of the vendor, as a vendor's batch would.
      const text = answer.files.map((file) => file.content).join("");
      writeFileSync(path.join(folder, "cancel_out", `865_${vendor.store_id}_all.edi`), text);
      answered += answer.answered.length;
      rmSync(path.join(folder, "cancel_in", name));
    }
  }
  console.log(`(the vendors' ${answered} answers written in ${seconds(performance.now() - start)} s: not app time)`);

  start = performance.now();
  await populateShipResponses();
  row("Populate Ship Responses (pull folders)", performance.now() - start, VENDORS);
  start = performance.now();
  await processShipResponses();
  const settled = await prisma.dropshipRequest.count({ where: { status: "cancelled" } });
  row("Process Ship Responses: answers settled", performance.now() - start, settled);
  if (settled !== sent) throw new Error(`${settled} of ${sent} requests cancelled`);

  writeFileSync(
    RESULTS,
    JSON.stringify({ measured_at: new Date().toISOString(), requests: REQUESTS, vendors: VENDORS, cpus: os.cpus().length, load: os.loadavg(), rows }, null, 2) +
      "\n",
  );
  console.log(`BENCH cancellations requests=${REQUESTS} ${rows.map((r) => `${r.step.split(" ")[0].toLowerCase()}_s=${r.seconds}`).join(" ")}`);
  await sftp.stop();
  await prisma.$disconnect();
} finally {
  await own.end();
  await database.dispose();
  rmSync(root, { recursive: true, force: true });
}
