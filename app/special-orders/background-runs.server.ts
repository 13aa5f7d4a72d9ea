// Pull New Special Orders as a background run (D93), through the feed runner.
import { feedSkipped, runFeedFor } from "~/runs/feed-runs.server";
import { message, plainText } from "~/runs/messages";
import type { RunDefinition } from "~/runs/runs.server";
import { pullSpecialOrders, SPECIAL_ORDER_FEED, SPECIAL_ORDER_FEED_CRON } from "./pull.server";

export function specialOrderPullRun(): RunDefinition {
  return {
    kind: "special_order_pull",
    action: "pull",
    lockKey: "special_order_pull",
    failure: message("special_orders.pull_error"),
    async work(run) {
      const result = await runFeedFor(run, SPECIAL_ORDER_FEED, (context) => pullSpecialOrders(context), SPECIAL_ORDER_FEED_CRON);
      if (result.status === "skipped") return { error: true, message: message("special_orders.pull_error"), detail: feedSkipped(SPECIAL_ORDER_FEED) };
      return {
        error: result.error,
        message: message(result.error ? "special_orders.pull_error" : "special_orders.pull_success"),
        detail: result.messageCode ?? plainText(result.message),
      };
    },
  };
}
