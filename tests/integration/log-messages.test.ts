// Log rows written for staff keep their message as a code with parameters next
// to the English text (D114): a row written by an English-speaking run reads in
// German or French on those pages, rows written before stay as they were, and
// filters keep matching the English text. Against the real database; rows are
// scoped by the t_i18n_logs_ prefix (the database is shared with other files).
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { StepReport, writeLogs } from "../../app/dropship/flow/context.server";
import { listDropshipLogs } from "../../app/dropship/logs.server";
import { feedLogGridAnswer } from "../../app/feeds/feeds.server";
import { closeFeedPool, runFeed } from "../../app/feeds/runner.server";
import { englishText, logMessage } from "../../app/i18n/english.server";
import { i18nServer, type Translate } from "../../app/i18n/i18n.server";
import { message, renderForReader, renderMessage } from "../../app/i18n/messages";
import { listRealtimeShippingLogs } from "../../app/sales/realtime-logs.server";
import { recordDropshipShipments } from "../../app/as400/realtime-outbox.server";
import { recordSpecialOrderError } from "../../app/special-orders/processing.server";
import { firstProblem, specialOrderProblems } from "../../app/special-orders/special-order-rules";
import { listSpecialOrderErrors, listSpecialOrderLogs } from "../../app/special-orders/special-orders.server";
import { storeIncomingFile } from "../../app/dropship/flow/populate-responses.server";
import { processStoredFile } from "../../app/dropship/flow/process-responses.server";
import { EDI_TEXTS } from "@edi/texts";
import { describeFault, faultMessage, readX12 } from "@edi/x12";
import { readInvoiceCsv, recogniseCsvFile } from "@edi/csv";

const PREFIX = "t_i18n_logs_";
const VENDOR = `${PREFIX}Acme Outdoor`;
const FEED = `${PREFIX}feed`;
const t: Record<"en" | "de" | "fr", Translate> = {} as never;

async function cleanUp() {
  await prisma.dropshipLog.deleteMany({ where: { vendor_name: { startsWith: PREFIX } } });
  await prisma.transmission.deleteMany({ where: { vendor: { name: { startsWith: PREFIX } } } });
  await prisma.vendor.deleteMany({ where: { name: { startsWith: PREFIX } } });
  await prisma.feedLog.deleteMany({ where: { feed_name: { startsWith: PREFIX } } });
  await prisma.feed.deleteMany({ where: { name: { startsWith: PREFIX } } });
  await prisma.specialOrderLog.deleteMany({ where: { file_path: { startsWith: `/${PREFIX}` } } });
  await prisma.realtimeShippingLog.deleteMany({ where: { order_increment_id: { startsWith: PREFIX } } });
  await prisma.specialOrder.deleteMany({ where: { store_ticket: { startsWith: PREFIX } } });
}

beforeAll(async () => {
  await cleanUp();
  for (const language of ["en", "de", "fr"] as const) t[language] = await i18nServer.getFixedT(language, "common");
});
afterAll(async () => {
  await cleanUp();
  await closeFeedPool();
});

const logsFor = (language: "en" | "de" | "fr", query: Record<string, string> = {}) =>
  listDropshipLogs(new URLSearchParams({ vendor_name: VENDOR, ...query }))
    .then((answer) => renderForReader(t[language], answer))
    .then((answer) => answer.data.data.map((row) => row.message as string));

describe("Drop Shipping Logs in the reader's language", () => {
  beforeAll(async () => {
    await writeLogs([
      {
        vendor_name: VENDOR,
        action: "populate_requests",
        status: "success",
        po_number: `${PREFIX}PO1`,
        ...logMessage("logs.dropship.request_created", { po: `${PREFIX}PO1`, qty: 2, sku: "BOOT-42", order: "100000123", assignment: 77 }),
      },
      {
        vendor_name: VENDOR,
        action: "process_responses",
        status: "success",
        po_number: `${PREFIX}PO1`,
        ...logMessage("logs.dropship.shipped", {
          qty: 2,
          sku: "BOOT-42",
          po: `${PREFIX}PO1`,
          carrier: message("logs.dropship.by_carrier", { carrier: "UPS" }),
          tracking: "1Z999",
        }),
      },
    ]);
    // A row written before codes existed: only its English text.
    await prisma.dropshipLog.create({
      data: {
        vendor_name: VENDOR,
        action: "send_requests",
        status: "info",
        po_number: `${PREFIX}PO0`,
        message: "Wrote PO0.csv with 1 ship request (120 bytes); uploading to /in.",
      },
    });
  });

  it("keeps the English text in message and the code in message_code", async () => {
    const rows = await prisma.dropshipLog.findMany({ where: { vendor_name: VENDOR, po_number: `${PREFIX}PO1` }, orderBy: { id: "asc" } });
    expect(rows.map((row) => row.message)).toEqual([
      `Ship request ${PREFIX}PO1 created for 2 x BOOT-42 of order 100000123; assignment 77 is now Processing.`,
      `856: 2 x BOOT-42 of PO ${PREFIX}PO1 shipped by UPS, tracking 1Z999.`,
    ]);
    expect(rows[0].message_code).toEqual({
      code: "logs.dropship.request_created",
      params: { po: `${PREFIX}PO1`, qty: 2, sku: "BOOT-42", order: "100000123", assignment: 77 },
    });
  });

  it("shows the coded rows in German and French, and the older row as it was written", async () => {
    expect(await logsFor("de")).toEqual([
      "Wrote PO0.csv with 1 ship request (120 bytes); uploading to /in.",
      `856: 2 x BOOT-42 der Bestellung ${PREFIX}PO1 versandt mit UPS, Sendungsnummer 1Z999.`,
      `Versandanfrage ${PREFIX}PO1 erstellt für 2 x BOOT-42 der Bestellung 100000123; Zuweisung 77 ist jetzt In Bearbeitung.`,
    ]);
    expect((await logsFor("fr"))[1]).toBe(`856 : 2 x BOOT-42 de la commande ${PREFIX}PO1 expédié par UPS, suivi 1Z999.`);
    expect((await logsFor("en"))[2]).toBe(`Ship request ${PREFIX}PO1 created for 2 x BOOT-42 of order 100000123; assignment 77 is now Processing.`);
  });

  it("filters and searches the English text, whatever the reader's language", async () => {
    expect(await logsFor("de", { message: "now Processing" })).toEqual([
      `Versandanfrage ${PREFIX}PO1 erstellt für 2 x BOOT-42 der Bestellung 100000123; Zuweisung 77 ist jetzt In Bearbeitung.`,
    ]);
    // Data values are the same in every language, so a search for a tracking number finds its row on any page.
    expect(await logsFor("fr", { queryValue: "1Z999" })).toHaveLength(1);
  });
});

describe("a step's problems and a feed run's message", () => {
  it("stores the run's message and problems as codes in the feed log, rendered for the reader", async () => {
    const report = new StepReport();
    report.problem(message("logs.dropship.no_unique_po", { assignment: 5 }));
    report.problem("Acme: connection reset"); // a server's words: data, kept as they are
    const summary = message("dropship_test.results.clear_completed", { count: 2 });
    const result = report.result(englishText(summary), summary);
    const run = await runFeed(FEED, async () => ({ message: result.message, messageCode: result.messageCode, error: result.error, meta: result.meta }));
    expect(run.message).toBe("2 completed ship requests archived. Problems: assignment 5 could not get a unique PO number; Acme: connection reset.");
    expect(run.messageCode).toEqual(result.messageCode);

    const read = async (language: "en" | "de" | "fr") => {
      const answer = await feedLogGridAnswer(new URLSearchParams({ feed_name: FEED, type: "finished" })).then((answer) => renderForReader(t[language], answer));
      return JSON.parse(answer.data.data[0].meta as string) as Record<string, unknown>;
    };
    const german = await read("de");
    expect(german.message).toBe(
      "2 abgeschlossene Versandanfragen archiviert. Probleme: Zuweisung 5 konnte keine eindeutige Bestellnummer erhalten; Acme: connection reset.",
    );
    expect(german.problems).toEqual(["Zuweisung 5 konnte keine eindeutige Bestellnummer erhalten", "Acme: connection reset"]);
    expect(german).not.toHaveProperty("message_code");
    expect(german).not.toHaveProperty("problem_codes");
    expect((await read("en")).message).toBe(run.message);
  });

  it("shows the runner's own words (a run closed as interrupted) in the reader's language", async () => {
    await prisma.feedLog.create({ data: { feed_name: `${FEED}_dead`, type: "starting", meta: { trigger: "schedule" } } });
    await runFeed(`${FEED}_dead`, async () => ({ message: "ok" })); // closes the starting log left by a dead process
    const answer = await feedLogGridAnswer(new URLSearchParams({ feed_name: `${FEED}_dead`, type: "failed" })).then((answer) => renderForReader(t.fr, answer));
    expect(JSON.parse(answer.data.data[0].meta as string).error).toBe("interrompu : le processus qui l'exécutait s'est arrêté");
  });

  it("shows a feed log written before codes as it was written", async () => {
    await prisma.feedLog.create({ data: { feed_name: `${FEED}_old`, type: "finished", meta: { message: "3 files processed", problems: ["x"] } } });
    const answer = await feedLogGridAnswer(new URLSearchParams({ feed_name: `${FEED}_old` })).then((answer) => renderForReader(t.de, answer));
    expect(JSON.parse(answer.data.data[0].meta as string)).toEqual({ message: "3 files processed", problems: ["x"] });
  });
});

describe("Special Order Log summaries", () => {
  it("renders summary_code in the reader's language, else the summary", async () => {
    const coded = message("logs.special_orders.tickets", {
      tickets: message("logs.n.ticket", { count: 3 }),
      pending: 2,
      errors: message("logs.n.error", { count: 1 }),
    });
    await prisma.specialOrderLog.create({
      data: { file_path: `/${PREFIX}/a.csv`, content: new Uint8Array(), summary: englishText(coded), summary_code: coded as never },
    });
    await prisma.specialOrderLog.create({ data: { file_path: `/${PREFIX}/b.csv`, content: new Uint8Array(), summary: "received, not imported yet" } });
    const answer = await listSpecialOrderLogs(new URLSearchParams({ file_path: `/${PREFIX}/`, sort: "id", sort_dir: "asc" })).then((answer) =>
      renderForReader(t.de, answer),
    );
    expect(answer.data.map((row) => row.summary)).toEqual(["3 Belege: 2 für Shopify, 1 Fehler zu überarbeiten", "received, not imported yet"]);
    expect(englishText(coded)).toBe("3 tickets: 2 for Shopify, 1 error to revise");
  });
});

describe("Special Order Errors", () => {
  it("keeps a rule's message as a code, shown in German on the error screen", async () => {
    const values = {
      customer_name: "Maria Lopez",
      customer_email: "maria.lopez@example",
      customer_phone: "555-0100",
      customer_address_1: "1 Main St",
      customer_address_city: "Chicago",
      customer_address_state_code: "IL",
      customer_address_zip: "60601",
      shipping_cost: "0",
      items: [{ sku: "BOOT-42", size: "9", price: "12.50", tax: "1.00" }],
    };
    const problem = firstProblem(specialOrderProblems(values, message));
    expect(problem).toEqual({ code: "special_orders.validation.email", params: { value: "maria.lopez@example" } });
    const order = await prisma.specialOrder.create({ data: { store_id: "001", store_ticket: `${PREFIX}T1`, customer_name: "Maria Lopez", status: "pending" } });
    await prisma.$transaction((tx) => recordSpecialOrderError(tx, order, problem!));
    const stored = await prisma.specialOrderError.findFirstOrThrow({ where: { special_order_id: order.id } });
    expect(stored.error_message).toBe("'maria.lopez@example' is not a valid email address.");
    const answer = await listSpecialOrderErrors(new URLSearchParams({ store_ticket: `${PREFIX}T1` })).then((answer) => renderForReader(t.de, answer));
    expect(answer.data.map((row) => row.error_message)).toEqual([renderMessage(t.de as never, "de", problem)]);
    expect(answer.data[0].error_message).not.toBe(stored.error_message);
  });
});

describe("Realtime Shipping Log", () => {
  it("writes a drop-ship shipment's line as a code, also the one already sent, and shows both in German", async () => {
    const shipment = {
      shopifyOrderId: "990001",
      orderId: `${PREFIX}R1`,
      fulfillmentId: "gid://shopify/Fulfillment/770001",
      createdInShopify: true,
      poNumber: "PO-R1",
      vendorName: "Acme",
      responseId: 1,
      sku: "BOOT-42",
      qty: 1,
      trackingNumber: "1ZR1",
      carrier: "UPS",
    };
    // The same fulfilment twice in one batch: the second row names the first, as already sent (the SQL path).
    await prisma.$transaction((tx) => recordDropshipShipments(tx, [shipment, { ...shipment, responseId: 2 }]));
    const rows = await prisma.realtimeShippingLog.findMany({ where: { order_increment_id: `${PREFIX}R1` }, orderBy: { id: "asc" } });
    expect(rows.map((row) => row.message)).toEqual([
      "Drop-ship shipment of PO PO-R1 (Acme): 1 x BOOT-42, tracking 1ZR1; Shopify fulfilment 770001 created.",
      `Drop-ship shipment of PO PO-R1 (Acme): 1 x BOOT-42, tracking 1ZR1; Shopify fulfilment 770001 created. Already sent to the AS400 with log ${rows[0].id}.`,
    ]);
    const answer = await listRealtimeShippingLogs(new URLSearchParams({ order_increment_id: `${PREFIX}R1`, sort: "id", sort_dir: "asc" })).then((answer) =>
      renderForReader(t.de, answer),
    );
    expect(answer.data.data.map((row) => row.message)).toEqual([
      "Streckensendung der Bestellung PO-R1 (Acme): 1 x BOOT-42, Sendungsnummer 1ZR1; Shopify-Ausführung 770001 erstellt.",
      `Streckensendung der Bestellung PO-R1 (Acme): 1 x BOOT-42, Sendungsnummer 1ZR1; ` +
        `Shopify-Ausführung 770001 erstellt. Bereits mit Protokoll ${rows[0].id} an den AS400 gesendet.`,
    ]);
  });
});

describe("a vendor file that cannot be read, in the reader's language (D124)", () => {
  // An 846 whose SE01 counts 9 segments where the set has 6: refused, named by its segment.
  const x12 = [
    "ISA*00*          *00*          *ZZ*T18SENDER      *ZZ*T18RECEIVER    *261126*1200*U*00401*000000001*0*P*>",
    "GS*IB*T18SENDER*T18RECEIVER*20261126*1200*1*X*004010",
    "ST*846*0001",
    "BIA*00*SI*INV1*20261126",
    "LIN**SK*SKU-1",
    "QTY*33*5",
    "SE*9*0001",
    "GE*1*1",
    "IEA*1*000000001",
  ].join("~\n");
  // An invoice CSV whose second row's quantity is not a number.
  const invoiceCsv = [
    "invoice_number,invoice_date,po_number,sku,quantity,unit_price,invoice_total",
    "INV-1,2026-11-20,PO-1,SKU-1,2,10.00,25.00",
    "INV-1,2026-11-20,PO-1,SKU-2,abc,5.00,25.00",
    "",
  ].join("\n");

  async function processed(vendorName: string, format: number, name: string, content: string, transactionSet: string) {
    const vendor = await prisma.vendor.create({
      data: {
        name: vendorName,
        store_id: `${PREFIX}${format}`,
        edi_format: format,
        edi_identifier: "T18RECEIVER",
        edi_qualifier: "ZZ",
        edi997_enabled: 0,
        edi846_enabled: 0,
      },
    });
    const stored = await storeIncomingFile(vendor, { name, path: `/in/${name}`, content: Buffer.from(content), transactionSet });
    await processStoredFile(stored.id, vendor, new StepReport());
  }
  const rowsOf = async (vendorName: string, language: "en" | "de" | "fr") =>
    (await listDropshipLogs(new URLSearchParams({ vendor_name: vendorName })).then((answer) => renderForReader(t[language], answer))).data.data.map(
      (row) => row.message as string,
    );

  it("an X12 fault: English text as before, German and French when read", async () => {
    const vendor = `${PREFIX}X12 Vendor`;
    await processed(vendor, 1, "bad.846", x12, "846");
    const stored = await prisma.dropshipLog.findFirstOrThrow({ where: { vendor_name: vendor, action: "process_responses" } });
    const fault = readX12(Buffer.from(x12)).faults.find((each) => each.segmentId === "SE")!;
    expect(describeFault(fault)).toBe('segment 7 (SE): SE01 says "9" segments, the transaction set has 5 [AK5 4]');
    expect(stored.message).toContain(describeFault(fault));
    expect(stored.message).toMatch(/^Could not process bad\.846: /);
    const de = (await rowsOf(vendor, "de")).find((row) => row.startsWith("bad.846"));
    expect(de).toMatch(/^bad\.846 konnte nicht verarbeitet werden: Segment 7 \(SE\): SE01 nennt "9" Segmente, der Transaktionssatz hat 5 \[AK5 4\]/);
    expect(de).not.toMatch(/says|segments|transaction set|more fault/);
    const fr = (await rowsOf(vendor, "fr")).join("\n");
    expect(fr).toContain('SE01 annonce "9" segments, l\'ensemble de transactions en a 5');
    // The one renderer gives the same English as describeFault.
    expect(englishText(faultMessage(fault))).toBe(describeFault(fault));
  });

  it("a vendor whose X12 settings are unusable: the file's error in German", async () => {
    const vendor = `${PREFIX}Unset Vendor`;
    const created = await prisma.vendor.create({ data: { name: vendor, store_id: `${PREFIX}unset`, edi_format: 1, edi997_enabled: 0, edi846_enabled: 0 } });
    const stored = await storeIncomingFile(created, { name: "unset.846", path: "/in/unset.846", content: Buffer.from(x12), transactionSet: "846" });
    await processStoredFile(stored.id, created, new StepReport());
    const row = await prisma.dropshipLog.findFirstOrThrow({ where: { vendor_name: vendor, action: "process_responses" } });
    expect(row.message).toMatch(/^Could not process unset\.846: the vendor's settings are not usable: EDI Identifier is required/);
    const de = (await rowsOf(vendor, "de")).join("\n");
    expect(de).toContain("unset.846 konnte nicht verarbeitet werden: die Einstellungen des Lieferanten sind nicht verwendbar: ");
    expect(de).not.toContain("settings are not usable");
  });

  it("a CSV row error: each row's line and the file's outcome in German", async () => {
    const vendor = `${PREFIX}CSV Vendor`;
    await processed(vendor, 0, "invoice.csv", invoiceCsv, "810");
    const rows = await prisma.dropshipLog.findMany({ where: { vendor_name: vendor, action: "process_responses" }, orderBy: { id: "asc" } });
    expect(rows.map((row) => row.message)).toContain('invoice.csv: line 3, quantity: "abc" is not a whole number');
    const de = await rowsOf(vendor, "de");
    expect(de).toContain('invoice.csv: Zeile 3, quantity: "abc" ist keine ganze Zahl');
    expect(de.join("\n")).not.toMatch(/is not a whole number|line 3|left out/);
    expect(de.join("\n")).toContain("Rechnung INV-1 ausgelassen: Fehler in Zeile 3");
  });

  it("why a received file was taken for what it is, in the line of its receipt, in German", () => {
    const recognised = recogniseCsvFile("asn.csv", "po_number,sku,quantity,tracking_number,carrier,ship_date\n", {});
    const stored = message("logs.dropship.stored", {
      file: "asn.csv",
      bytes: 58,
      type: message("logs.dropship.type_is", { type: "856" }),
      reason: recognised.reasonCoded,
    });
    expect(englishText(stored)).toContain("the header row is a ship notice (856) header");
    const de = renderMessage(t.de as never, "de", stored);
    expect(de).toContain("asn.csv gespeichert (58 Bytes");
    expect(de).toContain("die Kopfzeile ist die Kopfzeile für Versandavis (856)");
    expect(de).not.toMatch(/header row|ship notice/);
  });
});

describe("the logs' texts", () => {
  const locale = (language: string) => JSON.parse(readFileSync(`public/locales/${language}/common.json`, "utf8")) as Record<string, unknown>;
  const flatten = (node: unknown, prefix = ""): Record<string, string> =>
    typeof node === "string"
      ? { [prefix]: node }
      : Object.assign({}, ...Object.entries(node as object).map(([key, value]) => flatten(value, prefix ? `${prefix}.${key}` : key)));
  const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

  it.each(["logs", "edi", "grid"])("has every %s key in en, de and fr, with the same placeholders, translated", (namespace) => {
    const [en, de, fr] = ["en", "de", "fr"].map((language) => flatten(locale(language)[namespace], namespace));
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
    const untranslated: string[] = [];
    for (const [key, text] of Object.entries(en)) {
      expect(placeholders(de[key]), `de ${key}`).toEqual(placeholders(text));
      expect(placeholders(fr[key]), `fr ${key}`).toEqual(placeholders(text));
      // Words of our own (not only placeholders, codes and punctuation) differ from the English.
      // "copies", "SKUs" and "tickets" are also French (and SKUs German).
      const words = text.replace(/\{\{\w+\}\}/g, "").replace(/\b(SKUs?|AS400|AS400_HOST|PO|X12|TA1|DNH|copies|tickets?|\d+)\b/g, "");
      if (/[a-z]{3,}/i.test(words) && (de[key] === text || fr[key] === text)) untranslated.push(key);
    }
    expect(untranslated).toEqual([]);
  });

  it("has edi/'s English word for word (edi/ renders its own English, the pages render the locale)", () => {
    expect(locale("en").edi).toEqual(EDI_TEXTS);
    // A CSV reader's error as edi/ wrote it and as the renderer gives it in English.
    const error = readInvoiceCsv("invoice_number,po_number,sku,quantity\nINV-9,,SKU-1,1\n").errors[0];
    expect(englishText(error.coded as never)).toBe(error.message);
  });

  it("renders a list parameter joined, each item in the reader's language", () => {
    const list = message("logs.dropship.file_997", {
      file: "a.edi",
      vendor: "Acme",
      groups: [message("logs.dropship.group_status.accepted", { group: "1" }), message("logs.dropship.group_status.rejected", { group: "2" })],
    });
    expect(renderMessage(t.de as never, "de", list)).toBe("997 für a.edi, in der 997 dieses Laufs an Acme: Gruppe 1 angenommen; Gruppe 2 abgelehnt.");
  });
});
