// A stored file's page (issue 32 item 2): its header (name, partner, vendor,
// direction, set, status, error and the segment at fault), the records and log
// lines that name it, and its content a page at a time: X12 one segment a line
// with the segment's name, CSV as a table, anything else as text.
import { useSearchParams } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Card, InlineGrid, InlineStack, Link, List, Pagination, Text } from "@shopify/polaris";
import { useRef, useState, type MouseEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useAppSettings } from "~/components/app-settings";
import { useScrollRegion } from "~/components/scroll-region";
import { downloadFile } from "~/lib/download";
import { formatDateTime, titleCase, withLocale } from "~/lib/format";
import type { FileView } from "./files.server";

type View = Omit<FileView, "links"> & {
  links: Omit<FileView["links"], "logs"> & { logs: Array<Omit<FileView["links"]["logs"][number], "message"> & { message: string }> };
};

const orderPath = (incrementId: string) => `/order/${encodeURIComponent(incrementId)}`;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <BlockStack gap="050">
      <Text as="span" tone="subdued">
        {label}
      </Text>
      <Text as="span">{children}</Text>
    </BlockStack>
  );
}

export function FileViewerPage({ view }: { view: View }) {
  const { t } = useTranslation();
  const { timeZone } = useAppSettings();
  const [search, setSearch] = useSearchParams();
  const when = (value: string | null) => formatDateTime(value, timeZone) || "—";
  const { file, links, content } = view;
  const goTo = (page: number) => {
    const next = new URLSearchParams(search);
    next.set("page", String(page));
    setSearch(next);
  };
  const [downloadFailed, setDownloadFailed] = useState(false);
  // While the content is wider than its card it scrolls sideways: then it is a tab stop, a named region (WCAG 2.1.1, D112).
  const contentRef = useRef<HTMLDivElement>(null);
  const regionLabel = t(`file_viewer.content_title.${content.format}`);
  useScrollRegion(() => contentRef.current, regionLabel);
  const download = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    setDownloadFailed(false);
    downloadFile(event.currentTarget.href, file.file_name).catch(() => setDownloadFailed(true));
  };
  const errorPage = file.error_segment_index ? Math.ceil(file.error_segment_index / content.per_page) : null;
  const hasLinks =
    links.requests.length +
      links.responses.length +
      links.cancellations.length +
      links.logs.length +
      links.realtime_sales.length +
      links.realtime_shipping.length +
      links.replies.length >
      0 || links.reply_to;

  return (
    <BlockStack gap="400">
      {file.error && (
        <Banner tone="critical" title={t("file_viewer.error_title")}>
          <BlockStack gap="100">
            <p>{file.error}</p>
            {file.error_segment && (
              <p>
                {t("file_viewer.error_segment", { segment: file.error_segment })}{" "}
                {errorPage && errorPage !== content.page && content.format === "x12" && (
                  <Link onClick={() => goTo(errorPage)}>{t("file_viewer.go_to_error")}</Link>
                )}
              </p>
            )}
          </BlockStack>
        </Banner>
      )}
      <Card>
        <InlineGrid columns={{ xs: 1, sm: 2, md: 4 }} gap="400">
          <Field label={t("file_viewer.fields.file_name")}>{file.file_name}</Field>
          <Field label={t("file_viewer.fields.partner")}>{t(`file_viewer.partners.${file.partner}`, { defaultValue: file.partner })}</Field>
          <Field label={t("file_viewer.fields.vendor")}>
            {file.vendor_id ? <Link url={`/dropship/vendor/edit?id=${file.vendor_id}`}>{file.vendor_name ?? String(file.vendor_id)}</Link> : "—"}
          </Field>
          <Field label={t("file_viewer.fields.direction")}>{t(`file_viewer.directions.${file.direction}`, { defaultValue: file.direction })}</Field>
          <Field label={t("file_viewer.fields.set")}>{file.transaction_set ?? "—"}</Field>
          <Field label={t("file_viewer.fields.status")}>
            <Badge tone={file.error ? "critical" : undefined}>{titleCase(file.status)}</Badge>
          </Field>
          <Field label={t(file.direction === "in" ? "file_viewer.fields.received_at" : "file_viewer.fields.stored_at")}>{when(file.created_at)}</Field>
          <Field label={t(file.direction === "in" ? "file_viewer.fields.processed_at" : "file_viewer.fields.sent_at")}>{when(file.processed_at)}</Field>
          <Field label={t("file_viewer.fields.size")}>{t("file_viewer.bytes", { count: file.size })}</Field>
          <Field label={t("file_viewer.fields.remote_path")}>{file.remote_path ?? "—"}</Field>
        </InlineGrid>
      </Card>

      <Card>
        <BlockStack gap="200">
          <Text as="h2" variant="headingMd">
            {t("file_viewer.links_title")}
          </Text>
          {!hasLinks ? (
            <Text as="p">{t("file_viewer.no_links")}</Text>
          ) : (
            <List>
              {links.reply_to && (
                <List.Item>
                  {t("file_viewer.reply_to")} <Link url={`/file/${links.reply_to.id}`}>{links.reply_to.file_name}</Link>
                </List.Item>
              )}
              {links.replies.map((reply) => (
                <List.Item key={`reply-${reply.id}`}>
                  {t("file_viewer.reply", {
                    set: reply.transaction_set ?? "",
                    partner: t(`file_viewer.partners.${reply.partner}`, { defaultValue: reply.partner }),
                  })}{" "}
                  <Link url={`/file/${reply.id}`}>{reply.file_name}</Link>
                </List.Item>
              ))}
              {links.requests.map((request) => (
                <List.Item key={`request-${request.request_id}`}>
                  {t("file_viewer.request", { po: request.po_number, sku: request.item_sku })}{" "}
                  <Link url={`/dropship/requests/revise?id=${request.request_id}`}>{t("file_viewer.open_request")}</Link>{" "}
                  <Link url={orderPath(request.order_increment_id)}>{t("file_viewer.order", { order: request.order_increment_id })}</Link>
                </List.Item>
              ))}
              {links.responses.map((response) => (
                <List.Item key={`response-${response.id}`}>
                  {t("file_viewer.response", { type: response.response_type, po: response.po_number, status: titleCase(response.status) })}{" "}
                  <Link url={`/dropship/responses/revise?id=${response.id}`}>{t("file_viewer.open_response")}</Link>{" "}
                  {response.order_increment_id && (
                    <Link url={orderPath(response.order_increment_id)}>{t("file_viewer.order", { order: response.order_increment_id })}</Link>
                  )}
                </List.Item>
              ))}
              {links.cancellations.map((cancellation) => (
                <List.Item key={`cancellation-${cancellation.id}`}>
                  {t("file_viewer.cancellation", { po: cancellation.po_number, status: titleCase(cancellation.status) })}{" "}
                  <Link url={`/dropship/requests/revise?id=${cancellation.request_id}`}>{t("file_viewer.open_request")}</Link>
                </List.Item>
              ))}
              {links.realtime_sales.map((row) => (
                <List.Item key={`sale-${row.id}`}>
                  {t("file_viewer.realtime_sale", { id: row.id, event: row.event })}{" "}
                  {row.order_increment_id && <Link url={orderPath(row.order_increment_id)}>{t("file_viewer.order", { order: row.order_increment_id })}</Link>}
                </List.Item>
              ))}
              {links.realtime_shipping.map((row) => (
                <List.Item key={`shipping-${row.id}`}>
                  {t("file_viewer.realtime_shipping", { id: row.id, tracking: row.tracking_number ?? "—" })}{" "}
                  {row.order_increment_id && <Link url={orderPath(row.order_increment_id)}>{t("file_viewer.order", { order: row.order_increment_id })}</Link>}
                </List.Item>
              ))}
            </List>
          )}
          {links.logs.length > 0 && (
            <PlainTable
              label={t("file_viewer.links_title")}
              headings={[
                t("file_viewer.log_columns.when"),
                t("file_viewer.log_columns.action"),
                t("file_viewer.log_columns.status"),
                t("file_viewer.log_columns.message"),
              ]}
              rows={links.logs.map((log) => ({
                key: log.id,
                cells: [
                  when(log.created_at),
                  t(`dropship.logs.actions.${log.action}`, { defaultValue: log.action }),
                  t(`dropship.logs.statuses.${log.status}`, { defaultValue: log.status }),
                  log.message,
                ],
              }))}
            />
          )}
        </BlockStack>
      </Card>

      <Card padding="0">
        <Box padding="400">
          <InlineStack align="space-between" blockAlign="center">
            <Text as="h2" variant="headingMd">
              {t(`file_viewer.content_title.${content.format}`)}
            </Text>
            <BlockStack gap="100" inlineAlign="end">
              {/* Through fetch, as every download here: embedded, the session token goes with it (D262). */}
              <a className="Polaris-Link" href={withLocale(file.download, search.toString() ? `?${search.toString()}` : "")} download onClick={download}>
                {t("file_viewer.download")}
              </a>
              {downloadFailed && (
                <Text as="span" tone="critical">
                  {t("file_viewer.download_error")}
                </Text>
              )}
            </BlockStack>
          </InlineStack>
        </Box>
        <div ref={contentRef} className="file-viewer-content">
          {renderContent(view, t)}
        </div>
        <Box padding="400">
          <Pagination
            hasPrevious={content.page > 1}
            hasNext={content.page < content.last_page}
            onPrevious={() => goTo(content.page - 1)}
            onNext={() => goTo(content.page + 1)}
            label={t(`file_viewer.footer.${content.format}`, { page: content.page, lastPage: content.last_page, total: content.total })}
          />
        </Box>
      </Card>
    </BlockStack>
  );
}

function renderContent(view: View, t: (key: string, options?: Record<string, unknown>) => string) {
  const { content, file } = view;
  if (content.format === "x12") {
    return (
      <table className="file-viewer-table" aria-label={t("file_viewer.content_title.x12")}>
        <thead>
          <tr>
            <th scope="col">{t("file_viewer.columns.index")}</th>
            <th scope="col">{t("file_viewer.columns.segment")}</th>
            <th scope="col">{t("file_viewer.columns.elements")}</th>
          </tr>
        </thead>
        <tbody>
          {content.segments.map((segment) => {
            const atFault = file.error_segment_index === segment.index;
            return (
              <tr
                key={segment.index}
                data-segment={segment.id}
                className={atFault ? "file-viewer-fault" : undefined}
                aria-current={atFault ? "true" : undefined}
              >
                <td>{segment.index}</td>
                <td>
                  <strong>{segment.id}</strong>
                  {segment.name && <span className="file-viewer-name"> {segment.name}</span>}
                  {atFault && (
                    <>
                      {" "}
                      <Badge tone="critical">{t("file_viewer.at_fault")}</Badge>
                    </>
                  )}
                </td>
                <td>
                  {segment.elements.map((element, i) => {
                    const position = `${segment.id}${String(i + 1).padStart(2, "0")}`;
                    return (
                      <span key={i} className="file-viewer-element" title={position}>
                        <span className="file-viewer-position">{position}</span>
                        {element === "" ? "\u00a0" : element}
                      </span>
                    );
                  })}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    );
  }
  if (content.format === "csv") {
    return (
      <PlainTable
        label={t("file_viewer.content_title.csv")}
        headings={[t("file_viewer.columns.line"), ...content.header]}
        rows={content.rows.map((row) => ({
          key: row.line,
          cells: [row.line, ...content.header.map((_, i) => row.cells[i] ?? ""), ...row.cells.slice(content.header.length)],
        }))}
      />
    );
  }
  return (
    <pre className="file-viewer-text">
      {content.lines.map((line) => (
        <span key={line.line}>
          {line.text}
          {"\n"}
        </span>
      ))}
    </pre>
  );
}

/** A table that wraps its text instead of scrolling (Polaris' DataTable scrolls, and a scrolling region needs a focusable element). */
function PlainTable({ label, headings, rows }: { label: string; headings: string[]; rows: Array<{ key: string | number; cells: ReactNode[] }> }) {
  return (
    <table className="file-viewer-table file-viewer-plain" aria-label={label}>
      <thead>
        <tr>
          {headings.map((heading, i) => (
            <th key={i} scope="col">
              {heading}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            {row.cells.map((cell, i) => (
              <td key={i}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
