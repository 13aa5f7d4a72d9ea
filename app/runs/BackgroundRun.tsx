// The one view of a page's background run (D95): while it runs, a Polaris
// ProgressBar with "done of total" when the run knows its total, a Spinner
// when it does not, and its counts; at its end, the spec's result text in a
// banner (success or critical), the detail under it. A start refused (already
// running, 422) shows as a banner above. In local mode a run seen ending also
// gets a Polaris Toast (inside the admin, App Bridge's toast: use-background-run).
import { Badge, Banner, BlockStack, Card, InlineStack, ProgressBar, Spinner, Text, Toast } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAppSettings } from "~/components/app-settings";
import { formatDateTime } from "~/lib/format";
import type { RunView } from "./types";
import { appBridge, useEmbedded } from "~/components/app-bridge";
import type { useBackgroundRun } from "./use-background-run";

// An ended run's status as a Badge (issue 18 item 3).
const STATUS_TONES: Record<string, "success" | "critical" | "warning" | undefined> = { finished: "success", failed: "critical", interrupted: "warning" };

const RESERVED = new Set(["done", "total", "unit", "problems", "trigger", "pid", "host", "step"]);

function counts(run: RunView): Array<[string, number]> {
  return Object.entries(run.progress).filter((entry): entry is [string, number] => !RESERVED.has(entry[0]) && typeof entry[1] === "number");
}

export function BackgroundRun({ state, label }: { state: ReturnType<typeof useBackgroundRun>; label: (run: RunView) => string }) {
  const { t, i18n } = useTranslation();
  const { timeZone } = useAppSettings();
  const { run, notice } = state;
  const number = (value: number) => new Intl.NumberFormat(i18n.language).format(value);
  const embedded = useEmbedded();
  const [toast, setToast] = useState<{ content: string; error: boolean } | null>(null);

  // A run that ended while the page watched: a toast says so (its result is in the banner):
  // App Bridge's inside the admin, Polaris' in local mode.
  const { ended } = state;
  useEffect(() => {
    if (!ended) return;
    const content = t(ended.error ? "runs.toast_error" : "runs.toast_done", { action: label(ended) });
    if (embedded) appBridge()?.toast?.show(content, { isError: Boolean(ended.error) });
    else setToast({ content, error: Boolean(ended.error) });
    // Once per ended run: label, t and embedded are read as they are then (with them as dependencies a new
    // label function at each render would toast again).
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see above
  }, [ended]);

  return (
    <BlockStack gap="300">
      {notice && (
        <Banner tone={notice.tone} title={notice.title} onDismiss={state.dismissNotice}>
          {notice.messages.length > 0 && (
            <ul>
              {notice.messages.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          )}
        </Banner>
      )}
      {run && run.status === "running" && (
        <Card>
          <BlockStack gap="200">
            <InlineStack gap="200" blockAlign="center">
              {typeof run.progress.total !== "number" && <Spinner size="small" accessibilityLabel={t("runs.working")} />}
              <Text as="h2" variant="headingSm">
                {t("runs.running", { action: label(run) })}
              </Text>
            </InlineStack>
            {typeof run.progress.total === "number" && (
              <>
                <ProgressBar
                  progress={run.progress.total > 0 ? Math.min(100, (100 * (run.progress.done ?? 0)) / run.progress.total) : 0}
                  size="small"
                  ariaLabelledBy={`run-${run.id}-progress`}
                />
                <Text as="p" id={`run-${run.id}-progress`}>
                  {t("runs.progress", {
                    done: number(run.progress.done ?? 0),
                    total: number(run.progress.total),
                    unit: t(`runs.units.${run.progress.unit ?? "records"}`, { defaultValue: run.progress.unit ?? "" }),
                  })}
                </Text>
              </>
            )}
            {counts(run).length > 0 && (
              <InlineStack gap="400">
                {counts(run).map(([key, value]) => (
                  <Text as="span" key={key} tone="subdued">
                    {t(`runs.counts.${key}`, { defaultValue: key })}: {number(value)}
                  </Text>
                ))}
              </InlineStack>
            )}
            <Text as="p" tone="subdued">
              {t("runs.started_at", { time: formatDateTime(run.started_at, timeZone) })}
            </Text>
            {state.followFailed && (
              <Text as="p" tone="caution">
                {t("runs.follow_error")}
              </Text>
            )}
          </BlockStack>
        </Card>
      )}
      {run && run.status !== "running" && (
        <Banner tone={run.error ? "critical" : "success"} title={run.message ?? ""} onDismiss={state.dismissRun}>
          <BlockStack gap="100">
            {run.detail && <p>{run.detail}</p>}
            <InlineStack gap="200" blockAlign="center">
              <Text as="span" tone="subdued">
                {label(run)}
              </Text>
              <Badge tone={STATUS_TONES[run.status]}>{t(`runs.status.${run.status}`)}</Badge>
              {run.finished_at && (
                <Text as="span" tone="subdued">
                  {t("runs.finished_at", { time: formatDateTime(run.finished_at, timeZone) })}
                </Text>
              )}
            </InlineStack>
          </BlockStack>
        </Banner>
      )}
      {toast && <Toast content={toast.content} error={toast.error} onDismiss={() => setToast(null)} />}
    </BlockStack>
  );
}
