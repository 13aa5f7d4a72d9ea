// Every job of the registry is a feed row in the demo data, with a cron the
// scheduler can run, so the Feed Summary shows it (and its seeded logs) from
// the first start. Jobs added to the registry need their row in FEEDS.
import { describe, expect, it } from "vitest";
import { FEED_JOBS } from "./registry";
import { FEEDS } from "../prisma/seed/demo";
import { validateCron } from "../app/feeds/cron";

describe("the demo feeds", () => {
  it("have a row for every job of the registry, each with a valid cron", () => {
    const seeded = new Map(FEEDS);
    const missing = Object.keys(FEED_JOBS).filter((name) => !seeded.has(name));
    expect(missing).toEqual([]);
    for (const [name, cron] of FEEDS) expect(validateCron(cron), name).toBeNull();
  });
});
