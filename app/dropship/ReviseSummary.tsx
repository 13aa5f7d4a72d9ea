// The revise pages' summary (issue 32): the record's status as a Badge, what
// the vendor said of it, what Save will do (from revise-rules.ts, the rule the
// save applies) and a line of links to the records it belongs with.
import { Badge, Banner, BlockStack, Card, InlineStack, Link, Text } from "@shopify/polaris";
import type { TFunction } from "i18next";
import type { ReactNode } from "react";
import { fillPath } from "~/grid/cell-link";
import { useTranslation } from "react-i18next";
import { REQUEST_STATUS_TONES, RESPONSE_STATUS_TONES, requestSaveEffect, responseSaveEffect } from "./revise-rules";

type Tone = "info" | "success" | "warning" | "critical" | "attention" | null | undefined;

/** A US short date of a date without a time ("2026-12-03" → 12/3/26), as the grids show dates (D9). */
function shortDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match ? `${Number(match[2])}/${Number(match[3])}/${match[1].slice(2)}` : value;
}

const text = (value: unknown) => (value === null || value === undefined ? "" : String(value));

function StatusLine({ label, tone, children }: { label: string; tone: Tone; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <InlineStack gap="200" blockAlign="center">
      <Text as="span" fontWeight="semibold">
        {t("revise.summary.status")}
      </Text>
      <span id="revise-status">
        <Badge tone={tone ?? undefined}>{label}</Badge>
      </span>
      {children}
    </InlineStack>
  );
}

/** The order's page and the vendor's form, when the record names them (both revise pages). */
function orderAndVendorLinks(record: Record<string, unknown>, t: TFunction) {
  const order = fillPath("/order/{order_increment_id}", record);
  const vendor = fillPath("/dropship/vendor/edit?id={vendor_id}", record);
  return [
    order ? { id: "order", label: t("revise.summary.links.order", { order: text(record.order_increment_id) }), url: order } : null,
    vendor ? { id: "vendor", label: t("revise.summary.links.vendor", { name: text(record.vendor_name) }), url: vendor } : null,
  ];
}

function RelatedLinks({ links }: { links: Array<{ id: string; label: string; url: string } | null> }) {
  const { t } = useTranslation();
  const shown = links.filter((link): link is { id: string; label: string; url: string } => link !== null);
  return (
    <nav aria-label={t("revise.summary.related")} id="revise-related">
      <InlineStack gap="300" blockAlign="center">
        <Text as="span" tone="subdued">
          {t("revise.summary.related")}
        </Text>
        {shown.map((link) => (
          <Link key={link.id} url={link.url} id={`revise-related-${link.id}`}>
            {link.label}
          </Link>
        ))}
      </InlineStack>
    </nav>
  );
}

export function RequestReviseSummary({ record }: { record: Record<string, unknown> }) {
  const { t } = useTranslation();
  const status = text(record.status);
  const statusName = (code: string) => t(`requests.statuses.${code}`, { defaultValue: code });
  const answer = (record.vendor_answer ?? {}) as { expected_date?: string | null; codes?: string[]; note?: string | null };
  const reason = [
    (answer.codes ?? []).join(" "),
    answer.note ?? "",
    answer.expected_date ? t("revise.summary.expected", { date: shortDate(answer.expected_date) }) : "",
  ]
    .filter(Boolean)
    .join(" · ");
  const effect = requestSaveEffect(status);
  const saves =
    effect.kind === "refused"
      ? t("revise.summary.save.refused", { reason: t(`cancel_ui.revise_refused.${effect.status}`, { po: text(record.po_number) }) })
      : effect.kind === "resent"
        ? t("revise.summary.save.resent", { from: statusName(effect.from), to: statusName(effect.to) })
        : t(`revise.summary.save.${effect.kind}`, { status: statusName(effect.status) });
  const po = text(record.po_number);
  return (
    <Card>
      <BlockStack gap="300">
        <StatusLine label={statusName(status)} tone={REQUEST_STATUS_TONES[status as keyof typeof REQUEST_STATUS_TONES]} />
        <Text as="p" id="revise-vendor-reason">
          <Text as="span" fontWeight="semibold">
            {t("revise.summary.vendor_reason")}
          </Text>{" "}
          {reason || t("revise.summary.vendor_reason_none")}
        </Text>
        <Banner tone={effect.kind === "refused" ? "warning" : "info"} hideIcon={effect.kind !== "refused"}>
          <p id="revise-save-effect">{saves}</p>
        </Banner>
        <RelatedLinks
          links={[
            ...orderAndVendorLinks(record, t),
            record.transmission_id ? { id: "file", label: t("revise.summary.links.sent_file"), url: `/file/${text(record.transmission_id)}` } : null,
            po
              ? {
                  id: "responses",
                  label: t("revise.summary.links.responses", { count: Number(record.responses_count ?? 0) }),
                  url: `/dropship/responses/?po_number=${encodeURIComponent(po)}`,
                }
              : null,
          ]}
        />
      </BlockStack>
    </Card>
  );
}

export function ResponseReviseSummary({ record }: { record: Record<string, unknown> }) {
  const { t } = useTranslation();
  const status = text(record.status);
  const statusName = (code: string) => t(`responses.statuses.${code}`, { defaultValue: code });
  const type = text(record.response_type);
  const reason = [record.line_status ? t("revise.summary.line_status", { code: text(record.line_status) }) : "", text(record.detail)]
    .filter(Boolean)
    .join(" · ");
  const effect = responseSaveEffect(status);
  const saves =
    effect.from === effect.to
      ? t("revise.summary.save.response_queued", { status: statusName(effect.to) })
      : t("revise.summary.save.response_reprocessed", { from: statusName(effect.from), to: statusName(effect.to) });
  return (
    <Card>
      <BlockStack gap="300">
        <StatusLine label={statusName(status)} tone={RESPONSE_STATUS_TONES[status as keyof typeof RESPONSE_STATUS_TONES]}>
          {type && <Badge>{t(`responses.types.${type}`, { defaultValue: type })}</Badge>}
        </StatusLine>
        <Text as="p" id="revise-vendor-reason">
          <Text as="span" fontWeight="semibold">
            {t("revise.summary.vendor_reason")}
          </Text>{" "}
          {reason || t("revise.summary.vendor_reason_none")}
        </Text>
        <Banner tone="info" hideIcon>
          <p id="revise-save-effect">{saves}</p>
        </Banner>
        <RelatedLinks
          links={[
            ...orderAndVendorLinks(record, t),
            record.request_id
              ? {
                  id: "request",
                  label: t("revise.summary.links.request", { po: text(record.po_number) }),
                  url: `/dropship/requests/revise?id=${text(record.request_id)}`,
                }
              : null,
            record.transmission_id ? { id: "file", label: t("revise.summary.links.received_file"), url: `/file/${text(record.transmission_id)}` } : null,
          ]}
        />
      </BlockStack>
    </Card>
  );
}
