// The needs_attention feed (every 5 minutes by default): the sweep, today's
// digest when its time has come, then the alerts that are due. Its own feed,
// so a mail server that hangs delays no drop-ship step.
import { englishText } from "~/i18n/english.server";
import { message } from "~/i18n/messages";
import type { FeedJob } from "~/feeds/runner.server";
import { getSettings } from "~/settings/settings.server";
import { deliverAlerts, queueDigest } from "./alerts.server";
import { sweepAttention } from "./sweep.server";

export const NEEDS_ATTENTION_FEED = { name: "needs_attention", defaultCron: "*/5 * * * *" } as const;

export const needsAttentionJob: FeedJob = async () => {
  const now = new Date();
  const settings = await getSettings();
  const swept = await sweepAttention(now, settings);
  const digests = await queueDigest(now, settings);
  const delivered = await deliverAlerts(now, settings);
  const summary = message("logs.feeds.needs_attention", {
    opened: swept.opened,
    resolved: swept.resolved,
    open: swept.open,
    sent: delivered.sent,
    failed: delivered.failed,
  });
  return {
    message: englishText(summary),
    messageCode: summary,
    error: swept.failedKinds.length > 0 || delivered.failed > 0,
    meta: {
      opened: swept.opened,
      resolved: swept.resolved,
      open: swept.open,
      alerts_queued: swept.alertsQueued + digests,
      alerts_sent: delivered.sent,
      alerts_failed: delivered.failed,
    },
  };
};
