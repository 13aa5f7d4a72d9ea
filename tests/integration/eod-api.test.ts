// The EOD calls of spec 001 §7 over real HTTP to the built app (local mode),
// the AS400 played by a loopback SFTP server: the grids' answer shapes, the
// run/export/retry answers, the {token} forms, and the CSV download.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, type PrismaClient } from "../../app/db/client.server";
import { BATCH_FILE_COLUMNS } from "../../app/eod/batch-file";
import type { SftpTestServer } from "@edi/transport/loopback";
import { startAppServer, type RunningApp } from "../support/app-server";
import { followRun } from "../support/runs";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { startAs400Server } from "../support/loopback-as400";

const TOKEN = "eod-token-0123456789abcdef";
let database: TestDatabase;
let db: PrismaClient;
let sftp: SftpTestServer;
let root: string;
let app: RunningApp;

const get = (pathname: string) => fetch(`${app.url}${pathname}`);
const json = async (pathname: string, method = "GET") => {
  const response = await fetch(`${app.url}${pathname}`, { method });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer: the assertions check its shape
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};
/** A staff action: answered at once (202), run in the background, followed to its end as the page does (D93). */
const background = async (pathname: string) => {
  const { startStatus, body } = await followRun(app.url, await fetch(`${app.url}${pathname}`, { method: "POST" }));
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON answer: the assertions check its shape
  return { status: startStatus, body: body as Record<string, any> };
};

beforeAll(async () => {
  if (!existsSync("build/server/index.js")) throw new Error("Build the app first (npm test does).");
  database = await createTestDatabase("eod_api");
  db = createPrismaClient(database.url);
  await db.order.create({ data: { order_id: "7001", allocated_sources: "004", grand_total_purchased: 80 } });
  await db.salesRecord.createMany({
    data: [
      { source_key: "order:7001", record_type: "invoice", order_increment_id: "7001", amount: 80, record_date: new Date("2026-11-20T00:00:00Z") },
      { source_key: "order:7001", record_type: "shipping_invoice", order_increment_id: "7001", amount: 5, record_date: new Date("2026-11-20T00:00:00Z") },
    ],
  });
  root = mkdtempSync(path.join(tmpdir(), "eod-api-as400-"));
  const as400 = await startAs400Server(root);
  sftp = as400.sftp;
  app = await startAppServer({ DATABASE_URL: database.url, SEED_DEMO_DATA: "0", EOD_API_TOKEN: TOKEN, ...as400.env });
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await sftp?.stop();
  await db?.$disconnect();
  await database?.dispose();
  rmSync(root, { recursive: true, force: true });
});

describe("EOD API", () => {
  it("lists report rows with server-defined columns, sales_date ascending by default", async () => {
    const empty = await json("/api/eod_report");
    expect(empty.status).toBe(200);
    expect(empty.body.data).toMatchObject({ data: [], total: 0, last_page: 1 });
    // The figures in the batch file's order (its header is pinned, word for word, in eod-report.test.ts).
    const figures = BATCH_FILE_COLUMNS.slice(BATCH_FILE_COLUMNS.indexOf("order_count"));
    expect(figures).toHaveLength(8);
    expect(empty.body.columns.map((column: { key: string }) => column.key)).toEqual([
      "sales_date",
      "store_id",
      ...figures,
      "revision",
      "export_status",
      "batch_id",
      "updated_at",
    ]);
    expect(empty.body.columns[11]).toMatchObject({
      label: "Export Status",
      dataType: "select",
      filter: "select",
      options: { pending: "Pending", exported: "Exported" },
    });
    expect((await json("/api/eod_report?sort=bogus")).status).toBe(422);
  });

  it("runs the report, refusing bad parameters with 422", async () => {
    const bad = await json("/api/eod_report_run?sales_date=yesterday", "POST");
    expect(bad.status).toBe(422);
    expect(bad.body.errors.sales_date).toEqual(["must be a date written YYYY-MM-DD"]);
    const run = await background("/api/eod_report_run?sales_date=2026-11-20&days=1");
    expect(run.status).toBe(202);
    expect(run.body).toMatchObject({ status: "finished", error: false, message: "EOD report run successfully", result: { rows: 1, created: 1 } });
    expect(run.body.detail).toBe("1 report rows for 11/20/26 to 11/20/26 from 2 sales records: 1 new, 0 changed, 0 unchanged; net sales $75.00.");
    const list = await json("/api/eod_report");
    expect(list.body.data.data).toEqual([
      expect.objectContaining({
        sales_date: "2026-11-20",
        store_id: "004",
        invoice_total: "80.00",
        shipping_invoice_total: "5.00",
        net_sales: "75.00",
        export_status: "pending",
        batch_id: null,
      }),
    ]);
  });

  it("takes the {token} forms only with the configured token", async () => {
    const wrong = await json("/api/eod_report_run/not-the-token", "POST");
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ error: true, message: "Something went wrong when running EOD report", detail: "The token does not match." });
    const right = await json(`/api/eod_report_run/${TOKEN}?sales_date=2026-11-20&days=1`, "POST");
    expect(right.status).toBe(200);
    expect(right.body).toMatchObject({ error: false, result: { rows: 1, created: 0, unchanged: 1 } });
    expect((await json(`/api/eod_report_retry/${TOKEN}x`, "POST")).status).toBe(403);
  });

  it("exports to the AS400, lists the batch, and has nothing to retry", async () => {
    const exported = await background("/api/eod_report_export");
    expect(exported.status).toBe(202);
    expect(exported.body).toMatchObject({
      status: "finished",
      error: false,
      message: "EOD report exported successfully",
      batch: { status: "exported", row_count: 1 },
    });
    expect(readdirSync(path.join(root, "as400", "eod"))).toEqual([exported.body.batch.file_name]);
    const again = await background("/api/eod_report_export");
    expect(again).toMatchObject({
      status: 202,
      body: {
        status: "finished",
        error: true,
        message: "Something went wrong when exporting EOD report",
        detail: "No report rows are waiting to be exported. Run the report first.",
      },
    });
    const retry = await json(`/api/eod_report_retry/${TOKEN}`, "POST");
    expect(retry).toMatchObject({ status: 409, body: { error: true, message: "Something went wrong when retrying EOD report" } });

    const batchesAnswer = await json("/api/eod_batch");
    expect(batchesAnswer.status).toBe(200);
    expect(batchesAnswer.body.data).toMatchObject({ total: 1, last_page: 1 });
    const [batch] = batchesAnswer.body.data.data;
    expect(batch).toMatchObject({
      id: exported.body.batch.id,
      file_name: exported.body.batch.file_name,
      status: "exported",
      row_count: 1,
      net_sales: "75.00",
      sales_date: "2026-11-20",
    });
    expect(batch).not.toHaveProperty("content");
    expect(batchesAnswer.body.columns.slice(0, 2).map((column: { key: string }) => column.key)).toEqual(["id", "file_name"]);
  });

  it("downloads the CSV as a stream, in the request's language", async () => {
    const response = await get("/api/eod_report_export_csv?sort=sales_date&sort_dir=asc&locale=fr");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="eod_report_\d{8}_\d{4}\.csv"$/);
    expect(response.headers.get("transfer-encoding")).toBe("chunked");
    const text = await response.text();
    const [header, row] = text.replace(/^\uFEFF/, "").split("\r\n");
    expect(header).toBe(
      "Date de vente,Magasin,Commandes,Factures,Ventes,Avoirs,Retours,Factures de livraison,Livraison,Ventes nettes,Révision,Statut d’export,Lot,Mis à jour le",
    );
    expect(row).toMatch(/^2026-11-20,004,1,1,80\.00,0,0\.00,1,5\.00,75\.00,1,Exporté,\d+,/);
    expect((await get("/api/eod_report_export_csv?export_status=lost")).status).toBe(422);
  });
});
