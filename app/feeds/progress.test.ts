// Progress reported from deep inside a job (a drop-ship step's counts) lands
// on the run's starting log; outside a feed run, counting reports nothing.
import { describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { StepReport } from "~/dropship/flow/context.server";
import { withFeedProgress } from "./progress.server";
import { runFeed } from "./runner.server";
import { cleanUpTestFeeds } from "../../tests/support/test-feeds";

const NAME = "t_progress_counts";
cleanUpTestFeeds(NAME);

describe("feed progress", () => {
  it("puts a step's counts on the starting log while it runs, the last ones when it ends", async () => {
    let seenWhileRunning: unknown;
    await runFeed(NAME, ({ progress }) =>
      withFeedProgress(progress, async () => {
        const report = new StepReport();
        report.count("files_read");
        // The first report is written at once.
        for (let tries = 0; tries < 100 && !seenWhileRunning; tries++) {
          const log = await prisma.feedLog.findFirst({ where: { feed_name: NAME, type: "starting" } });
          if ((log?.meta as Record<string, unknown> | undefined)?.files_read === 1) seenWhileRunning = log!.meta;
          else await new Promise((resolve) => setTimeout(resolve, 50));
        }
        report.count("files_read", 4);
        report.count("requests_sent");
        return { message: "done" };
      }),
    );
    expect(seenWhileRunning).toMatchObject({ files_read: 1, trigger: "manual" });
    const starting = await prisma.feedLog.findFirstOrThrow({ where: { feed_name: NAME, type: "starting" } });
    expect(starting.meta).toMatchObject({ files_read: 5, requests_sent: 1 });
  });

  it("reports nothing outside a feed run", () => {
    const report = new StepReport();
    expect(() => report.count("files_read")).not.toThrow();
    expect(report.counts).toEqual({ files_read: 1 });
  });
});
