// Feeds over real HTTP on the demo data (spec 001 §7, §8): GET /api/feed,
// GET /api/feed_item, POST /api/feed_run and the cron save, with the 422s.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { useAppWithDatabase } from "../support/app-with-database";
import { followRun } from "../support/runs";

const suite = useAppWithDatabase("test", { SEED_DEMO_DATA: "1" });

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const get = async (path: string): Promise<{ status: number; body: Json }> => {
  const response = await fetch(`${suite.app.url}${path}`);
  return { status: response.status, body: await response.json() };
};
const post = async (path: string): Promise<{ status: number; body: Json }> => {
  const response = await fetch(`${suite.app.url}${path}`, { method: "POST" });
  return { status: response.status, body: await response.json() };
};
/** Run Feed: started in the background (202), followed to its end as the page does (D93). */
const runFeed = async (path: string): Promise<{ status: number; body: Json }> => {
  const { startStatus, body } = await followRun(suite.app.url, await fetch(`${suite.app.url}${path}`, { method: "POST" }));
  return { status: startStatus, body };
};
const put = async (path: string, fields: Record<string, string>) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set("_method", "PUT");
  const response = await fetch(`${suite.app.url}${path}`, { method: "POST", body: form });
  return { status: response.status, body: (await response.json()) as Json };
};
const logsOf = (feedName: string) => suite.db.feedLog.findMany({ where: { feed_name: feedName }, orderBy: { id: "asc" } });

describe("GET /api/feed", () => {
  it("lists every feed, last started first and never-run feeds last, flat as the spec shows", async () => {
    const { status, body } = await get("/api/feed");
    expect(status).toBe(200);
    const feeds = await suite.db.feed.findMany();
    expect(body).toMatchObject({ total: feeds.length, last_page: 1, current_page: 1 });
    expect(body.data).toHaveLength(feeds.length);
    const started = body.data.map((row: Json) => row.last_started_at).filter(Boolean);
    expect(started).toEqual([...started].sort().reverse());
    const firstNeverRun = body.data.findIndex((row: Json) => !row.last_started_at);
    if (firstNeverRun >= 0) expect(body.data.slice(firstNeverRun).every((row: Json) => !row.last_started_at)).toBe(true);
    expect(Object.keys(body.data[0])).toEqual(
      expect.arrayContaining(["id", "name", "cron_expression", "enabled", "last_started_at", "last_finished_at", "last_failed_at", "last_skipped_at"]),
    );
    expect(body.columns.map((column: Json) => column.label)).toEqual([
      "ID",
      "Name",
      "Cron Expression",
      "Last Started At",
      "Last Finished At",
      "Last Failed At",
      "Last Skipped At",
      "Actions",
    ]);
    const actions = body.columns.find((column: Json) => column.key === "actions");
    expect(actions.settings.links[0]).toMatchObject({ path: "/feed/item", field: "name", field_request_name: "feed_name", label: "View Logs" });
  });

  it("filters by name (any case) and refuses an unknown sort", async () => {
    const { body } = await get("/api/feed?name=SHIP&sort=name&sort_dir=asc");
    const expected = (await suite.db.feed.findMany({ where: { name: { contains: "ship" } }, orderBy: { name: "asc" } })).map((feed) => feed.name);
    expect(expected.length).toBeGreaterThan(1);
    expect(body.data.map((row: Json) => row.name)).toEqual(expected);
    expect(body.total).toBe(expected.length);

    const bad = await get("/api/feed?sort=cron");
    expect(bad.status).toBe(422);
    expect(bad.body.errors.sort[0]).toContain("Cannot sort by 'cron'");
  });
});

describe("GET /api/feed_item", () => {
  it("lists logs newest first with meta as JSON text, filtered by feed name and type", async () => {
    const { status, body } = await get("/api/feed_item");
    expect(status).toBe(200);
    expect(body.total).toBe(await suite.db.feedLog.count());
    expect(body.last_page).toBe(Math.ceil(body.total / 20));
    const created = body.data.map((row: Json) => row.created_at);
    expect(created).toEqual([...created].sort().reverse());
    expect(typeof body.data[0].meta).toBe("string");
    expect(() => JSON.parse(body.data[0].meta)).not.toThrow();
    expect(body.columns.map((column: Json) => column.label)).toEqual(["ID", "Feed Name", "Type", "Meta", "Created At", "Updated At"]);
    expect(body.columns.find((column: Json) => column.key === "type").options).toEqual({
      starting: "Starting",
      finished: "Finished",
      failed: "Failed",
      skipped: "Skipped",
    });

    const failed = await get("/api/feed_item?feed_name=Ship_Requests&type=failed&per_page=200");
    const expected = await suite.db.feedLog.count({ where: { feed_name: { contains: "ship_requests" }, type: "failed" } });
    expect(expected).toBeGreaterThan(0);
    expect(failed.body.total).toBe(expected);
    expect(failed.body.data.every((row: Json) => row.type === "failed" && row.feed_name.includes("ship_requests"))).toBe(true);

    const none = await get("/api/feed_item?feed_name=no_such_feed");
    expect(none.body).toMatchObject({ total: 0, last_page: 1, data: [] });
  });

  it("answers 422 for a type that is not one of the four", async () => {
    const { status, body } = await get("/api/feed_item?type=exploded");
    expect(status).toBe(422);
    expect(body.errors.type[0]).toContain("'exploded' is not one of: starting, finished, failed, skipped");
  });
});

describe("POST /api/feed_run", () => {
  it("runs a feed now: starting then finished, the spec's success text, the feed stamped, seeded runs left alone", async () => {
    const name = "clear_completed_ship_requests";
    const before = await logsOf(name);
    const stampsBefore = await suite.db.feed.findUniqueOrThrow({ where: { name } });
    const { status, body } = await runFeed(`/api/feed_run?feed_name=${name}`);
    expect(status).toBe(202);
    expect(body).toMatchObject({ error: false, message: "Feed ran successfully", status: "finished", feed_status: "finished" });
    expect(typeof body.detail).toBe("string");

    const added = (await logsOf(name)).slice(before.length);
    // The seeded runs are complete: nothing is closed as "interrupted".
    expect(added.map((log) => log.type)).toEqual(["starting", "finished"]);
    expect(added[0]!.meta).toMatchObject({ trigger: "manual" });
    expect(added[1]!.meta).toMatchObject({ started_log_id: added[0]!.id, message: body.detail });
    expect(body.log_id).toBe(added[1]!.id);
    const feed = await suite.db.feed.findUniqueOrThrow({ where: { name } });
    expect(feed.last_started_at!.getTime()).toBeGreaterThan(stampsBefore.last_started_at?.getTime() ?? 0);
    expect(feed.last_finished_at!.getTime()).toBeGreaterThan(stampsBefore.last_finished_at?.getTime() ?? 0);

    // It is the newest log of the list.
    const list = await get(`/api/feed_item?feed_name=${name}`);
    expect(list.body.data[0]).toMatchObject({ id: added[1]!.id, type: "finished" });
  });

  it("is skipped, with the spec's error text, while the feed runs elsewhere (another instance holds its lock)", async () => {
    const name = "populate_ship_requests";
    const other = new pg.Client({ connectionString: suite.database.url });
    await other.connect();
    try {
      // What runFeed takes on any instance (app/feeds/runner.server.ts).
      await other.query("SELECT pg_advisory_lock(72700002, hashtext($1))", [`feed:${name}`]);
      const { status, body } = await runFeed(`/api/feed_run?feed_name=${name}`);
      expect(status).toBe(202);
      expect(body).toMatchObject({ error: true, message: `Something went wrong running the ${name} feed`, feed_status: "skipped" });
      expect(body.detail).toBe(`The ${name} feed is already running: it was not started again.`);
      const last = (await logsOf(name)).at(-1)!;
      expect(last).toMatchObject({ type: "skipped", meta: expect.objectContaining({ reason: "still running", trigger: "manual" }) });
    } finally {
      await other.end();
    }
    const again = await runFeed(`/api/feed_run?feed_name=${name}`);
    expect(again.body).toMatchObject({ error: false, feed_status: "finished" });
  });

  it("reports a run that ended with a problem as an error, in the request's language", async () => {
    // No AS400 is configured for this app: the order sync says so.
    const { body } = await runFeed("/api/feed_run?feed_name=order_sync&locale=de");
    expect(body).toMatchObject({ error: true, message: "Beim Ausführen des Feeds order_sync ist ein Fehler aufgetreten", feed_status: "finished" });
    expect(body.detail).toContain("nicht eingerichtet"); // the run's own message, in the request's language (D116)
  });

  it("answers 422 without a valid feed name, 404 for an unknown feed, and an error for a feed with no job", async () => {
    const missing = await post("/api/feed_run");
    expect(missing.status).toBe(422);
    expect(missing.body.errors.feed_name).toEqual(["feed_name is required."]);
    const bad = await post("/api/feed_run?feed_name=Bad%20Name");
    expect(bad.status).toBe(422);
    expect(bad.body.errors.feed_name[0]).toContain('"Bad Name" is not a feed name');

    const unknown = await post("/api/feed_run?feed_name=no_such_feed");
    expect(unknown).toEqual({ status: 404, body: { error: true, message: "There is no feed named no_such_feed." } });

    // Seeded for an area whose job is not in this build yet.
    await suite.db.feed.upsert({ where: { name: "t_api_jobless" }, update: {}, create: { name: "t_api_jobless", cron_expression: "0 0 * * *" } });
    const jobless = await post("/api/feed_run?feed_name=t_api_jobless");
    expect(jobless.body).toMatchObject({ error: true, message: "Something went wrong running the t_api_jobless feed", status: "not_runnable" });
    expect(await logsOf("t_api_jobless")).toEqual([]);
  });
});

describe("a feed's cron", () => {
  it("loads, refuses an expression the scheduler could not run with what is wrong, and saves a good one", async () => {
    const feed = await suite.db.feed.findUniqueOrThrow({ where: { name: "vendor_invoices_810" } });
    const form = await get(`/api/feed/${feed.id}`);
    expect(form.body).toEqual({ id: feed.id, name: feed.name, cron_expression: feed.cron_expression, enabled: 1 });

    const bad = await put(`/api/feed/${feed.id}`, { cron_expression: "61 * * * *" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.cron_expression[0]).toBe(
      'The cron expression is not valid: "61 * * * *" is not a valid cron expression: minute must be 0-59 (got "61").',
    );
    const short = await put(`/api/feed/${feed.id}`, { cron_expression: "0 6 *" });
    expect(short.body.errors.cron_expression[0]).toContain("expected 5 fields");
    const blank = await put(`/api/feed/${feed.id}`, { cron_expression: "  " });
    expect(blank.body.errors.cron_expression[0]).toContain("A cron expression is required");
    expect((await suite.db.feed.findUniqueOrThrow({ where: { id: feed.id } })).cron_expression).toBe(feed.cron_expression);

    const saved = await put(`/api/feed/${feed.id}`, { cron_expression: "  15   7 * * 1-5 " });
    expect(saved).toEqual({
      status: 200,
      body: { error: false, message: "Feed schedule saved", feed: { id: feed.id, name: feed.name, cron_expression: "15 7 * * 1-5", enabled: 1 } },
    });
    expect((await suite.db.feed.findUniqueOrThrow({ where: { id: feed.id } })).cron_expression).toBe("15 7 * * 1-5");

    expect((await get("/api/feed/999999")).status).toBe(404);
  });
});
