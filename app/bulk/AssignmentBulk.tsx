// Bulk Delete and Reassign on Awaiting and In Progress Assignment (D272): the
// single actions' warning (spec 001 §6: cancel first in the shipping tool or
// with the dropshipper), asked once for the rows selected; Reassign to one
// store or dropshipper chosen here, from the sources the reassign form offers.
import { Select, Text } from "@shopify/polaris";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { BulkConfirm, BulkSummary, useBulkActions } from "./BulkActions";

type AssignmentAction = "delete" | "reassign";

interface Source {
  source_code: string;
  name: string;
}

/** The grid's bulk actions (for GridScreen) and what the page shows of them (for its children). */
export function useAssignmentBulk(reload: () => void) {
  const { t } = useTranslation();
  const bulk = useBulkActions<AssignmentAction>("/api/assignment/bulk", reload);
  const [sources, setSources] = useState<Source[]>([]);
  const [storeId, setStoreId] = useState("");
  const { pending } = bulk;

  // The sources the reassign form offers, read when a reassign is asked (the first row's answer lists every source).
  useEffect(() => {
    if (pending?.action !== "reassign" || !pending.ids[0]) return;
    let current = true;
    fetch(`/api/reassignment?id=${encodeURIComponent(pending.ids[0])}`, { headers: { accept: "application/json" } })
      .then((response) => (response.ok ? (response.json() as Promise<{ available_stores?: Source[] }>) : { available_stores: [] }))
      .then((answer) => {
        if (current) setSources(answer.available_stores ?? []);
      })
      .catch(() => current && setSources([]));
    return () => {
      current = false;
    };
  }, [pending]);

  const ask = bulk.ask;
  const actions = useMemo(
    () => [
      {
        content: t("sales.awaiting.reassign"),
        onAction: (ids: string[]) => {
          setStoreId("");
          ask("reassign", ids);
        },
      },
      { content: t("sales.awaiting.delete"), destructive: true, onAction: (ids: string[]) => ask("delete", ids) },
    ],
    [t, ask],
  );
  const count = pending?.ids.length ?? 0;
  const problems = pending ? (bulk.outcome?.messages ?? []) : [];

  const page = (
    <>
      <BulkSummary answer={bulk.answer} outcome={pending ? null : bulk.outcome} onDismiss={bulk.dismiss} />
      <BulkConfirm
        open={pending?.action === "delete"}
        title={t("bulk.assignment.delete_title", { count })}
        action={t("sales.awaiting.ok")}
        destructive
        loading={bulk.submitting}
        onClose={bulk.close}
        onConfirm={() => bulk.run()}
        problems={problems}
      >
        <Text as="p" tone="caution">
          {t("sales.warning")}
        </Text>
        <Text as="p">{t("bulk.assignment.delete_body", { count })}</Text>
      </BulkConfirm>
      <BulkConfirm
        open={pending?.action === "reassign"}
        title={t("bulk.assignment.reassign_title", { count })}
        action={t("sales.awaiting.reassign")}
        loading={bulk.submitting}
        onClose={bulk.close}
        onConfirm={() => bulk.run({ store_id: storeId })}
        problems={problems}
      >
        <Text as="p" tone="caution">
          {t("sales.warning")}
        </Text>
        <Select
          label={t("bulk.assignment.source")}
          options={[{ label: t("bulk.assignment.choose_source"), value: "" }, ...sources.map((source) => ({ label: source.name, value: source.source_code }))]}
          value={storeId}
          onChange={setStoreId}
          error={pending ? bulk.fieldErrors.store_id?.[0] : undefined}
        />
      </BulkConfirm>
    </>
  );
  return { actions, page };
}
