// Lists staff can export, filter by date and shape (issue 32; D265–D269), over
// real HTTP to the built app in local mode on the demo data: format=csv holds
// the rows the grid's filters and sort select across pages, the order grid's
// too; a date range takes whole days in the app's time zone; bad dates are a
// 422 in the reader's language; the column chooser is kept per staff member.
import { describe, expect, it } from "vitest";
import { useAppWithDatabase } from "../support/app-with-database";

const suite = useAppWithDatabase("grid_lists", { SEED_DEMO_DATA: "1", APP_TIMEZONE: "America/New_York" });

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const get = async (path: string): Promise<{ status: number; body: Json }> => {
  const response = await fetch(`${suite.app.url}${path}`);
  return { status: response.status, body: (await response.json()) as Json };
};

/** RFC 4180 as csvResponse writes it (BOM, CRLF, quotes doubled). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const body = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < body.length; i++) {
    const char = body[i];
    if (quoted) {
      if (char === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(cell);
      cell = "";
    } else if (char === "\r" && body[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += char;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

async function csv(path: string): Promise<{ status: number; type: string | null; disposition: string | null; rows: string[][] }> {
  const response = await fetch(`${suite.app.url}${path}`);
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    disposition: response.headers.get("content-disposition"),
    rows: parseCsv(await response.text()),
  };
}

/** Every page of a grid's JSON answer (200 a page), nested or flat. */
async function allPages(path: string): Promise<Json[]> {
  const rows: Json[] = [];
  for (let page = 1; ; page++) {
    const { status, body } = await get(`${path}&per_page=200&page=${page}`);
    expect(status).toBe(200);
    const data = (Array.isArray(body.data) ? body.data : body.data.data) as Json[];
    const lastPage = (body.last_page ?? body.data.last_page) as number;
    rows.push(...data);
    if (page >= lastPage) return rows;
  }
}

const FEED = `grid_lists_${Date.now()}`;
const LABELS = { order_id: "Order ID", customer_email: "Customer Email", fulfillment_status: "Shopify Fulfillment Status" };

describe("format=csv on a grid's /api twin", () => {
  it("holds the rows the filters and sort select, across pages and chunks, ties kept in the grid's order", async () => {
    // 2,300 logs of one feed, in 23 runs of equal created_at: more than two chunks of 1,000, ties across chunk edges.
    const base = Date.parse("2026-01-20T15:00:00Z");
    await suite.db.feedLog.createMany({
      data: Array.from({ length: 2300 }, (_, i) => ({
        feed_name: FEED,
        type: i % 3 === 0 ? "failed" : "finished",
        meta: i % 3 === 0 ? { error: `broke ${i}` } : { count: i },
        created_at: new Date(base + Math.floor(i / 100) * 60_000),
      })),
    });
    const query = `feed_name=${FEED}&sort=created_at&sort_dir=asc`;
    const pages = await allPages(`/api/feed_item?${query}`);
    expect(pages).toHaveLength(2300);

    const file = await csv(`/api/feed_item?${query}&format=csv`);
    expect(file.status).toBe(200);
    expect(file.type).toBe("text/csv; charset=utf-8");
    expect(file.disposition).toMatch(/^attachment; filename="feed_item_\d{8}_\d{4}\.csv"$/);
    const [header, ...rows] = file.rows;
    expect(header).toEqual(["ID", "Feed Name", "Type", "Meta", "Created At", "Updated At"]);
    expect(rows.map((row) => Number(row[0]))).toEqual(pages.map((row) => row.id));
    // Select values as words, datetimes in the app's time zone (10:00 in New York is 15:00 UTC in January).
    expect(rows[0]).toEqual([String(pages[0].id), FEED, "Failed", "broke 0", "2026-01-20 10:00:00", expect.any(String)]);
    expect(rows[1][2]).toBe("Finished");
    expect(rows[1][3]).toBe('{"count":1}');
  });

  it("filters by type and sorts descending the same way as the pages", async () => {
    const query = `feed_name=${FEED}&type=failed&sort=created_at&sort_dir=desc`;
    const pages = await allPages(`/api/feed_item?${query}`);
    const [, ...rows] = (await csv(`/api/feed_item?${query}&format=csv`)).rows;
    expect(rows.map((row) => Number(row[0]))).toEqual(pages.map((row) => row.id));
    expect(new Set(rows.map((row) => row[2]))).toEqual(new Set(["Failed"]));
  });

  it("keeps the columns staff show (columns=), with headings and words in the reader's language", async () => {
    const file = await csv(`/api/feed_item?feed_name=${FEED}&type=failed&sort=id&sort_dir=asc&format=csv&columns=type,id&locale=de`);
    expect(file.rows[0]).toEqual(["ID", "Typ"]);
    expect(file.rows[1]).toEqual([expect.stringMatching(/^\d+$/), "Fehlgeschlagen"]);
    const unknown = await get(`/api/feed_item?format=csv&columns=id,nope`);
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.columns[0]).toContain("nope");
  });

  it("leaves link-only columns out, on every grid list", async () => {
    // The 22 grids' /api twins (app/routes/api.*.ts using gridApiRoute).
    const grids = [
      ...["assignment", "attention", "category_tags_mapping", "dropship_log", "dropship_request", "dropship_response", "dropship_vendor", "eod_batch"],
      ...["eod_report", "feed", "feed_item", "in_progress_assignment", "product", "product_api_error", "product_api_operation", "realtime_sales_log"],
      ...["realtime_shipping_log", "special_order_current", "special_order_error", "special_order_log", "store", "unassigned_orders"],
    ];
    for (const grid of grids) {
      const { body } = await get(`/api/${grid}`);
      const columns = body.columns as Json[];
      const file = await csv(`/api/${grid}?format=csv`);
      expect(file.status, grid).toBe(200);
      expect(file.rows[0], grid).toEqual(columns.filter((column) => column.dataType !== "links").map((column) => column.label));
      const total = (body.total ?? body.data.total) as number;
      expect(file.rows.length - 1, grid).toBe(total);
    }
  });

  it("answers the order grid's CSV: the filtered, sorted orders across pages, with the column chooser's columns", async () => {
    const query = "magentoOrderStatus=processing&sort=customer_email&sort_dir=asc&status=any";
    const pages = await allPages(`/api/advancedordergrid?${query}`);
    expect(pages.length).toBeGreaterThan(20);
    const file = await csv(`/api/advancedordergrid?${query}&format=csv&columns=order_id,fulfillment_status,customer_email`);
    expect(file.status).toBe(200);
    // In the grid's order, whatever order they were asked in.
    expect(file.rows[0]).toEqual([LABELS.order_id, LABELS.customer_email, LABELS.fulfillment_status]);
    const [, ...rows] = file.rows;
    expect(rows.map((row) => row[0])).toEqual(pages.map((row) => row.order_id));
    expect(rows.map((row) => row[1])).toEqual(pages.map((row) => row.customer_email ?? ""));

    const all = await csv(`/api/advancedordergrid?${query}&format=csv`);
    expect(all.rows[0]).toHaveLength(22); // the 23 columns but View Order, a link
  });
});

describe("a date range filter", () => {
  it("takes whole days in the app's time zone, to inclusive, either side open", async () => {
    const feed = `${FEED}_days`;
    // Around midnight in New York (UTC-5 in January).
    const at = ["2026-01-15T04:59:59.999Z", "2026-01-15T05:00:00.000Z", "2026-01-16T04:59:59.999Z", "2026-01-16T05:00:00.000Z"];
    await suite.db.feedLog.createMany({ data: at.map((iso) => ({ feed_name: feed, type: "finished", meta: {}, created_at: new Date(iso) })) });
    const ids = async (range: string) => {
      const { status, body } = await get(`/api/feed_item?feed_name=${feed}&sort=created_at&sort_dir=asc&${range}`);
      expect(status, JSON.stringify(body)).toBe(200);
      return (body.data as Json[]).map((row) => new Date(row.created_at as string).toISOString());
    };
    expect(await ids("created_at=2026-01-15..2026-01-15")).toEqual([at[1], at[2]]);
    expect(await ids("created_at=2026-01-15..")).toEqual([at[1], at[2], at[3]]);
    expect(await ids("created_at=..2026-01-14")).toEqual([at[0]]);
    expect(await ids("created_at_from=2026-01-14&created_at_to=2026-01-15")).toEqual([at[0], at[1], at[2]]);
    // The CSV takes the same rows.
    const [, ...rows] = (
      await csv(`/api/feed_item?feed_name=${feed}&created_at=2026-01-15..2026-01-15&sort=created_at&sort_dir=asc&format=csv&columns=created_at`)
    ).rows;
    expect(rows).toEqual([["2026-01-15 00:00:00"], ["2026-01-15 23:59:59"]]);
  });

  it("is a 422 with a message in the reader's language for a bad date or a range the wrong way round", async () => {
    const bad = await get("/api/dropship_log?created_at=2026-02-30..&locale=de");
    expect(bad.status).toBe(422);
    expect(bad.body.errors.created_at).toEqual(["„2026-02-30“ ist kein Datum (JJJJ-MM-TT)."]);
    const reversed = await get("/api/feed_item?created_at=2026-01-20..2026-01-10&locale=de");
    expect(reversed.status).toBe(422);
    expect(reversed.body.errors.created_at).toEqual(["Das Anfangsdatum 2026-01-20 liegt nach dem Enddatum 2026-01-10."]);
    const english = await get("/api/special_order_log?created_at=yesterday");
    expect(english.body.errors.created_at).toEqual(["'yesterday' is not a date (YYYY-MM-DD)."]);
    const csvToo = await get("/api/feed_item?format=csv&created_at=2026-01-20..2026-01-10");
    expect(csvToo.status).toBe(422);
  });

  it("filters the EOD report's Sales Date, and its CSV export exports what the report shows", async () => {
    const days = await suite.db.eodReportRow.findMany({ select: { sales_date: true }, distinct: ["sales_date"], orderBy: { sales_date: "desc" } });
    expect(days.length).toBeGreaterThan(1);
    const day = days[0].sales_date.toISOString().slice(0, 10);
    const onDay = await suite.db.eodReportRow.count({ where: { sales_date: days[0].sales_date } });
    const { body } = await get(`/api/eod_report?sales_date=${day}..${day}`);
    expect(body.data.total).toBe(onDay);
    const file = await csv(`/api/eod_report_export_csv?sales_date=${day}..${day}`);
    expect(file.rows.length - 1).toBe(onDay);
    expect(new Set(file.rows.slice(1).map((row) => row[0]))).toEqual(new Set([day]));
  });
});

describe("the feed logs' Meta", () => {
  it("carries the run's words in the reader's language beside the JSON", async () => {
    const feed = `${FEED}_meta`;
    await suite.db.feedLog.create({
      data: { feed_name: feed, type: "failed", meta: { error: "Timed out", error_code: { code: "grid.errors.all_hidden" } } },
    });
    const { body } = await get(`/api/feed_item?feed_name=${feed}&locale=de`);
    expect(body.data[0].meta_text).toBe("Mindestens eine Spalte muss angezeigt bleiben.");
    expect(JSON.parse(body.data[0].meta as string)).toEqual({ error: "Mindestens eine Spalte muss angezeigt bleiben." });
    const [, row] = (await csv(`/api/feed_item?feed_name=${feed}&format=csv&columns=meta`)).rows;
    expect(row).toEqual(["At least one column must stay shown."]);
  });
});

describe("each staff member's columns", () => {
  const put = async (grid: string, hidden: unknown, locale = "en") => {
    const response = await fetch(`${suite.app.url}/api/grid_preferences/${grid}?locale=${locale}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ _method: "PUT", hidden_columns: hidden }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };

  it("are kept under the staff member's name, and read back for them only", async () => {
    // Another staff member's choice for the same grid.
    await suite.db.staffGridPreference.create({ data: { staff: "shopify-user:7", grid_id: "advancedorder", hidden_columns: ["customer_email"] } });
    expect((await get("/api/grid_preferences/advancedorder")).body).toEqual({ grid: "advancedorder", hidden_columns: [] });

    const saved = await put("advancedorder", ["shopify_order_id", "created_at", "updated_at"]);
    expect(saved.status).toBe(200);
    expect((await get("/api/grid_preferences/advancedorder")).body.hidden_columns).toEqual(["shopify_order_id", "created_at", "updated_at"]);
    const rows = await suite.db.staffGridPreference.findMany({ where: { grid_id: "advancedorder" }, orderBy: { staff: "asc" } });
    expect(rows.map((row) => [row.staff, row.hidden_columns])).toEqual([
      ["local", ["shopify_order_id", "created_at", "updated_at"]],
      ["shopify-user:7", ["customer_email"]],
    ]);
  });

  it("refuse an unknown grid (404), an unknown column or every column hidden (422, in the reader's language)", async () => {
    expect((await put("no_such_grid", [])).status).toBe(404);
    const unknown = await put("feed_item", ["nope"], "de");
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.hidden_columns[0]).toContain("nope");
    const all = await put("feed_item", ["id", "feed_name", "type", "meta", "created_at", "updated_at"], "de");
    expect(all.status).toBe(422);
    expect(all.body.errors.hidden_columns).toEqual(["Mindestens eine Spalte muss angezeigt bleiben."]);
  });
});
