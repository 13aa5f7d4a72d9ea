// The order's page (issue 32 item 1): the order at the top, each item with its
// assignments, the drop-ship requests with the vendor's answers, the Shopify
// fulfilments, the files in and out, and the whole story in time order.
import { Badge, Banner, BlockStack, Card, InlineStack, Link, List, Text } from "@shopify/polaris";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useAppSettings } from "~/components/app-settings";
import { RegionDataTable } from "~/components/RegionDataTable";
import { formatDateTime, formatMoney, titleCase } from "~/lib/format";
import { shopifyAdminOrderUrl } from "~/orders/order-grid";
import type { OrderStory } from "./story.server";

/** The story as the page gets it: its stored messages already in the reader's words. */
type Story = Omit<OrderStory, "events"> & { events: Array<Omit<OrderStory["events"][number], "message"> & { message?: string | null }> };

const filePath = (id: number) => `/file/${id}`;
const vendorPath = (id: number) => `/dropship/vendor/edit?id=${id}`;
const requestPath = (id: number) => `/dropship/requests/revise?id=${id}`;
const responsesPath = (po: string) => `/dropship/responses?po_number=${encodeURIComponent(po)}`;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
        {children}
      </BlockStack>
    </Card>
  );
}

function FileLink({ id, name }: { id: number | null | undefined; name?: string | null }) {
  const { t } = useTranslation();
  if (!id) return null;
  return <Link url={filePath(id)}>{name || t("order_story.file_number", { id })}</Link>;
}

export function OrderStoryPage({ story, shop }: { story: Story; shop: string }) {
  const { t } = useTranslation();
  const { timeZone, mode } = useAppSettings();
  const when = (value: string | null | undefined) => formatDateTime(value ?? null, timeZone);
  const { order } = story;
  const filesById = new Map(story.files.map((file) => [file.id, file]));
  const truncated = Object.entries(story.truncated)
    .filter(([, cut]) => cut)
    .map(([kind]) => t(`order_story.kinds.${kind}`));
  const assignStatus = (value: number | string) => t(`sales.assign_status.${value}`, { defaultValue: String(value) });
  const requestStatus = (value: string) => t(`requests.statuses.${value}`, { defaultValue: titleCase(value) });

  return (
    <BlockStack gap="400">
      {truncated.length > 0 && (
        <Banner tone="warning" title={t("order_story.truncated_title", { cap: story.cap })}>
          <p>{t("order_story.truncated_body", { kinds: truncated.join(", ") })}</p>
        </Banner>
      )}
      <Section title={t("order_story.sections.order")}>
        <InlineStack gap="800" wrap>
          <BlockStack gap="100">
            <Text as="p" tone="subdued">
              {t("order_story.fields.customer")}
            </Text>
            <Text as="p">{order.bill_to_name || order.ship_to_name || "—"}</Text>
            <Text as="p">{order.customer_email || "—"}</Text>
          </BlockStack>
          <BlockStack gap="100">
            <Text as="p" tone="subdued">
              {t("order_story.fields.statuses")}
            </Text>
            <InlineStack gap="200">
              <Badge>{`${t("orders.columns.magento_status")}: ${titleCase(order.magento_status) || "—"}`}</Badge>
              <Badge>{`${t("orders.columns.fulfillment_status")}: ${titleCase(order.fulfillment_status) || "—"}`}</Badge>
              <Badge>{`${t("orders.columns.financial_status")}: ${titleCase(order.financial_status) || "—"}`}</Badge>
            </InlineStack>
          </BlockStack>
          <BlockStack gap="100">
            <Text as="p" tone="subdued">
              {t("order_story.fields.totals")}
            </Text>
            <Text as="p">{`${t("orders.columns.grand_total_purchased")}: ${formatMoney(order.grand_total_purchased)}`}</Text>
            <Text as="p">
              {t("order_story.fields.quantities", { ordered: order.total_shippable_qty_ordered, assigned: order.total_assigned, shipped: order.total_shipped })}
            </Text>
          </BlockStack>
          <BlockStack gap="100">
            <Text as="p" tone="subdued">
              {t("order_story.fields.dates")}
            </Text>
            <Text as="p">{`${t("orders.columns.created_at")}: ${when(order.created_at)}`}</Text>
            {order.shopify_cancelled_at && <Text as="p">{t("order_story.fields.cancelled_at", { when: when(order.shopify_cancelled_at) })}</Text>}
            {order.shopify_order_id && (
              <Link url={shopifyAdminOrderUrl(order.shopify_order_id, mode, shop)} external>
                {t("orders.columns.view_order")}
              </Link>
            )}
          </BlockStack>
        </InlineStack>
        {order.shipping_address && <Text as="p">{`${t("orders.columns.concat_shipping_address")}: ${order.shipping_address}`}</Text>}
      </Section>

      <Section title={t("order_story.sections.items")}>
        {story.items.length === 0 ? (
          <Text as="p">{t("order_story.empty.items")}</Text>
        ) : (
          <RegionDataTable
            label={t("order_story.sections.items")}
            columnContentTypes={["text", "text", "numeric", "numeric", "text"]}
            headings={[
              t("order_story.columns.sku"),
              t("order_story.columns.name"),
              t("order_story.columns.ordered"),
              t("order_story.columns.shipped"),
              t("order_story.columns.assignments"),
            ]}
            rows={story.items.map((item) => [
              item.sku,
              item.name,
              item.qty_ordered,
              item.qty_shipped,
              item.assignments.length === 0 ? (
                <Text as="span" tone="subdued">
                  {t("order_story.empty.assignments")}
                </Text>
              ) : (
                <BlockStack gap="100">
                  {item.assignments.map((assignment) => (
                    <InlineStack key={assignment.id} gap="200" blockAlign="center" wrap={false}>
                      <Text as="span">
                        {assignment.source === "vendor"
                          ? t("order_story.source.vendor", { name: assignment.dropshipper_name, qty: assignment.qty_assigned })
                          : t("order_story.source.store", { name: assignment.store_id, qty: assignment.qty_assigned })}
                      </Text>
                      <Badge>{assignStatus(assignment.assign_status)}</Badge>
                      {assignment.dnh.length > 0 && <Badge tone="attention">{t("order_story.dnh")}</Badge>}
                      {assignment.request && <Link url={requestPath(assignment.request.request_id)}>{assignment.request.po_number}</Link>}
                    </InlineStack>
                  ))}
                </BlockStack>
              ),
            ])}
          />
        )}
      </Section>

      <Section title={t("order_story.sections.requests")}>
        {story.requests.length === 0 ? (
          <Text as="p">{t("order_story.empty.requests")}</Text>
        ) : (
          <BlockStack gap="400">
            {story.requests.map((request) => (
              <BlockStack key={request.request_id} gap="200">
                <InlineStack gap="300" blockAlign="center">
                  <Text as="h3" variant="headingSm">
                    <Link url={requestPath(request.request_id)}>{t("order_story.request_heading", { po: request.po_number })}</Link>
                  </Text>
                  <Badge>{requestStatus(request.status)}</Badge>
                  <Link url={vendorPath(request.vendor_id)}>{request.vendor_name}</Link>
                  <Link url={responsesPath(request.po_number)}>{t("order_story.responses_link")}</Link>
                  {request.transmission_id && <FileLink id={request.transmission_id} name={filesById.get(request.transmission_id)?.file_name} />}
                </InlineStack>
                <Text as="p">
                  {t("order_story.request_line", { sku: request.item_sku, qty: request.qty, sent: request.sent_at ? when(request.sent_at) : "—" })}
                </Text>
                {(request.vendor_expected_date || request.vendor_codes.length > 0 || request.vendor_note) && (
                  <Text as="p">
                    {t("order_story.vendor_answer", {
                      date: request.vendor_expected_date ?? "—",
                      codes: request.vendor_codes.join(", ") || "—",
                      note: request.vendor_note ?? "—",
                    })}
                  </Text>
                )}
                {request.responses.length > 0 && (
                  <RegionDataTable
                    label={t("order_story.request_heading", { po: request.po_number })}
                    columnContentTypes={["text", "text", "text", "text", "text", "text", "text"]}
                    headings={[
                      t("order_story.columns.when"),
                      t("order_story.columns.type"),
                      t("order_story.columns.line_status"),
                      t("order_story.columns.detail"),
                      t("order_story.columns.tracking"),
                      t("order_story.columns.status"),
                      t("order_story.columns.file"),
                    ]}
                    rows={request.responses.map((response) => [
                      when(response.created_at),
                      response.response_type,
                      response.line_status ?? "",
                      [
                        response.detail,
                        response.invoice_number ? t("order_story.invoice", { number: response.invoice_number, amount: formatMoney(response.amount) }) : null,
                      ]
                        .filter(Boolean)
                        .join(" · "),
                      [response.tracking_carrier, response.tracking_number].filter(Boolean).join(" "),
                      t(`responses.statuses.${response.status}`, { defaultValue: titleCase(response.status) }),
                      <FileLink
                        key="file"
                        id={response.transmission_id}
                        name={response.transmission_id ? filesById.get(response.transmission_id)?.file_name : null}
                      />,
                    ])}
                  />
                )}
                {request.cancellations.length > 0 && (
                  <List>
                    {request.cancellations.map((cancellation) => (
                      <List.Item key={cancellation.id}>
                        {t("order_story.cancellation_line", {
                          qty: cancellation.qty,
                          status: titleCase(cancellation.status),
                          codes: cancellation.answer_codes.join(", ") || "—",
                          note: cancellation.answer_note ?? "—",
                        })}{" "}
                        <FileLink
                          id={cancellation.transmission_id}
                          name={cancellation.transmission_id ? filesById.get(cancellation.transmission_id)?.file_name : null}
                        />{" "}
                        <FileLink
                          id={cancellation.answer_transmission_id}
                          name={cancellation.answer_transmission_id ? filesById.get(cancellation.answer_transmission_id)?.file_name : null}
                        />
                      </List.Item>
                    ))}
                  </List>
                )}
              </BlockStack>
            ))}
          </BlockStack>
        )}
      </Section>

      <Section title={t("order_story.sections.fulfilments")}>
        {story.fulfilments.length === 0 ? (
          <Text as="p">{t("order_story.empty.fulfilments")}</Text>
        ) : (
          <RegionDataTable
            label={t("order_story.sections.fulfilments")}
            columnContentTypes={["text", "text", "text", "text", "text"]}
            headings={[
              t("order_story.columns.when"),
              t("order_story.columns.po"),
              t("order_story.columns.tracking"),
              t("order_story.columns.shopify_fulfillment"),
              t("order_story.columns.status"),
            ]}
            rows={story.fulfilments.map((fulfilment) => [
              when(fulfilment.at),
              fulfilment.po_number,
              [fulfilment.tracking_carrier, fulfilment.tracking_number].filter(Boolean).join(" "),
              fulfilment.shopify_fulfillment_id ?? t("order_story.not_sent"),
              t(`responses.statuses.${fulfilment.status}`, { defaultValue: titleCase(fulfilment.status) }),
            ])}
          />
        )}
      </Section>

      <Section title={t("order_story.sections.files")}>
        {story.files.length === 0 ? (
          <Text as="p">{t("order_story.empty.files")}</Text>
        ) : (
          <RegionDataTable
            label={t("order_story.sections.files")}
            columnContentTypes={["text", "text", "text", "text", "text", "text"]}
            headings={[
              t("order_story.columns.file"),
              t("order_story.columns.partner"),
              t("order_story.columns.direction"),
              t("order_story.columns.set"),
              t("order_story.columns.status"),
              t("order_story.columns.when"),
            ]}
            rows={story.files.map((file) => [
              <Link key="file" url={filePath(file.id)}>
                {file.file_name}
              </Link>,
              t(`file_viewer.partners.${file.partner}`, { defaultValue: file.partner }),
              t(`file_viewer.directions.${file.direction}`, { defaultValue: file.direction }),
              file.transaction_set ?? "",
              titleCase(file.status),
              when(file.created_at),
            ])}
          />
        )}
      </Section>

      <Section title={t("order_story.sections.story")}>
        {story.events.length === 0 ? (
          <Text as="p">{t("order_story.empty.story")}</Text>
        ) : (
          // A table of its own that wraps its text: a long story reads down the page, not sideways.
          <table className="order-story-table" aria-label={t("order_story.sections.story")}>
            <thead>
              <tr>
                <th scope="col">{t("order_story.columns.when")}</th>
                <th scope="col">{t("order_story.columns.what")}</th>
                <th scope="col">{t("order_story.columns.status")}</th>
              </tr>
            </thead>
            <tbody>
              {story.events.map((event, index) => (
                <tr key={index} data-kind={event.kind}>
                  <td className="order-story-when">{when(event.at)}</td>
                  <td>
                    <BlockStack gap="050">
                      <Text as="span">{eventSentence(t, event)}</Text>
                      {event.message && (
                        <Text as="span" tone="subdued">
                          {event.message}
                        </Text>
                      )}
                      {event.file_id && <FileLink id={event.file_id} name={filesById.get(event.file_id)?.file_name} />}
                    </BlockStack>
                  </td>
                  <td>{event.status ? (event.kind === "assignment" ? assignStatus(event.status) : titleCase(event.status)) : ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </BlockStack>
  );
}

/** An event's sentence; a vendor's answer names only the details it has (line status, tracking, invoice). */
function eventSentence(t: (key: string, options?: Record<string, unknown>) => string, event: Story["events"][number]) {
  const sentence = t(`order_story.events.${event.kind}`, sentenceParams(event.params));
  if (event.kind !== "response") return sentence;
  const { line_status: line, tracking, carrier, invoice } = event.params;
  const details = [
    line ? t("order_story.details.line_status", { value: line }) : null,
    tracking ? t("order_story.details.tracking", { value: [carrier, tracking].filter(Boolean).join(" ") }) : null,
    invoice ? t("order_story.details.invoice", { value: invoice }) : null,
  ].filter(Boolean);
  return details.length ? `${sentence}: ${details.join(", ")}` : sentence;
}

/** A sentence's parameters: a missing one reads as a dash, never "null". */
function sentenceParams(params: Record<string, string | number | null>) {
  return Object.fromEntries(Object.entries(params).map(([key, value]) => [key, value === null || value === "" ? "—" : value]));
}
