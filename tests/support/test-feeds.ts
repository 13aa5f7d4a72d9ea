// For the test files that run feeds in this process (the database is shared with
// the other files): the feeds whose names start with the file's prefix, their logs
// and their background runs are deleted before and after the file's tests, and the
// feed runner's pool is closed after them.
import { afterAll, beforeAll } from "vitest";
import prisma from "../../app/db.server";
import { closeFeedPool } from "../../app/feeds/runner.server";

export function cleanUpTestFeeds(prefix: string) {
  const cleanUp = async () => {
    await prisma.feedLog.deleteMany({ where: { feed_name: { startsWith: prefix } } });
    await prisma.feed.deleteMany({ where: { name: { startsWith: prefix } } });
    await prisma.backgroundRun.deleteMany({ where: { lock_key: { startsWith: `feed:${prefix}` } } });
  };
  beforeAll(cleanUp);
  afterAll(async () => {
    await cleanUp();
    await closeFeedPool();
  });
}
