// The browser half of a grid's bulk actions (D272): the confirmation (the single
// action's question, for the rows selected), the POST to /api/<grid>/bulk, and
// the summary of what each row did: the counts, then each row refused or failed
// with its reason. The screen reloads its grid after the answer.
import { Banner, BlockStack, List, Modal, Text } from "@shopify/polaris";
import { useCallback, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { FormBanner } from "~/forms/FormBanner";
import { useFormSubmit } from "~/forms/use-form-submit";

export interface BulkRowResult {
  id: number;
  outcome: "done" | "refused" | "failed";
  message: string;
}

export interface BulkAnswer {
  error: boolean;
  message: string;
  counts: { done: number; refused: number; failed: number };
  results: BulkRowResult[];
}

const isBulkAnswer = (body: unknown): body is BulkAnswer =>
  Boolean(body && typeof body === "object" && Array.isArray((body as BulkAnswer).results) && (body as BulkAnswer).counts);

/** A bulk action under way: which one, on which rows. */
export interface BulkPending<A extends string> {
  action: A;
  ids: string[];
}

/**
 * The state of one grid's bulk actions: `ask` opens the confirmation for the rows selected, `run` posts
 * `{action, ids, ...extra}` to `endpoint` and calls `onDone` (the screen reloads its grid).
 */
export function useBulkActions<A extends string>(endpoint: string, onDone: () => void) {
  const { t } = useTranslation();
  const [pending, setPending] = useState<BulkPending<A> | null>(null);
  const [answer, setAnswer] = useState<BulkAnswer | null>(null);
  const texts = useMemo(() => ({ success: t("bulk.success"), error: t("bulk.error") }), [t]);
  const { submit, dismiss, submitting, outcome, fieldErrors } = useFormSubmit(texts);
  // The latest of each, so that `ask` and `run` stay the same functions (the grid's bulk actions are kept).
  const latest = useRef({ pending, onDone, submit, dismiss });
  latest.current = { pending, onDone, submit, dismiss };
  const ask = useCallback((action: A, ids: string[]) => {
    setAnswer(null);
    latest.current.dismiss();
    setPending({ action, ids });
  }, []);
  const run = useCallback(
    async (extra: Record<string, unknown> = {}, what?: BulkPending<A>) => {
      const rows = what ?? latest.current.pending;
      if (!rows) return false;
      setAnswer(null);
      const result = await latest.current.submit({ url: endpoint, body: { action: rows.action, ids: rows.ids.map(Number), ...extra } });
      if (!isBulkAnswer(result.body)) return false;
      setAnswer(result.body);
      setPending(null);
      latest.current.dismiss();
      latest.current.onDone();
      return true;
    },
    [endpoint],
  );
  const close = useCallback(() => setPending(null), []);
  const clear = useCallback(() => {
    setAnswer(null);
    latest.current.dismiss();
  }, []);
  /** `outcome`: a 422 or a failed request (no answer per row). */
  return { pending, ask, run, close, submitting, outcome, fieldErrors, answer, dismiss: clear };
}

/** What each row did: the counts as the title, then the rows that were not done, with their reason. */
export function BulkSummary({ answer, outcome, onDismiss }: Pick<ReturnType<typeof useBulkActions>, "answer" | "outcome"> & { onDismiss: () => void }) {
  const { t } = useTranslation();
  if (!answer) return <FormBanner outcome={outcome} onDismiss={onDismiss} />;
  const notDone = answer.results.filter((row) => row.outcome !== "done");
  const tone = answer.counts.done === answer.results.length ? "success" : answer.counts.done === 0 ? "critical" : "warning";
  return (
    <Banner tone={tone} title={answer.message} onDismiss={onDismiss}>
      {notDone.length > 0 && (
        <BlockStack gap="100">
          <Text as="p">{t("bulk.not_done")}</Text>
          <List type="bullet">
            {notDone.map((row) => (
              <List.Item key={row.id}>
                {t(row.outcome === "failed" ? "bulk.row_failed_line" : "bulk.row_refused_line", { id: row.id, reason: row.message })}
              </List.Item>
            ))}
          </List>
        </BlockStack>
      )}
    </Banner>
  );
}

export interface BulkConfirmProps {
  open: boolean;
  title: string;
  /** The confirming button's words. */
  action: string;
  destructive?: boolean;
  loading: boolean;
  onClose: () => void;
  onConfirm: () => unknown;
  /** The 422's messages, shown in the dialog (a missing note, a store not chosen). */
  problems?: string[];
  children?: ReactNode;
}

/** The single action's confirmation, asked once for the rows selected. */
export function BulkConfirm({ open, title, action, destructive, loading, onClose, onConfirm, problems = [], children }: BulkConfirmProps) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={title}
      primaryAction={{ content: action, destructive, loading, onAction: () => void onConfirm() }}
      secondaryActions={[{ content: t("buttons.cancel"), onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="300">
          {children}
          {problems.length > 0 && (
            <Banner tone="critical">
              <List type="bullet">
                {problems.map((problem) => (
                  <List.Item key={problem}>{problem}</List.Item>
                ))}
              </List>
            </Banner>
          )}
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}
