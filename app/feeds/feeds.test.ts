// The Feed Logs grid against the real database: the feed-name filter (any
// case, any part of the name) and the totals kept for large results, which
// must stay exact as logs are added. Feed names start with t_grid_.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { i18nServer, type Translate } from "~/i18n/i18n.server";
import { renderForReader } from "~/i18n/messages";
import { COUNT_KEPT_ABOVE, listFeedLogs } from "./feeds.server";

const PREFIX = "t_grid_";
const BIG = `${PREFIX}big_feed`;
let t: Translate;

async function cleanUp() {
  await prisma.feedLog.deleteMany({ where: { feed_name: { startsWith: PREFIX } } });
}

beforeAll(async () => {
  t = await i18nServer.getFixedT("en", "common");
  await cleanUp();
  const rows = Array.from({ length: COUNT_KEPT_ABOVE + 500 }, (_, i) => ({
    feed_name: BIG,
    type: i % 10 === 0 ? "failed" : "finished",
    meta: { n: i },
  }));
  await prisma.feedLog.createMany({ data: rows });
  await prisma.feedLog.create({ data: { feed_name: `${PREFIX}small_feed`, type: "skipped", meta: { reason: "still running" } } });
});
afterAll(cleanUp);

const list = (query: string) => listFeedLogs(new URLSearchParams(query)).then((answer) => renderForReader(t, answer));

describe("Feed Logs grid", () => {
  it("filters by any part of the feed name in any case, and by type", async () => {
    const both = await list(`feed_name=${PREFIX.toUpperCase()}`);
    expect(both.total).toBe(COUNT_KEPT_ABOVE + 501);
    const small = await list("feed_name=GRID_SMALL");
    expect(small.data.map((row) => [row.feed_name, row.type, row.meta])).toEqual([[`${PREFIX}small_feed`, "skipped", '{"reason":"still running"}']]);
    const failed = await list(`feed_name=big_FEED&type=failed`);
    expect(failed.total).toBe((COUNT_KEPT_ABOVE + 500) / 10);
    expect(failed.data.every((row) => row.type === "failed" && row.feed_name === BIG)).toBe(true);
  });

  it("keeps a large total exact as logs are added, newest first", async () => {
    expect((await list(`feed_name=${BIG}`)).total).toBe(COUNT_KEPT_ABOVE + 500);
    const added = await prisma.feedLog.create({ data: { feed_name: BIG, type: "starting", meta: {} } });
    await prisma.feedLog.create({ data: { feed_name: `${PREFIX}small_feed`, type: "starting", meta: {} } });
    const after = await list(`feed_name=${BIG}`);
    expect(after.total).toBe(COUNT_KEPT_ABOVE + 501);
    expect(after.data[0]).toMatchObject({ id: added.id, type: "starting" });
    expect(after.last_page).toBe(Math.ceil((COUNT_KEPT_ABOVE + 501) / 20));
  });
});
