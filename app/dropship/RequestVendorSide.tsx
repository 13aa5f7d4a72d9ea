// The request revise form's read-only part (issue 29, D231): the request's
// status, the vendor's last answer (855: expected date, codes, note) and what
// was asked back of it (its cancellations), as GET /api/dropship_request/{id}
// answers them; and the "Send to another source" action of a rejected or
// backordered request.
import { BlockStack, Card, DataTable, FormLayout, Text, TextField } from "@shopify/polaris";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { useAppSettings } from "~/components/app-settings";
import { formatDateTime } from "~/lib/format";
import { SEND_ELSEWHERE_PATH, SEND_ELSEWHERE_STATUSES } from "./revise-fields";

interface VendorAnswer {
  expected_date: string | null;
  codes: string[];
  note: string | null;
}

interface Cancellation {
  id: number;
  change_number: number;
  qty: number;
  whole: boolean;
  cause: string;
  status: string;
  answer_codes: string[];
  answer_note: string | null;
  created_at: string;
  sent_at: string | null;
  answered_at: string | null;
}

/** A US short date of a date without a time ("2026-12-03" → 12/3/26), as the grids show dates (D9). */
function formatDate(value: string | null): string {
  const match = value ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  return match ? `${Number(match[2])}/${Number(match[3])}/${match[1].slice(2)}` : "";
}

/** "Send to another source" for a rejected or backordered request: its assignment's Reassign form. */
export function sendElsewhereActions(t: TFunction, record: Record<string, unknown>) {
  if (!(SEND_ELSEWHERE_STATUSES as readonly string[]).includes(String(record.status)) || !record.assignment_id) return [];
  return [{ content: t("cancel_ui.send_elsewhere"), url: `${SEND_ELSEWHERE_PATH}?id=${String(record.assignment_id)}` }];
}

function readOnly(id: string, label: string, value: string) {
  return <TextField key={id} id={id} label={label} value={value} autoComplete="off" readOnly disabled />;
}

export function RequestVendorSide({ record }: { record: Record<string, unknown> }) {
  const { t } = useTranslation();
  const { timeZone } = useAppSettings();
  const answer = (record.vendor_answer ?? { expected_date: null, codes: [], note: null }) as VendorAnswer;
  const cancellations = (record.cancellations ?? []) as Cancellation[];
  const answered = Boolean(answer.expected_date || answer.codes.length || answer.note);
  const when = (row: Cancellation) =>
    [
      t("cancel_ui.request.asked", { when: formatDateTime(row.created_at, timeZone) }),
      row.sent_at ? t("cancel_ui.request.sent", { when: formatDateTime(row.sent_at, timeZone) }) : null,
      row.answered_at ? t("cancel_ui.request.answered", { when: formatDateTime(row.answered_at, timeZone) }) : null,
    ]
      .filter(Boolean)
      .join("; ");

  return (
    <>
      <Card>
        <BlockStack gap="300">
          <FormLayout>
            {readOnly("field-status", t("cancel_ui.request.status"), t(`requests.statuses.${String(record.status)}`, { defaultValue: String(record.status) }))}
          </FormLayout>
          <Text as="h2" variant="headingSm">
            {t("cancel_ui.request.answer_title")}
          </Text>
          {answered ? (
            <FormLayout>
              <FormLayout.Group condensed>
                {readOnly("field-vendor_expected_date", t("cancel_ui.request.expected_date"), formatDate(answer.expected_date))}
                {readOnly("field-vendor_codes", t("cancel_ui.request.codes"), answer.codes.join(" "))}
              </FormLayout.Group>
              {readOnly("field-vendor_note", t("cancel_ui.request.note"), answer.note ?? "")}
            </FormLayout>
          ) : (
            <Text as="p" tone="subdued">
              {t("cancel_ui.request.no_answer")}
            </Text>
          )}
        </BlockStack>
      </Card>
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingSm">
            {t("cancel_ui.request.cancellations_title")}
          </Text>
          {cancellations.length ? (
            <div id="request-cancellations">
              <DataTable
                columnContentTypes={["numeric", "numeric", "text", "text", "text", "text"]}
                headings={(["change_number", "qty", "cause", "status", "answer", "when"] as const).map((key) => t(`cancel_ui.request.columns.${key}`))}
                rows={cancellations.map((row) => [
                  row.change_number,
                  row.whole ? t("cancel_ui.request.whole", { qty: row.qty }) : row.qty,
                  t(`cancel_ui.request.causes.${row.cause}`, { defaultValue: row.cause }),
                  t(`cancel_ui.request.statuses.${row.status}`, { defaultValue: row.status }),
                  [row.answer_codes.join(" "), row.answer_note ?? ""].filter(Boolean).join(": "),
                  when(row),
                ])}
              />
            </div>
          ) : (
            <Text as="p" tone="subdued">
              {t("cancel_ui.request.no_cancellations")}
            </Text>
          )}
        </BlockStack>
      </Card>
    </>
  );
}
