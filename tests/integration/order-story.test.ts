// The order's page and the file viewer over real HTTP (issue 32 items 1, 2 and 8):
// GET /api/order/{increment_id} tells a drop-shipped order's story from the demo
// data; /api/file/{id} shows a stored file a page at a time with its segments'
// names; the download gives the stored bytes as an attachment, by id only.
import { describe, expect, it } from "vitest";
import { useAppWithDatabase } from "../support/app-with-database";

const suite = useAppWithDatabase("order-story", { SEED_DEMO_DATA: "1" });

const get = (path: string) => fetch(`${suite.app.url}${path}`);

/** A demo order whose drop-ship request was sent in an 850 and answered with an X12 856 (a file in, a file out). */
async function shippedDropshipOrder() {
  const response = await suite.db.dropshipResponse.findFirstOrThrow({
    where: { response_type: "856", transmission_id: { not: null }, request: { transmission_id: { not: null } } },
    orderBy: { id: "asc" },
    include: { request: true, transmission: true },
  });
  return { response, request: response.request!, inbound: response.transmission! };
}

describe("the order's story", () => {
  it("tells the order, its items and assignments, the request, the vendor's answer and the files in and out, in time order", async () => {
    const { response, request, inbound } = await shippedDropshipOrder();
    const answer = await get(`/api/order/${encodeURIComponent(request.order_increment_id)}`);
    expect(answer.status).toBe(200);
    const story = await answer.json();
    expect(story.order.increment_id).toBe(request.order_increment_id);

    const assignment = story.items.flatMap((item: { assignments: unknown[] }) => item.assignments).find((a: { id: number }) => a.id === request.assignment_id);
    expect(assignment).toMatchObject({ source: "vendor", dropshipper_name: request.vendor_name, assign_status: 4, request: { po_number: request.po_number } });

    const shown = story.requests.find((r: { request_id: number }) => r.request_id === request.request_id);
    expect(shown).toMatchObject({ vendor_name: request.vendor_name, po_number: request.po_number, transmission_id: request.transmission_id });
    expect(shown.responses).toEqual([
      expect.objectContaining({ id: response.id, response_type: "856", tracking_number: response.tracking_number, transmission_id: inbound.id }),
    ]);
    expect(story.fulfilments).toEqual(expect.arrayContaining([expect.objectContaining({ tracking_number: response.tracking_number })]));

    const fileIds = story.files.map((file: { id: number }) => file.id);
    expect(fileIds).toEqual(expect.arrayContaining([request.transmission_id, inbound.id]));
    expect(story.files.find((file: { id: number }) => file.id === inbound.id)).toMatchObject({ direction: "in", transaction_set: "856" });

    const kinds = story.events.map((event: { kind: string }) => event.kind);
    expect(kinds).toEqual(expect.arrayContaining(["order_created", "assignment", "request", "request_sent", "response", "file", "log"]));
    const times = story.events.map((event: { at: string }) => event.at);
    expect(times).toEqual([...times].sort());
    // A log line's message is words in the reader's language, and names its file.
    const shippedLog = story.events.find((event: { kind: string; file_id: number | null }) => event.kind === "log" && event.file_id === inbound.id);
    expect(typeof shippedLog.message).toBe("string");
    expect(shippedLog.message).toContain(response.tracking_number);
    expect(story.truncated).toMatchObject({ logs: false, staff: false });
  });

  it("an order with more log lines than the cap reads the latest 500 and says the rest were left out", async () => {
    const order = await suite.db.order.create({ data: { order_id: "CAP-TEST-1", customer_email: "cap@example.com" } });
    await suite.db.dropshipLog.createMany({
      data: Array.from({ length: 520 }, (_, i) => ({
        action: "process_responses",
        status: "info",
        order_increment_id: order.order_id,
        message: `line ${i}`,
        created_at: new Date(Date.UTC(2026, 10, 1) + i * 60_000),
      })),
    });
    const story = await (await get("/api/order/CAP-TEST-1")).json();
    const logs = story.events.filter((event: { kind: string }) => event.kind === "log");
    expect(logs).toHaveLength(500);
    expect(logs[0].message).toBe("line 20");
    expect(logs[499].message).toBe("line 519");
    expect(story.truncated).toMatchObject({ logs: true, staff: false, realtime_sales: false });
    const page = await (await get("/order/CAP-TEST-1")).text();
    expect(page).toContain("Only the latest 500 rows of each kind are shown");
  });

  it("an unknown order is a 404 with a message in the reader's language; a malformed number a 422", async () => {
    const missing = await get("/api/order/NO-SUCH-ORDER-1");
    expect(missing.status).toBe(404);
    expect((await missing.json()).message).toBe("Order NO-SUCH-ORDER-1 was not found");
    const german = await get("/api/order/NO-SUCH-ORDER-1?locale=de");
    expect((await german.json()).message).toBe("Bestellung NO-SUCH-ORDER-1 wurde nicht gefunden");

    const malformed = await get("/api/order/a%20b%3Cscript%3E");
    expect(malformed.status).toBe(422);
    expect((await malformed.json()).errors.incrementId).toHaveLength(1);
  });

  it("the page shows the order with its request and files, and says when the order is unknown", async () => {
    const { request, inbound } = await shippedDropshipOrder();
    const page = await get(`/order/${encodeURIComponent(request.order_increment_id)}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`Order ${request.order_increment_id}`);
    expect(html).toContain(`Request ${request.po_number}`);
    expect(html).toContain(`href="/file/${inbound.id}"`);
    const unknown = await get("/order/NO-SUCH-ORDER-2");
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("Order NO-SUCH-ORDER-2 was not found");
  });
});

describe("a stored file", () => {
  it("shows an X12 file one segment a line with its name, and the records and log lines that name it", async () => {
    const { response, inbound } = await shippedDropshipOrder();
    const answer = await get(`/api/file/${inbound.id}`);
    expect(answer.status).toBe(200);
    const view = await answer.json();
    expect(view.file).toMatchObject({ id: inbound.id, file_name: inbound.file_name, direction: "in", transaction_set: "856", partner: "vendor" });
    expect(view.content.format).toBe("x12");
    const segments = view.content.segments as Array<{ id: string; name: string | null; elements: string[] }>;
    expect(segments[0]).toMatchObject({ id: "ISA", name: "Interchange Control Header" });
    expect(segments.find((segment) => segment.id === "BSN")).toMatchObject({ name: "Beginning Segment for Ship Notice" });
    expect(segments.find((segment) => segment.id === "REF")!.elements).toEqual(["CN", response.tracking_number]);
    expect(view.content.total).toBe(segments.length);
    expect(view.links.responses.map((r: { id: number }) => r.id)).toContain(response.id);
    expect(view.links.logs.length).toBeGreaterThan(0);
    expect(typeof view.links.logs[0].message).toBe("string");
  });

  it("pages through a big file 500 segments at a time, with the total, and marks the segment at fault", async () => {
    const body = Array.from({ length: 1200 }, (_, i) => `LIN**VP*SKU-${i}`);
    const text =
      [
        "ISA*00*          *00*          *ZZ*VENDOR         *ZZ*HOUSE          *261101*1200*U*00401*000000901*0*P*>",
        "GS*SH*V*H*20261101*1200*901*X*004010",
        "ST*856*0001",
        ...body,
        "SE*1202*0001",
        "GE*1*901",
        "IEA*1*000000901",
      ].join("~\n") + "~\n";
    const file = await suite.db.transmission.create({
      data: {
        direction: "in",
        file_name: "big_856.edi",
        transaction_set: "856",
        content_hash: "x",
        content: Buffer.from(text),
        size: Buffer.byteLength(text),
        status: "failed",
        error: "SE01 says 1202 segments",
        error_segment: "1204 SE",
      },
    });
    const page3 = await (await get(`/api/file/${file.id}?page=3`)).json();
    expect(page3.content).toMatchObject({ page: 3, last_page: 3, total: 1206, per_page: 500 });
    expect(page3.content.segments).toHaveLength(206);
    expect(page3.content.segments[0].index).toBe(1001);
    expect(page3.file.error_segment_index).toBe(1204);
    const html = await (await get(`/file/${file.id}?page=3`)).text();
    expect(html).toContain('class="file-viewer-fault"');
    expect(html).toContain("Page 3 of 3 - Segments: 1206");
    expect((await get(`/api/file/${file.id}?page=0`)).status).toBe(422);
  });

  it("downloads the stored bytes as an attachment that is never rendered, by id only", async () => {
    const { inbound } = await shippedDropshipOrder();
    const answer = await get(`/api/file/${inbound.id}/download`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-disposition")).toBe(`attachment; filename="${inbound.file_name}"`);
    expect(answer.headers.get("content-type")).toBe("application/octet-stream");
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(Buffer.from(await answer.arrayBuffer()).equals(Buffer.from(inbound.content))).toBe(true);
  });

  it("a name with a path or quotes is made safe; a non-numeric or path-like id is refused; a missing one is a 404", async () => {
    const file = await suite.db.transmission.create({
      data: {
        direction: "out",
        partner: "as400",
        file_name: '../../etc/"evil"\r\nname.csv',
        transaction_set: "csv",
        content_hash: "x",
        content: Buffer.from("a,b\n1,2\n"),
        size: 8,
        status: "sent",
      },
    });
    const answer = await get(`/api/file/${file.id}/download`);
    expect(answer.headers.get("content-disposition")).toBe('attachment; filename="_evil_name.csv"');
    const view = await (await get(`/api/file/${file.id}`)).json();
    expect(view.content).toMatchObject({ format: "csv", header: ["a", "b"], rows: [{ line: 2, cells: ["1", "2"] }] });

    for (const id of ["abc", "..%2F..%2Fetc%2Fpasswd", "1.5", "-1", "0", "eod-x"]) {
      expect((await get(`/api/file/${id}/download`)).status, id).toBe(422);
      expect((await get(`/api/file/${id}`)).status, id).toBe(422);
    }
    const missing = await get("/api/file/99999999/download");
    expect(missing.status).toBe(404);
    expect((await missing.json()).message).toBe("File 99999999 was not found");
  });

  it("an EOD batch file opens as eod-{id}, a CSV table", async () => {
    const batch = await suite.db.eodBatch.findFirstOrThrow({ orderBy: { id: "asc" } });
    const view = await (await get(`/api/file/eod-${batch.id}`)).json();
    expect(view.file).toMatchObject({ key: `eod-${batch.id}`, file_name: batch.file_name, partner: "as400", direction: "out" });
    const bytes = Buffer.from(await (await get(`/api/file/eod-${batch.id}/download`)).arrayBuffer());
    expect(bytes.equals(Buffer.from(batch.content))).toBe(true);
  });
});
