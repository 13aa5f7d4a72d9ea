// The end-of-day report (spec 001 §2; D31–D33) on a database of this file's
// own, with a loopback SFTP server standing in for the AS400: the run builds
// one row per sales date and store, running it again doubles nothing, Export to
// AS400 writes the batch file (read back from the server's disk), an AS400
// that is down leaves a failed batch that Retry Previous sends once it is back,
// a batch stored by an export that died is sent by Retry, and the CSV download
// is what a spreadsheet can open safely.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { utils } from "ssh2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../app/db/client.server";
import { startSftpServer, type SftpTestServer } from "@edi/transport/loopback";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { AS400_USERS, as400EnvFor } from "../support/loopback-as400";

let database: TestDatabase;
let db: PrismaClient;
let root: string;
let sftp: SftpTestServer;
const hostKeyPem = utils.generateKeyPairSync("ecdsa", { bits: 256 }).private;
const previous = { url: process.env.DATABASE_URL, client: globalThis.__prisma };

let report: typeof import("../../app/eod/report.server");
let batches: typeof import("../../app/eod/batches.server");
let lock: typeof import("../../app/eod/lock.server");
let csv: typeof import("../../app/eod/csv.server");
let csvOut: typeof import("../../app/grid/csv.server");
let actions: typeof import("../../app/eod/actions.server");
let reloadEnv: () => void;

const DAY = "2026-11-20";
const NEXT = "2026-11-21";
const date = (day: string) => new Date(`${day}T00:00:00Z`);
const eodFolder = () => path.join(root, "as400", "eod");
const filesOnAs400 = () => {
  try {
    return readdirSync(eodFolder()).sort();
  } catch {
    return [];
  }
};

function pointAs400At(server: SftpTestServer) {
  Object.assign(process.env, as400EnvFor(server));
  reloadEnv();
}

async function rows() {
  return db.eodReportRow.findMany({ orderBy: [{ sales_date: "asc" }, { store_id: "asc" }] });
}
const figures = (row: Awaited<ReturnType<typeof rows>>[number]) => ({
  sales_date: row.sales_date.toISOString().slice(0, 10),
  store_id: row.store_id,
  orders: row.order_count,
  invoices: `${row.invoice_count}/${row.invoice_total.toFixed(2)}`,
  credit_memos: `${row.credit_memo_count}/${row.credit_memo_total.toFixed(2)}`,
  shipping: `${row.shipping_invoice_count}/${row.shipping_invoice_total.toFixed(2)}`,
  net: row.net_sales.toFixed(2),
});

beforeAll(async () => {
  database = await createTestDatabase("eod");
  process.env.DATABASE_URL = database.url;
  globalThis.__prisma = undefined;
  root = mkdtempSync(path.join(tmpdir(), "eod-as400-"));
  sftp = await startSftpServer({ root, users: AS400_USERS, hostKeyPem });
  ({ reloadEnv } = await import("../../app/env.server"));
  pointAs400At(sftp);
  report = await import("../../app/eod/report.server");
  batches = await import("../../app/eod/batches.server");
  lock = await import("../../app/eod/lock.server");
  csv = await import("../../app/eod/csv.server");
  csvOut = await import("../../app/grid/csv.server");
  actions = await import("../../app/eod/actions.server");
  db = (await import("../../app/db.server")).prisma;

  // Orders: allocated to store 001, to 002 then a dropshipper, and one not allocated (the web store).
  await db.order.createMany({
    data: [
      { order_id: "5001", allocated_sources: "001", grand_total_purchased: 100 },
      { order_id: "5002", allocated_sources: " 002 ,DS01", grand_total_purchased: 50 },
      { order_id: "5003", allocated_sources: null, grand_total_purchased: 30 },
      { order_id: "5004", allocated_sources: "001", grand_total_purchased: 20 },
    ],
  });
  await db.salesRecord.createMany({
    data: [
      { source_key: "order:1", record_type: "invoice", order_increment_id: "5001", amount: 100, record_date: date(DAY) },
      { source_key: "order:1", record_type: "shipping_invoice", order_increment_id: "5001", amount: 7.95, record_date: date(DAY) },
      { source_key: "order:4", record_type: "invoice", order_increment_id: "5004", amount: 20, record_date: date(DAY) },
      { source_key: "refund:9", record_type: "credit_memo", order_increment_id: "5001", amount: 25.5, record_date: date(DAY) },
      { source_key: "order:2", record_type: "invoice", order_increment_id: "5002", amount: 50, record_date: date(DAY) },
      { source_key: "order:3", record_type: "invoice", order_increment_id: "5003", amount: 30, record_date: date(NEXT) },
      // A record that names its own store wins over the order's allocation.
      { source_key: "order:3b", record_type: "invoice", order_increment_id: "5003", store_id: "007", amount: 12.5, record_date: date(NEXT) },
      // Another type, and a day outside the run: neither is counted.
      { source_key: "order:1", record_type: "adjustment", order_increment_id: "5001", amount: 999, record_date: date(DAY) },
      { source_key: "order:5", record_type: "invoice", order_increment_id: "5001", amount: 999, record_date: date("2026-11-18") },
    ],
  });
}, 120_000);

afterAll(async () => {
  await sftp?.stop();
  await db?.$disconnect();
  globalThis.__prisma = previous.client;
  process.env.DATABASE_URL = previous.url;
  await database?.dispose();
  rmSync(root, { recursive: true, force: true });
});

describe("EOD run", () => {
  it("builds one row per sales date and store from the day's invoices, credit memos and shipping invoices", async () => {
    const result = await report.runEodReport({ sales_date: NEXT, days: 2 });
    expect(result).toMatchObject({ from: DAY, to: NEXT, rows: 4, created: 4, changed: 0, unchanged: 0, sales_records: 7, net_sales: "179.05" });
    expect((await rows()).map(figures)).toEqual([
      { sales_date: DAY, store_id: "001", orders: 2, invoices: "2/120.00", credit_memos: "1/25.50", shipping: "1/7.95", net: "86.55" },
      { sales_date: DAY, store_id: "002", orders: 1, invoices: "1/50.00", credit_memos: "0/0.00", shipping: "0/0.00", net: "50.00" },
      { sales_date: NEXT, store_id: "007", orders: 1, invoices: "1/12.50", credit_memos: "0/0.00", shipping: "0/0.00", net: "12.50" },
      { sales_date: NEXT, store_id: "WEB", orders: 1, invoices: "1/30.00", credit_memos: "0/0.00", shipping: "0/0.00", net: "30.00" },
    ]);
    expect((await rows()).every((row) => row.revision === 1 && row.export_status === "pending" && row.batch_id === null)).toBe(true);
  });

  it("running the same days again doubles nothing and touches no row", async () => {
    const before = await rows();
    const again = await report.runEodReport({ sales_date: NEXT, days: 2 });
    expect(again).toMatchObject({ rows: 4, created: 0, changed: 0, unchanged: 4, removed: 0, zeroed: 0 });
    expect(await rows()).toEqual(before);
    expect(await db.eodReportRow.count()).toBe(4);
  });

  it("refuses bad run parameters with per-field messages", () => {
    expect(() => report.parseRunRequest(new URLSearchParams("sales_date=2026-02-30&days=0"))).toThrow(
      // Coded, so that each reader gets them in their language (D278).
      expect.objectContaining({
        errors: { sales_date: [{ code: "errors.input.date" }], days: [{ code: "errors.input.whole_number", params: { min: 1, max: 62 } }] },
      }),
    );
    expect(report.parseRunRequest(new URLSearchParams("sales_date=&days="))).toEqual({});
  });

  it("never runs while another run, export or retry holds the lock", async () => {
    let release!: () => void;
    const held = lock.withEodLock(() => new Promise<void>((resolve) => (release = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(report.runEodReport({ sales_date: NEXT })).rejects.toBeInstanceOf(lock.EodBusyError);
    release();
    await held;
    await expect(report.runEodReport({ sales_date: NEXT })).resolves.toMatchObject({ created: 0 });
  });
});

describe("Export to AS400 and Retry Previous", () => {
  it("writes the batch file to the AS400 and records the batch", async () => {
    const batch = await batches.exportEodReport();
    expect(batch).toMatchObject({ status: "exported", row_count: 4, net_sales: "179.05", attempts: 1, error: null });
    expect(batch.file_name).toBe(`EOD_20261121_${String(batch.id).padStart(6, "0")}.csv`);
    expect(batch.remote_path).toBe(`/as400/eod/${batch.file_name}`);
    expect(filesOnAs400()).toEqual([batch.file_name]);
    const id = batch.id;
    expect(readFileSync(path.join(eodFolder(), batch.file_name), "utf8")).toBe(
      [
        "batch_id,sales_date,store_id,revision,order_count,invoice_count,invoice_total," +
          "credit_memo_count,credit_memo_total,shipping_invoice_count,shipping_invoice_total,net_sales",
        `${id},2026-11-20,001,1,2,2,120.00,1,25.50,1,7.95,86.55`,
        `${id},2026-11-20,002,1,1,1,50.00,0,0.00,0,0.00,50.00`,
        `${id},2026-11-21,007,1,1,1,12.50,0,0.00,0,0.00,12.50`,
        `${id},2026-11-21,WEB,1,1,1,30.00,0,0.00,0,0.00,30.00`,
        "",
      ].join("\r\n"),
    );
    const stored = await db.eodBatch.findUniqueOrThrow({ where: { id } });
    expect(stored).toMatchObject({ sales_date: date(DAY), last_sales_date: date(NEXT), status: "exported" });
    expect(stored.invoice_total.toFixed(2)).toBe("212.50");
    expect(stored.credit_memo_total.toFixed(2)).toBe("25.50");
    expect(stored.shipping_invoice_total.toFixed(2)).toBe("7.95");
    expect(stored.exported_at).not.toBeNull();
    expect((await rows()).map((row) => [row.batch_id, row.export_status, row.batched_revision])).toEqual(Array(4).fill([id, "exported", 1]));
  });

  it("has nothing to export until a run changes a figure, and re-runs never send a row twice", async () => {
    await expect(batches.exportEodReport()).rejects.toBeInstanceOf(batches.NothingToSendError);
    await report.runEodReport({ sales_date: NEXT, days: 2 });
    await expect(batches.exportEodReport()).rejects.toBeInstanceOf(batches.NothingToSendError);
    expect(filesOnAs400()).toHaveLength(1);
  });

  it("leaves a failed batch when the AS400 is down, and Retry Previous sends the same file once it is back", async () => {
    // A late refund on the 20th: store 001 changes, the others do not.
    await db.salesRecord.create({
      data: { source_key: "refund:10", record_type: "credit_memo", order_increment_id: "5004", amount: 20, record_date: date(DAY) },
    });
    const run = await report.runEodReport({ sales_date: NEXT, days: 2 });
    expect(run).toMatchObject({ changed: 1, unchanged: 3 });
    const changed = (await rows()).find((row) => row.store_id === "001")!;
    expect(changed).toMatchObject({ revision: 2, export_status: "pending", batch_id: null, credit_memo_count: 2 });

    const port = sftp.port;
    await sftp.stop();
    const failed = await batches.exportEodReport();
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/AS400|127\.0\.0\.1|connect|refused/i);
    expect(failed.row_count).toBe(1);
    expect(filesOnAs400()).toHaveLength(1);
    expect((await rows()).find((row) => row.store_id === "001")).toMatchObject({ export_status: "failed", batch_id: failed.id });
    // A retry while it is still down fails again and keeps the batch.
    await expect(batches.retryEodBatch()).resolves.toMatchObject({ id: failed.id, status: "failed", attempts: 2 });

    sftp = await startSftpServer({ root, users: AS400_USERS, hostKeyPem, port });
    const retried = await batches.retryEodBatch();
    expect(retried).toMatchObject({ id: failed.id, status: "exported", attempts: 3, error: null });
    const stored = await db.eodBatch.findUniqueOrThrow({ where: { id: failed.id } });
    expect(readFileSync(path.join(eodFolder(), failed.file_name))).toEqual(Buffer.from(stored.content));
    expect(readFileSync(path.join(eodFolder(), failed.file_name), "utf8")).toContain(`${failed.id},2026-11-20,001,2,2,2,120.00,2,45.50,1,7.95,66.55`);
    expect((await rows()).find((row) => row.store_id === "001")).toMatchObject({ export_status: "exported", batched_revision: 2 });
    await expect(batches.retryEodBatch()).rejects.toBeInstanceOf(batches.NothingToSendError);
  });

  it("sends a batch that an export stored but never sent (a crash between the two)", async () => {
    await db.salesRecord.create({ data: { source_key: "order:11", record_type: "invoice", order_increment_id: "5002", amount: 5, record_date: date(DAY) } });
    await report.runEodReport({ sales_date: NEXT, days: 2 });
    const created = await lock.withEodLock(() => batches.createBatch());
    expect(await db.eodBatch.findUniqueOrThrow({ where: { id: created!.id } })).toMatchObject({ status: "created", attempts: 0 });
    expect((await rows()).find((row) => row.store_id === "002")).toMatchObject({ export_status: "unsent", batch_id: created!.id });
    // Nothing else waits: the stored batch holds the row.
    await expect(batches.exportEodReport()).rejects.toBeInstanceOf(batches.NothingToSendError);
    const sent = await batches.retryEodBatch();
    expect(sent).toMatchObject({ id: created!.id, status: "exported", row_count: 1 });
    expect(filesOnAs400()).toContain(sent.file_name);
  });

  it("sends zeros for a store that drops out of a day it was exported for, and forgets one never sent", async () => {
    // Order 5002's records move to store 003: 002 was exported (zeroed), 003 is new.
    await db.salesRecord.updateMany({ where: { order_increment_id: "5002" }, data: { store_id: "003" } });
    const run = await report.runEodReport({ sales_date: NEXT, days: 2 });
    expect(run).toMatchObject({ created: 1, zeroed: 1, removed: 0 });
    expect((await rows()).filter((row) => row.sales_date.getTime() === date(DAY).getTime()).map(figures)).toEqual([
      { sales_date: DAY, store_id: "001", orders: 2, invoices: "2/120.00", credit_memos: "2/45.50", shipping: "1/7.95", net: "66.55" },
      { sales_date: DAY, store_id: "002", orders: 0, invoices: "0/0.00", credit_memos: "0/0.00", shipping: "0/0.00", net: "0.00" },
      { sales_date: DAY, store_id: "003", orders: 1, invoices: "2/55.00", credit_memos: "0/0.00", shipping: "0/0.00", net: "55.00" },
    ]);
    // 003 was never in a batch: when it drops out again, it is simply removed.
    await db.salesRecord.updateMany({ where: { order_increment_id: "5002" }, data: { store_id: "002" } });
    expect(await report.runEodReport({ sales_date: NEXT, days: 2 })).toMatchObject({ removed: 1, changed: 1 });
    expect((await rows()).map((row) => row.store_id)).toEqual(["001", "002", "007", "WEB"]);
    expect((await rows()).find((row) => row.store_id === "002")).toMatchObject({ revision: 4, export_status: "pending" });
  });

  it("answers the buttons with the spec's texts and what happened", async () => {
    const { translatorFor } = await import("../../app/i18n/i18n.server");
    const { renderAnswer } = await import("../../app/lib/validation.server");
    type Translator = Awaited<ReturnType<typeof translatorFor>>;
    // As the {token} routes answer: the action's coded answer rendered for the request (D137).
    const answerOf = async (action: "run" | "retry" | "export", url: URL, translate: Translator) => {
      const { status, body } = await actions.eodActionAnswer(action, url);
      return Response.json(renderAnswer(translate, body), { status });
    };
    const t = await translatorFor(new Request("http://app.test/api/eod_report_export"));
    const exported = await answerOf("export", new URL("http://app.test/api/eod_report_export"), t);
    expect(exported.status).toBe(200);
    const body = (await exported.json()) as { error: boolean; message: string; detail: string };
    expect(body).toMatchObject({ error: false, message: "EOD report exported successfully" });
    expect(body.detail).toMatch(/^EOD_\d{8}_\d{6}\.csv sent to the AS400 \(\/as400\/eod\/EOD_\d{8}_\d{6}\.csv\): 1 rows, net sales \$55\.00\.$/);
    const retry = await answerOf("retry", new URL("http://app.test/api/eod_report_retry"), t);
    expect(retry.status).toBe(409);
    expect(await retry.json()).toEqual({
      error: true,
      message: "Something went wrong when retrying EOD report",
      detail: "There is no failed or unsent batch to retry.",
    });
    const fr = await translatorFor(new Request("http://app.test/api/eod_report_run?locale=fr"));
    const run = await answerOf("run", new URL(`http://app.test/api/eod_report_run?sales_date=${NEXT}`), fr);
    expect(await run.json()).toMatchObject({ error: false, message: "Rapport de fin de journée exécuté avec succès" });
  });

  it("the eod_report feed sends every failed batch again, then what waits", async () => {
    await db.salesRecord.create({ data: { source_key: "order:12", record_type: "invoice", order_increment_id: "5004", amount: 1, record_date: date(DAY) } });
    await report.runEodReport({ sales_date: NEXT, days: 2 });
    const port = sftp.port;
    await sftp.stop();
    const failed = await batches.exportEodReport();
    expect(failed.status).toBe("failed");
    sftp = await startSftpServer({ root, users: AS400_USERS, hostKeyPem, port });
    await db.salesRecord.create({ data: { source_key: "order:13", record_type: "invoice", order_increment_id: "5003", amount: 2, record_date: date(NEXT) } });
    await report.runEodReport({ sales_date: NEXT, days: 2 });

    const progress: Array<Record<string, unknown>> = [];
    const outcome = await actions.eodReportJob({ progress: async (meta) => void progress.push(meta), signal: new AbortController().signal, trigger: "manual" });
    expect(outcome.error).toBe(false);
    const sent = await db.eodBatch.findMany({ where: { id: { gte: failed.id } }, orderBy: { id: "asc" } });
    expect(sent.map((batch) => [batch.status, batch.row_count])).toEqual([
      ["exported", 1],
      ["exported", 1],
    ]);
    expect(outcome.message).toContain(`sent ${sent[0].file_name}, ${sent[1].file_name}`);
    expect(progress.map((meta) => meta.step)).toEqual(["run", "retry"]);
    expect(filesOnAs400()).toEqual(expect.arrayContaining(sent.map((batch) => batch.file_name)));
    expect(await db.eodReportRow.count({ where: { export_status: { not: "exported" } } })).toBe(0);
  });
});

describe("CSV export", () => {
  it("streams every matching row with translated headings, spreadsheet-safe", async () => {
    // A store id a spreadsheet would take for a formula.
    await db.eodReportRow.create({
      data: { sales_date: date("2026-11-19"), store_id: '=HYPERLINK("http://x")', invoice_total: 1, net_sales: -3.5, credit_memo_total: 4.5 },
    });
    const { translatorFor } = await import("../../app/i18n/i18n.server");
    const t = await translatorFor(new Request("http://app.test/api/eod_report_export_csv"));
    const response = csvOut.csvResponse(
      await csv.eodReportCsv(new URLSearchParams("sort=sales_date&sort_dir=asc&page=3"), new Date("2026-11-21T15:04:00Z")),
      t,
    );
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="eod_report_20261121_1004.csv"');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.toString("utf8").slice(1).split("\r\n");
    expect(lines[0]).toBe(
      "Sales Date,Store,Orders,Invoices,Sales,Credit Memos,Returns,Shipping Invoices,Shipping,Net Sales,Revision,Export Status,Batch,Updated At",
    );
    expect(lines).toHaveLength(1 + 5 + 1); // every row (page=3 ignored), and the final CRLF
    expect(lines[1]).toMatch(/^2026-11-19,"'=HYPERLINK\(""http:\/\/x""\)",0,0,1\.00,0,4\.50,0,0\.00,-3\.50,1,Pending,,\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(lines[2]).toMatch(/^2026-11-20,001,2,3,121\.00,2,45\.50,1,7\.95,67\.55,3,Exported,\d+,/);
    expect(lines[6]).toBe("");
  });

  it("keeps the grid's filters and refuses bad ones before the download starts", async () => {
    const { translatorFor } = await import("../../app/i18n/i18n.server");
    const t = await translatorFor(new Request("http://app.test/?locale=de"));
    const response = csvOut.csvResponse(await csv.eodReportCsv(new URLSearchParams("store_id=web")), t);
    const lines = (await response.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0].startsWith("Verkaufsdatum,Filiale,")).toBe(true);
    expect(lines.slice(1).map((line) => line.split(",")[1])).toEqual(["WEB"]);
    await expect(csv.eodReportCsv(new URLSearchParams("sort=nope"))).rejects.toMatchObject({
      errors: { sort: [expect.objectContaining({ code: "errors.validation.sort" })] },
    });
  });

  it("neutralises every formula start but leaves plain numbers alone", () => {
    expect(["=1+2", "+SUM(A1)", "-A1", "@cmd", "\tx", "-12.50", "12", "a=b"].map(csvOut.spreadsheetSafe)).toEqual([
      "'=1+2",
      "'+SUM(A1)",
      "'-A1",
      "'@cmd",
      "'\tx",
      "-12.50",
      "12",
      "a=b",
    ]);
  });
});
