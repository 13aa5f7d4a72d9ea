// Needs attention (issue 30): every open item that waits for a person, oldest
// first, on the generic grid over GET /api/attention. Each row opens where it is
// acted on; Dismiss takes it out of the queue with a note.
import { useLoaderData } from "@remix-run/react";
import { Button, InlineStack, Link, Modal, Text, TextField } from "@shopify/polaris";
import { useMemo, useState } from "react";
import { BulkConfirm, BulkSummary, useBulkActions } from "~/bulk/BulkActions";
import { useTranslation } from "react-i18next";
import { attentionGrid } from "~/attention/queue.server";
import { FormBanner } from "~/forms/FormBanner";
import { useFormSubmit } from "~/forms/use-form-submit";
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { GridScreen, type GridScreenData } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import { resourceNames } from "~/grid/resource-names";
import type { GridRow } from "~/grid/types";
import { pageLoader } from "~/http/route.server";

export const loader = pageLoader(({ url, t }) => gridScreenData(attentionGrid, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

/** "3 h", "2 d": how long the item has waited, from its cause's start. */
function age(since: unknown, t: (key: string, options?: Record<string, unknown>) => string): string {
  const start = Date.parse(String(since));
  if (Number.isNaN(start)) return "";
  const minutes = Math.max(0, Math.floor((Date.now() - start) / 60_000));
  if (minutes < 60) return t("attention.age.minutes", { count: minutes });
  if (minutes < 48 * 60) return t("attention.age.hours", { count: Math.floor(minutes / 60) });
  return t("attention.age.days", { count: Math.floor(minutes / 1440) });
}

export default function NeedsAttention() {
  const { t } = useTranslation();
  const data = useLoaderData<GridScreenData>();
  const [reloadKey, setReloadKey] = useState(0);
  const [dismissing, setDismissing] = useState<GridRow | null>(null);
  const [note, setNote] = useState("");
  const dismiss = useFormSubmit({ success: t("attention.dismissed"), error: t("attention.dismiss_error") });
  // Dismiss for the rows selected: one note for all (D272).
  const bulk = useBulkActions<"dismiss">("/api/attention/bulk", () => setReloadKey((key) => key + 1));
  const [bulkNote, setBulkNote] = useState("");
  const ask = bulk.ask;
  const bulkActions = useMemo(
    () => [
      {
        content: t("attention.dismiss"),
        onAction: (ids: string[]) => {
          setBulkNote("");
          ask("dismiss", ids);
        },
      },
    ],
    [t, ask],
  );

  const confirm = async () => {
    if (!dismissing) return;
    const result = await dismiss.submit({ url: `/api/attention/${String(dismissing.id)}`, body: { note } });
    if (result.ok) {
      setDismissing(null);
      setNote("");
      setReloadKey((key) => key + 1);
    }
  };

  return (
    <GridScreen
      data={data}
      title={t("attention.title")}
      back="/"
      secondaryActions={[{ content: t("attention.settings"), url: "/settings" }]}
      resourceName={resourceNames(t, "attention_item")}
      loadErrorText={t("attention.load_error")}
      emptyState={{ heading: t("attention.empty"), description: t("attention.empty_description") }}
      reloadKey={reloadKey}
      bulkActions={bulkActions}
      renderCell={(column, row) => {
        if (column.key === "since") return <span title={String(row.since ?? "")}>{age(row.since, t)}</span>;
        if (column.key !== "actions") return undefined;
        return (
          <InlineStack gap="200" wrap={false}>
            <Link url={String(row.link ?? "/")}>{t("attention.open")}</Link>
            <Button
              variant="plain"
              onClick={() => {
                dismiss.dismiss();
                setNote("");
                setDismissing(row);
              }}
            >
              {t("attention.dismiss")}
            </Button>
          </InlineStack>
        );
      }}
    >
      {!dismissing && <FormBanner outcome={dismiss.outcome} onDismiss={dismiss.dismiss} />}
      <BulkSummary answer={bulk.answer} outcome={bulk.pending ? null : bulk.outcome} onDismiss={bulk.dismiss} />
      <BulkConfirm
        open={bulk.pending !== null}
        title={t("bulk.attention.dismiss_title", { count: bulk.pending?.ids.length ?? 0 })}
        action={t("attention.dismiss")}
        loading={bulk.submitting}
        onClose={bulk.close}
        onConfirm={() => bulk.run({ note: bulkNote })}
      >
        <TextField
          label={t("attention.note")}
          value={bulkNote}
          onChange={setBulkNote}
          multiline={3}
          autoComplete="off"
          maxLength={1000}
          error={bulk.pending ? bulk.fieldErrors.note?.[0] : undefined}
        />
      </BulkConfirm>
      <Modal
        open={dismissing !== null}
        onClose={() => setDismissing(null)}
        title={t("attention.dismiss_title")}
        primaryAction={{ content: t("attention.dismiss"), loading: dismiss.submitting, onAction: () => void confirm() }}
        secondaryActions={[{ content: t("buttons.cancel"), onAction: () => setDismissing(null) }]}
      >
        <Modal.Section>
          <Text as="p">{typeof dismissing?.attention_reason === "string" ? dismissing.attention_reason : ""}</Text>
          <TextField
            label={t("attention.note")}
            value={note}
            onChange={setNote}
            multiline={3}
            autoComplete="off"
            maxLength={1000}
            error={dismiss.fieldErrors.note?.[0]}
          />
        </Modal.Section>
      </Modal>
    </GridScreen>
  );
}
