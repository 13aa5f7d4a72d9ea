// The other feeds' messages and problems in the reader's language (D116): the
// order-status feed and the assignment import run for real through runFeed,
// against the real database and the loopback SFTP server standing in for the
// AS400 exchange; their feed log keeps the English text as before, and the
// Feed Logs grid and Run Feed's detail show it in German.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLoopbackAs400 } from "../support/loopback-as400";
import prisma from "../../app/db.server";
import { feedLogGridAnswer } from "../../app/feeds/feeds.server";
import { closeFeedPool, runFeed, type FeedRunResult } from "../../app/feeds/runner.server";
import { i18nServer, type Translate } from "../../app/i18n/i18n.server";
import { renderForReader, renderMessage } from "../../app/i18n/messages";

const RUN = `t116${Date.now().toString(36)}`;
const t: Record<"en" | "de" | "fr", Translate> = {} as never;
let root: string;
let sftp: Awaited<ReturnType<typeof startLoopbackAs400>>;
const AS400_ENV = ["AS400_TRANSFER_MECHANISM", "AS400_HOST", "AS400_PORT", "AS400_USER", "AS400_PASSWORD", "AS400_HOST_KEY"];

beforeAll(async () => {
  for (const language of ["en", "de", "fr"] as const) t[language] = await i18nServer.getFixedT(language, "common");
  root = mkdtempSync(path.join(tmpdir(), "feed-languages-"));
  sftp = await startLoopbackAs400(root);
  await prisma.order.create({ data: { order_id: `${RUN}-A`, magento_status: "pending", updated_at: new Date("2026-11-20T12:00:00Z") } });
});

afterAll(async () => {
  for (const key of AS400_ENV) delete process.env[key];
  (await import("../../app/env.server")).reloadEnv();
  await prisma.order.deleteMany({ where: { order_id: { startsWith: RUN } } });
  await closeFeedPool();
  await sftp?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** The run's finished log as the Feed Logs page shows it in `language`. */
async function feedLog(feed: string, run: FeedRunResult, language: "en" | "de" | "fr") {
  const answer = await feedLogGridAnswer(new URLSearchParams({ feed_name: feed, type: "finished", sort: "id", sort_dir: "desc" })).then((answer) =>
    renderForReader(t[language], answer),
  );
  const row = answer.data.data.find((item) => Number(item.id) === run.logId);
  expect(row, `finished log ${run.logId} of ${feed}`).toBeDefined();
  return JSON.parse(row!.meta as string) as Record<string, unknown>;
}

describe("the order-status feed (order_sync)", () => {
  it("keeps its English message and shows message and problems in German", async () => {
    const { ORDER_STATUS_FOLDER, importOrderStatusFiles } = await import("../../app/orders/order-status-feed.server");
    const folder = path.join(root, ORDER_STATUS_FOLDER);
    mkdirSync(folder, { recursive: true });
    const file = `status_${RUN}_1.csv`;
    writeFileSync(
      path.join(folder, file),
      [
        "order_id,magento_status,updated_at",
        `${RUN}-A,Processing,2026-11-21T09:00:00Z`,
        `${RUN}-ZZZ,complete,2026-11-21T09:00:00Z`,
        `${RUN}-A,complete,soon`,
      ].join("\n"),
    );
    const run = await runFeed("order_sync", importOrderStatusFiles);
    expect(run.status).toBe("finished");
    expect(run.error).toBe(true);
    const rowError = `line 4, updated_at: "soon" is not a date and time (2026-11-21T14:05:00-05:00, 2026-11-21 14:05:00 or 2026-11-21-14.05.00.000000)`;
    // The English, word for word as this feed always wrote it.
    expect(run.message).toBe(
      `1 new file from ${ORDER_STATUS_FOLDER}; 1 file applied: 1 row; 1 row for orders not in the grid (${RUN}-ZZZ). Problems: ${file}: ${rowError}.`,
    );
    expect((await prisma.order.findUniqueOrThrow({ where: { order_id: `${RUN}-A` } })).magento_status).toBe("processing");

    const german = await feedLog("order_sync", run, "de");
    // The CSV reader's row error is data (D115): it stays as written, inside the German sentence.
    expect(german.message).toBe(
      `1 neue Datei aus ${ORDER_STATUS_FOLDER}; 1 Datei angewendet: 1 Zeile; 1 Zeile für ` +
        `Bestellungen, die nicht in der Übersicht sind (${RUN}-ZZZ). Probleme: ${file}: ${rowError}.`,
    );
    expect(german.problems).toEqual([`${file}: ${rowError}`]);
    expect(german).not.toHaveProperty("message_code");
    expect(german).not.toHaveProperty("problem_codes");
    expect((await feedLog("order_sync", run, "en")).message).toBe(run.message);
    // Run Feed's detail is the same code (a list's items are joined with "; " in every language).
    expect(renderMessage(t.fr as never, "fr", run.messageCode)).toBe(
      `1 nouveau fichier de ${ORDER_STATUS_FOLDER}; 1 fichier appliqué(s) : 1 ligne; 1 ligne ` +
        `pour des commandes absentes de la grille (${RUN}-ZZZ). Problèmes : ${file} : ${rowError}.`,
    );
  });
});

describe("the assignment import (assignment_import)", () => {
  it("writes a rule's problem as a code after its file and line, shown in German; the reader's row errors stay as written", async () => {
    const { ASSIGNMENT_IMPORT_FOLDER } = await import("../../app/sales/as400-assignment-files.server");
    const { ASSIGNMENT_IMPORT_FEED, assignmentImportJob } = await import("../../app/sales/feeds.server");
    const folder = path.join(root, ASSIGNMENT_IMPORT_FOLDER);
    mkdirSync(folder, { recursive: true });
    const file = `assign_${RUN}.csv`;
    writeFileSync(path.join(folder, file), ["order_id,item_id,source_code,qty", `${RUN}-NOPE,1,001,1`, `${RUN}-A,1,001,x`].join("\n"));
    const run = await runFeed(ASSIGNMENT_IMPORT_FEED.name, assignmentImportJob);
    expect(run.status).toBe("finished");
    expect(run.message).toBe("1 assignment file applied, 0 assignments created; 2 problems.");
    const qtyError = `line 3: qty "x" is not a whole number of 1 or more`;

    const english = await feedLog(ASSIGNMENT_IMPORT_FEED.name, run, "en");
    expect(english.problems).toEqual([`${file}, line 2: Order ${RUN}-NOPE does not exist.`, `${file}, ${qtyError}`]);
    const german = await feedLog(ASSIGNMENT_IMPORT_FEED.name, run, "de");
    expect(german.message).toBe("1 Zuweisungsdatei angewendet, 0 Zuweisungen angelegt; 2 Probleme.");
    expect(german.problems).toEqual([`${file}, Zeile 2: Bestellung ${RUN}-NOPE existiert nicht.`, `${file}, ${qtyError}`]);
  });
});

describe("the order sync's account of what an orders/cancelled changed", () => {
  it("is quoted as a code in the cancellation line, shown in German on the Realtime Sales page", async () => {
    const { cancelOrder } = await import("../../app/orders/sync.server");
    const { listRealtimeSalesLogs } = await import("../../app/sales/realtime-logs.server");
    const id = 9_116_000_000 + (Date.now() % 1_000_000);
    const order = {
      id,
      name: `#${RUN}-C`,
      order_number: 1,
      created_at: "2026-03-09T21:30:00-05:00",
      updated_at: "2026-03-10T08:00:00-05:00",
      cancelled_at: "2026-03-10T08:00:00-05:00",
      cancel_reason: "customer",
      financial_status: "voided",
      total_price: "20.00",
      line_items: [{ id: id * 10 + 1, sku: "SKU-A", name: "Trail Runner 9", title: "Trail Runner 9", quantity: 1, price: "20.00", requires_shipping: true }],
    };
    const outcome = await cancelOrder(order, { shop: "t116.myshopify.com", webhookId: `${RUN}-w1`, topic: "orders/cancelled" });
    expect(outcome.status).toBe("applied");
    const row = await prisma.order.findUniqueOrThrow({ where: { shopify_order_id: String(id) } });
    const stored = await prisma.realtimeSalesLog.findFirstOrThrow({ where: { shopify_order_id: String(id) }, orderBy: { id: "desc" } });
    expect(stored.message).toBe(
      `Order ${row.order_id} cancelled in Shopify (2026-03-10T13:00:00.000Z, reason customer); ` +
        `financial status voided. Order ${row.order_id} (Shopify ${id}) created from orders/cancelled.`,
    );
    const answer = await listRealtimeSalesLogs(new URLSearchParams({ shopify_order_id: String(id), sort: "id", sort_dir: "desc" })).then((answer) =>
      renderForReader(t.de, answer),
    );
    expect(answer.data.data[0].message).toBe(
      `Bestellung ${row.order_id} in Shopify storniert (2026-03-10T13:00:00.000Z, Grund customer); ` +
        `Zahlungsstatus voided. Bestellung ${row.order_id} (Shopify ${id}): angelegt durch orders/cancelled.`,
    );
    await prisma.realtimeSalesLog.deleteMany({ where: { shopify_order_id: String(id) } });
    await prisma.order.delete({ where: { id: row.id } });
  });
});
