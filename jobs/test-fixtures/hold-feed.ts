// Test fixture (jobs/scheduler.processes.test.ts): a scheduler process with one
// every-second feed whose job holds for a while, recording its process and
// times. Usage: node --import tsx jobs/test-fixtures/hold-feed.ts <feed> [holdMs]
import { setTimeout as sleep } from "node:timers/promises";
import prisma from "../../app/db.server";
import { startScheduler } from "../scheduler";

const [feedName, holdArg] = process.argv.slice(2);
if (!feedName) throw new Error("usage: hold-feed.ts <feed name> [hold ms]");
const holdMs = Number(holdArg ?? 1500);

const scheduler = await startScheduler({
  jobs: {
    [feedName]: {
      defaultCron: "* * * * * *",
      async run({ signal }) {
        const startedAt = new Date().toISOString();
        await sleep(holdMs, undefined, { signal });
        return { message: "held", meta: { pid: process.pid, started_at: startedAt, ended_at: new Date().toISOString() } };
      },
    },
  },
  reloadEveryMs: 60_000,
  shutdownGraceMs: 5_000,
});
console.log("ready");

process.on("SIGTERM", () => {
  void scheduler
    .stop()
    .then(() => prisma.$disconnect())
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
});
