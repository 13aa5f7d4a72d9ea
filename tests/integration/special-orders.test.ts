// Special orders end to end: the AS400's files from a loopback SFTP server,
// orders created through the Shopify module against the stand-in (over our
// own database's products), error rows, the log and its download, the revise
// save (422s with the spec's messages, then Shopify at once), and the calls of
// spec 001 §7 over real HTTP to the built app.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, type PrismaClient } from "../../app/db/client.server";
import type { ShopifyAdmin } from "../../app/shopify/admin-client.server";
import { databaseCatalog } from "../../app/shopify/stand-in-catalog.server";
import { startShopifyStandIn, type RecordedCall } from "../../app/shopify/stand-in.server";
import { startAs400Server, type LoopbackAs400 } from "../support/loopback-as400";
import { startAppServer, type RunningApp } from "../support/app-server";
import { followRun } from "../support/runs";

// Rows of this file carry this tag (store id, SKUs, file names), so cleaning up touches nothing else.
const tag = `SO${randomBytes(3).toString("hex").toUpperCase()}`;
const STORE = tag;
const sku = (letter: string) => `${tag}-${letter}`;
const HEADER =
  "store_id,store_ticket,employee_number,customer_name,customer_email,customer_phone,customer_address_1," +
  "customer_address_2,customer_address_city,customer_address_state_code,customer_address_zip,shipping_cost,sku,size," +
  "width,price,tax";
// The email carries the tag, so a search for it finds this file's orders only.
const customer = (name: string, state = "IL") =>
  `${name},${name.toLowerCase().replace(" ", ".")}+${tag.toLowerCase()}@example.com,(312) 555-0100,1 Main St,,Chicago,${state},60601`;

let db: PrismaClient;
let root: string;
let folder: string;
let sftp: LoopbackAs400;
let standIn: Awaited<ReturnType<typeof startShopifyStandIn>>;
let admin: ShopifyAdmin;
let pull: typeof import("../../app/special-orders/pull.server");
let app: RunningApp;

const calls = async () => (await (await fetch(`${standIn.url}/__calls`)).json()) as RecordedCall[];
const creates = async (ticket?: string) =>
  (await calls()).filter(
    (call) =>
      call.operation === "SpecialOrderCreate" &&
      (!ticket || ((call.variables.order as { tags: string[] }).tags ?? []).includes(`special-order-${STORE}-${ticket}`)),
  );
const orderOf = (ticket: string) =>
  db.specialOrder.findUniqueOrThrow({
    where: { store_id_store_ticket: { store_id: STORE, store_ticket: ticket } },
    include: { errors: { orderBy: { id: "asc" } } },
  });
const put = (name: string, content: string) => writeFileSync(path.join(folder, name), content);
const runPull = () => pull.pullSpecialOrders(undefined, { admin });

beforeAll(async () => {
  if (!existsSync("build/server/index.js")) throw new Error("Build the app first (npm test does).");
  db = createPrismaClient(process.env.DATABASE_URL!, 2);
  await db.product.createMany({ data: ["A", "B", "C", "D"].map((letter) => ({ sku: sku(letter), name: `Shoe ${letter}`, price: 100 })) });

  root = mkdtempSync(path.join(tmpdir(), "special-orders-"));
  const as400 = await startAs400Server(root);
  sftp = as400.sftp;
  standIn = await startShopifyStandIn({ catalog: databaseCatalog(db) });
  Object.assign(process.env, as400.env, { SHOPIFY_STAND_IN_URL: standIn.url });
  pull = await import("../../app/special-orders/pull.server");
  admin = (await import("../../app/shopify/admin-client.server")).shopifyAdminFor({ mode: "local", shop: "demo-shop.myshopify.com" });
  folder = path.join(root, pull.SPECIAL_ORDER_FOLDER);
  mkdirSync(folder, { recursive: true });

  // The built app, local mode, on the same database and AS400 (with a stand-in of its own).
  app = await startAppServer({ DATABASE_URL: process.env.DATABASE_URL!, SEED_DEMO_DATA: "0", ...as400.env });
}, 120_000);

afterAll(async () => {
  await app?.stop();
  const { closeFeedPool } = await import("../../app/feeds/runner.server");
  await closeFeedPool();
  await sftp?.stop();
  await standIn?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
  if (!db) return;
  await db.specialOrder.deleteMany({ where: { store_id: STORE } });
  await db.specialOrderLog.deleteMany({ where: { file_path: { contains: tag } } });
  await db.transmission.deleteMany({ where: { partner: "as400", file_name: { contains: tag } } });
  await db.product.deleteMany({ where: { sku: { startsWith: tag } } });
  await db.$disconnect();
});

const FIRST_FILE =
  [
    HEADER,
    `${STORE},1,E204,${customer("Maria Lopez")},9.95,${sku("A")},9,M,129.95,10.72`,
    `${STORE},1,,,,,,,,,,,${sku("B")},9.5,W,89.00,7.34`,
    `${STORE},2,E520,${customer("Julie Tremblay", "PQ")},19.95,${sku("C")},7,,159.00,23.81`,
    `${STORE},3,E118,${customer("Ann Cole")},9.95,${sku("A")},8,N,call store,0`,
    `${STORE},4,E777,${customer("Ray Olson")},9.95,${sku("ZZZ")},10,,99.00,7.62`,
    `${STORE},,E777,${customer("No Ticket")},9.95,${sku("A")},10,,99.00,7.62`,
  ].join("\n") + "\n";

describe("the pull", () => {
  it("turns a file into Shopify orders and error rows, and keeps the file in the log", async () => {
    const name = `special_orders_${tag}_01.csv`;
    put(name, FIRST_FILE);
    const result = await runPull();
    expect(result.message).toContain("1 new file from /as400/special-orders");
    expect(result.message).toContain("4 tickets imported; 2 orders created in Shopify; 2 special orders in error, to revise");
    expect(result.message).toContain("line 7: store_ticket is empty");

    const maria = await orderOf("1");
    expect(maria).toMatchObject({ status: "created", customer_name: "Maria Lopez", bill_to_name: "Maria Lopez", errors: [] });
    expect(maria.order_id).toBeTruthy();
    expect(maria.shopify_order_id).toMatch(/^\d+$/);
    // Items, their tax and shipping: 129.95 + 10.72 + 89.00 + 7.34 + 9.95.
    expect(Number(maria.grand_total_base)).toBe(246.96);
    expect(Number(maria.grand_total_purchased)).toBe(246.96);

    const sent = await creates();
    expect(sent).toHaveLength(2);
    const julie = (await creates("2"))[0].variables.order as {
      shippingAddress: Record<string, string>;
      lineItems: Array<{ sku: string; variantId?: string }>;
      financialStatus: string;
    };
    expect(julie.shippingAddress).toMatchObject({ countryCode: "CA", provinceCode: "QC", city: "Chicago", firstName: "Julie", lastName: "Tremblay" });
    expect(julie.lineItems).toEqual([expect.objectContaining({ sku: sku("C"), variantId: expect.stringMatching(/^gid:\/\/shopify\/ProductVariant\//) })]);
    expect((await orderOf("2")).customer_address_state_code).toBe("PQ"); // kept as the AS400 wrote it

    const ann = await orderOf("3");
    expect(ann.status).toBe("error");
    expect(ann.errors.map((error) => error.error_message)).toEqual(["Price must be a number."]);
    const ray = await orderOf("4");
    expect(ray.status).toBe("error");
    expect(ray.errors.map((error) => error.error_message)).toEqual([`SKU ${sku("ZZZ")} has no Shopify variant`]);

    const log = await db.specialOrderLog.findFirstOrThrow({ where: { file_path: `${pull.SPECIAL_ORDER_FOLDER}/${name}` } });
    expect(Buffer.from(log.content).toString()).toBe(FIRST_FILE);
    expect(log.summary).toContain("4 tickets: 3 for Shopify, 1 error to revise");
    expect(maria.log_id).toBe(log.id);
    const stored = await db.transmission.findUniqueOrThrow({ where: { id: log.transmission_id! } });
    expect(stored).toMatchObject({
      partner: "as400",
      direction: "in",
      status: "processed",
      content_hash: createHash("sha256").update(FIRST_FILE).digest("hex"),
    });
    expect(readdirSync(folder)).toEqual(["archive"]);
    expect(readdirSync(path.join(folder, "archive"))).toEqual([name]);
  });

  it("never imports a ticket it already has, even from the same content again", async () => {
    const before = {
      orders: await db.specialOrder.count({ where: { store_id: STORE } }),
      logs: await db.specialOrderLog.count({ where: { file_path: { contains: tag } } }),
      creates: (await creates()).length,
    };
    // The same content under another name is a file of its own (D59): stored and read, and its tickets are known.
    put(`special_orders_${tag}_01_again.csv`, FIRST_FILE);
    put(`special_orders_${tag}_02.csv`, `${HEADER}\n${STORE},1,E204,${customer("Maria Lopez")},9.95,${sku("D")},9,M,129.95,10.72\n`);
    const result = await runPull();
    expect(result.message).toContain("2 new files from /as400/special-orders; 0 tickets imported");
    expect(result.message).toContain("5 tickets known before, not imported again");
    expect(await db.specialOrder.count({ where: { store_id: STORE } })).toBe(before.orders);
    expect(await db.specialOrderLog.count({ where: { file_path: { contains: tag } } })).toBe(before.logs + 2);
    expect((await creates()).length).toBe(before.creates);
    expect(readdirSync(folder)).toEqual(["archive"]);
    // And a run with nothing new does nothing.
    expect((await runPull()).message).toContain("0 new files");
    expect((await creates()).length).toBe(before.creates);
  });

  it("does not create an order twice when a run stopped after Shopify created it", async () => {
    const { createShopifyOrderOnce } = await import("../../app/special-orders/shopify-order.server");
    const order = await db.specialOrder.create({
      data: {
        store_id: STORE,
        store_ticket: "5",
        customer_name: "Grace Kim",
        customer_email: "grace@example.com",
        customer_phone: "555-0100",
        customer_address_1: "1 Main St",
        customer_address_city: "Chicago",
        customer_address_state_code: "IL",
        customer_address_zip: "60601",
        items: [{ sku: sku("A"), size: "9", width: "", price: "50.00", tax: "4.00" }],
        shipping_cost: 5,
        status: "pending",
      },
    });
    // The crashed run: Shopify made the order, our row never heard of it.
    const first = await createShopifyOrderOnce(admin, order);
    expect(first).toMatchObject({ ok: true, created: true });
    await runPull();
    const after = await orderOf("5");
    expect(after.status).toBe("created");
    expect(after.shopify_order_id).toBe((first as { shopifyOrderId: string }).shopifyOrderId);
    expect(await creates("5")).toHaveLength(1);
  });

  it("keeps a file it cannot read, with the reason, and still imports the next one", async () => {
    put(`special_orders_${tag}_03.csv`, "order,status\n1,shipped\n");
    put(`special_orders_${tag}_04.csv`, `${HEADER}\n${STORE},6,E1,${customer("Luis Ortega", "NF")},0,${sku("B")},12,,80.00,0\n`);
    const result = await runPull();
    expect(result.error).toBe(true);
    expect(result.message).toContain("1 file refused");
    const refused = await db.specialOrderLog.findFirstOrThrow({ where: { file_path: { endsWith: `special_orders_${tag}_03.csv` } } });
    expect(refused.summary).toBe(
      "refused: line 1: not a special-order file: missing required columns store_id, store_ticket, sku (the header row has: order, status)",
    );
    expect(Buffer.from(refused.content).toString()).toBe("order,status\n1,shipped\n");
    expect((await orderOf("6")).status).toBe("created");
  });
});

describe("the calls of spec 001 §7", () => {
  const get = async (pathname: string) => {
    const response = await fetch(`${app.url}${pathname}`);
    return { status: response.status, body: await response.json() };
  };
  const save = async (id: number, fields: Record<string, unknown>) => {
    const response = await fetch(`${app.url}/api/special_order/${id}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...fields, _method: "PUT" }),
    });
    return { status: response.status, body: await response.json() };
  };
  const form = async (ticket: string) => {
    const order = await orderOf(ticket);
    const { body } = await get(`/api/special_order/${order.id}`);
    return { id: order.id, body };
  };

  it("lists logs newest first and downloads each file as it came", async () => {
    const { status, body } = await get(`/api/special_order_log?file_path=${tag}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ total: 5, last_page: 1, current_page: 1 });
    const ids = body.data.map((row: { id: number }) => row.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    expect(body.columns.map((column: { key: string }) => column.key)).toEqual(["id", "file_path", "summary", "created_at", "actions"]);

    const first = body.data.find((row: { file_path: string }) => row.file_path.endsWith(`special_orders_${tag}_01.csv`));
    const download = await fetch(`${app.url}/api/special_order_log_download?id=${first.id}`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toContain(`attachment; filename="special_orders_${tag}_01.csv"`);
    expect(await download.text()).toBe(FIRST_FILE);
    expect((await fetch(`${app.url}/api/special_order_log_download?id=99999999`)).status).toBe(404);
  });

  it("lists current orders by order_id descending and the open errors with their Revise link", async () => {
    const current = await get(`/api/special_order_current?store_ticket=&bill_to_name=&queryValue=${tag}`);
    expect(current.status).toBe(200);
    const created = current.body.data.filter((row: { status: string }) => row.status === "created").map((row: { order_id: string }) => row.order_id);
    expect(created).toEqual([...created].sort().reverse());
    expect(current.body.data[0].grand_total_purchased).toMatch(/^\d+\.\d{2}$/);

    // One pulled but not yet created in Shopify is listed too, first, as Pending (issue 18).
    const waiting = await db.specialOrder.create({
      data: { store_ticket: "90", store_id: STORE, customer_name: "Wait Ing", customer_email: `wait+${tag.toLowerCase()}@example.com`, status: "pending" },
    });
    try {
      const listed = await get(`/api/special_order_current?queryValue=${tag}`);
      expect(listed.body.data[0]).toMatchObject({ store_ticket: "90", status: "pending", order_id: null });
    } finally {
      await db.specialOrder.delete({ where: { id: waiting.id } });
    }

    const errors = await get(`/api/special_order_error?store_id=${STORE}`);
    expect(errors.body.data.map((row: { store_ticket: string; error_message: string }) => [row.store_ticket, row.error_message])).toEqual([
      ["4", `SKU ${sku("ZZZ")} has no Shopify variant`],
      ["3", "Price must be a number."],
    ]);
    const actions = errors.body.columns.find((column: { key: string }) => column.key === "actions");
    expect(actions.settings.links[0]).toMatchObject({ path: "/special_order/revise", field: "special_order_id", field_request_name: "id", label: "Revise" });
  });

  it("loads the form with items as a JSON string, and answers 422 with the first failing rule", async () => {
    const { id, body } = await form("3");
    expect(body).toMatchObject({
      store_ticket: "3",
      store_id: STORE,
      employee_number: "E118",
      error_message: "Price must be a number.",
      customer_name: "Ann Cole",
      shipping_cost: "9.95",
    });
    expect(JSON.parse(body.items)).toEqual([{ sku: sku("A"), size: "8", width: "N", price: "call store", tax: "0" }]);

    const item = { sku: sku("A"), size: "8", width: "N", price: "120.00", tax: "9.90" };
    const cases: Array<[unknown[], string]> = [
      [
        [
          { ...item, sku: "" },
          { ...item, price: "x" },
        ],
        "SKU is a required field.",
      ],
      [[item, { ...item, size: " " }], "Size is a required field."],
      [[{ ...item, price: "" }], "Price is a required field."],
      [[{ ...item, price: "call store" }], "Price must be a number."],
      [[{ ...item, tax: "" }], "Tax is a required field."],
      [[{ ...item, tax: "9,90" }], "Tax must be a number."],
    ];
    for (const [items, message] of cases) {
      const answer = await save(id, { ...body, items: JSON.stringify(items) });
      expect(answer.status).toBe(422);
      expect(answer.body.errors.items).toEqual([message]);
    }
    const missing = await save(id, { ...body, customer_name: "", customer_address_state_code: "XX", items: JSON.stringify([item]) });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({
      customer_name: ["Customer Name is a required field."],
      customer_address_state_code: ["'XX' is not a US state, Canadian province or territory, or armed-forces code."],
    });
    expect((await save(id, { ...body, items: "not json" })).body.errors.items).toEqual(["The items are not a JSON list of items."]);
    expect((await orderOf("3")).status).toBe("error"); // nothing saved
    expect((await get("/api/special_order/99999999")).status).toBe(404);
  });

  it("re-processes a revision at once: created in Shopify, its error answered", async () => {
    const { id, body } = await form("3");
    const answer = await save(id, {
      ...body,
      customer_phone: "(313) 555-0111",
      items: JSON.stringify([{ sku: sku("A"), size: "8", width: "N", price: "120.00", tax: "9.90" }]),
    });
    expect(answer).toEqual({ status: 200, body: { error: false, message: "Special Order saved successfully" } });
    const ann = await orderOf("3");
    expect(ann).toMatchObject({ status: "created", customer_phone: "(313) 555-0111" });
    expect(ann.order_id).toBeTruthy();
    expect(Number(ann.grand_total_base)).toBe(139.85);
    expect(ann.errors.every((error) => error.resolved_at !== null)).toBe(true);
    const errors = await get(`/api/special_order_error?store_id=${STORE}`);
    expect(errors.body.data.map((row: { store_ticket: string }) => row.store_ticket)).toEqual(["4"]);
    // Created orders are not revised again.
    expect((await save(id, { ...body, items: JSON.stringify([{ sku: sku("A"), size: "8", width: "", price: "1", tax: "0" }]) })).status).toBe(409);
  });

  it("says so when Shopify refuses the revision again, with a new error row", async () => {
    const { id, body } = await form("4");
    const refused = await save(id, body);
    expect(refused).toEqual({
      status: 200,
      body: { error: true, message: `Special Order saved, but Shopify refused it: SKU ${sku("ZZZ")} has no Shopify variant` },
    });
    const ray = await orderOf("4");
    expect(ray.status).toBe("error");
    expect(ray.errors.map((error) => error.resolved_at === null)).toEqual([false, true]);
    expect((await get(`/api/special_order_error?store_id=${STORE}`)).body.total).toBe(1);

    const fixed = await save(id, { ...body, items: JSON.stringify([{ sku: sku("D"), size: "10", width: "", price: "99.00", tax: "7.62" }]) });
    expect(fixed.body).toEqual({ error: false, message: "Special Order saved successfully" });
    expect((await orderOf("4")).status).toBe("created");
    expect((await get(`/api/special_order_error?store_id=${STORE}`)).body.total).toBe(0);
  });

  it("pulls new special orders on request in the background, ending with error and msg", async () => {
    put(`special_orders_${tag}_05.csv`, `${HEADER}\n${STORE},7,E9,${customer("Nora Walsh", "AE")},5.00,${sku("C")},6,,60.00,0\n`);
    const { startStatus, body } = await followRun(app.url, await fetch(`${app.url}/api/special_order_pull`, { method: "POST" }));
    expect(startStatus).toBe(202);
    // msg is the spec's banner text; the run's own report is the detail under it (D93).
    expect(body).toMatchObject({
      status: "finished",
      error: false,
      msg: "Special orders pulled",
      detail: expect.stringContaining("1 new file from /as400/special-orders"),
    });
    expect(body.detail).toContain("1 order created in Shopify");
    expect((await orderOf("7")).status).toBe("created");
  });
});
