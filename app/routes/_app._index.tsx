// Home (spec 001 §2): the Daily Sales block, loaded in the browser from
// /api/daily_sales (what each figure means: docs/decisions.md D19), and the link groups.
import { useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Box, Card, InlineGrid, InlineStack, Link, SkeletonBodyText, SkeletonDisplayText, Text } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { HOME_LINK_GROUPS } from "~/components/navigation";
import { RegionDataTable } from "~/components/RegionDataTable";
import { fetchJsonWithRetry } from "~/grid/fetch-with-retry";
import { formatMoney } from "~/lib/format";
import { pageLoader } from "~/http/route.server";
import type { DailySales, NetSalesDay } from "~/orders/daily-sales.server";
import { shopName } from "~/shopify/shop.server";
import { shopifyAdminFor } from "~/shopify/admin-client.server";
import { scopesToApprove } from "~/shopify/granted-scopes.server";
import { openAttentionCount } from "~/attention/queue.server";

export const loader = pageLoader(async ({ staff }) => {
  const [shop, toApprove, attention] = await Promise.all([shopName(staff), scopesToApprove(shopifyAdminFor(staff), staff.shop), openAttentionCount()]);
  return { shop, toApprove, attention };
});

type DailySalesAnswer = DailySales & { history: NetSalesDay[] };

export default function Home() {
  const { t } = useTranslation();
  const { shop, toApprove, attention } = useLoaderData<typeof loader>();
  return (
    <AppPage title={t("home.title")} subtitle={shop ? t("home.connected", { shop }) : undefined}>
      <BlockStack gap="400">
        {toApprove && <AccessToApprove scopes={toApprove} />}
        <AttentionTile count={attention} />
        <div className="home-groups">
          {HOME_LINK_GROUPS.map((group) => (
            <section key={group.title} aria-label={t(group.title)} style={{ display: "grid" }}>
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    {t(group.title)}
                  </Text>
                  {group.links.map((link) => (
                    <Link key={link.url} url={link.url} removeUnderline>
                      {t(link.label)}
                    </Link>
                  ))}
                </BlockStack>
              </Card>
            </section>
          ))}
        </div>
        {/* Last, as the spec lists it: what it loads grows the page below everything else, so nothing moves (D246). */}
        <DailySalesBlock />
      </BlockStack>
    </AppPage>
  );
}

/** Home's Needs attention tile: rendered with the page, so it never moves what is below it. */
function AttentionTile({ count }: { count: number }) {
  const { t } = useTranslation();
  return (
    <section aria-label={t("home.attention.title")}>
      <Card>
        <InlineStack align="space-between" blockAlign="center" gap="400">
          <BlockStack gap="100">
            <Text as="h2" variant="headingMd">
              {t("home.attention.title")}
            </Text>
            <Text as="p" tone={count > 0 ? "critical" : "subdued"}>
              {count > 0 ? t("home.attention.count", { count }) : t("home.attention.none")}
            </Text>
          </BlockStack>
          <InlineStack gap="300">
            <Link url="/attention">{t("home.attention.open")}</Link>
            <Link url="/settings">{t("home.attention.settings")}</Link>
          </InlineStack>
        </InlineStack>
      </Card>
    </section>
  );
}

/** The one banner for a grant that falls short (D170): what to re-approve, and what waits meanwhile. */
function AccessToApprove({ scopes }: { scopes: string[] }) {
  const { t } = useTranslation();
  return (
    <Banner tone="warning" title={t("home.access.title")}>
      <BlockStack gap="200">
        <p>{t("home.access.body", { scopes: scopes.join(", ") })}</p>
        <p>{t("home.access.action")}</p>
        <ul>
          {scopes.map((scope) => (
            <li key={scope}>{t(`home.access.effects.${scope}`)}</li>
          ))}
        </ul>
      </BlockStack>
    </Banner>
  );
}

// Dates of the block are calendar days (YYYY-MM-DD), shown as US short dates.
const shortDate = new Intl.DateTimeFormat("en-US", { dateStyle: "short", timeZone: "UTC" });
const monthDay = new Intl.DateTimeFormat("en-US", { month: "numeric", day: "numeric", timeZone: "UTC" });
const asUtcDate = (day: string) => new Date(`${day}T00:00:00Z`);
const formatDay = (day: string) => shortDate.format(asUtcDate(day));

function DailySalesBlock() {
  const { t } = useTranslation();
  return (
    <section aria-label={t("home.daily_sales.title")}>
      <DailySalesCard />
    </section>
  );
}

const FIGURE_KEYS = ["total_invoices", "credit_memos", "shipping_invoices", "net_sales", "total_outstanding_orders", "total_pending_dropship_orders"];

function DailySalesCard() {
  const { t } = useTranslation();
  const [answer, setAnswer] = useState<DailySalesAnswer | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    fetchJsonWithRetry<DailySalesAnswer>("/api/daily_sales", { signal: controller.signal })
      .then(setAnswer)
      .catch(() => !controller.signal.aborted && setFailed(true));
    return () => controller.abort();
  }, []);

  const title = (
    <Text as="h2" variant="headingMd">
      {t("home.daily_sales.title")}
      {answer ? ` · ${formatDay(answer.day)}` : ""}
    </Text>
  );

  if (failed) {
    return (
      <Card>
        <BlockStack gap="300">
          {title}
          <Banner tone="critical">{t("home.daily_sales.load_error")}</Banner>
        </BlockStack>
      </Card>
    );
  }
  if (!answer) {
    return (
      <Card>
        <BlockStack gap="300">
          {title}
          {/* The shape of what comes: six figures and the chart's box, so the card grows little when they arrive. */}
          <div role="status" aria-busy="true" aria-label={t("home.daily_sales.loading")}>
            <BlockStack gap="400">
              <InlineGrid columns={{ xs: 1, sm: 2, md: 3 }} gap="300">
                {FIGURE_KEYS.map((key) => (
                  <Box key={key} padding="300" borderRadius="200" borderWidth="025" borderColor="border-secondary">
                    <BlockStack gap="200">
                      <SkeletonBodyText lines={1} />
                      <SkeletonDisplayText size="small" />
                    </BlockStack>
                  </Box>
                ))}
              </InlineGrid>
              <div className="daily-sales-chart-space" />
            </BlockStack>
          </div>
        </BlockStack>
      </Card>
    );
  }

  const orders = (count: number) => t("home.daily_sales.orders", { count });
  const figures: Array<{ key: string; label: string; value: number; note?: string; strong?: boolean }> = [
    { key: "total_invoices", label: t("home.daily_sales.sales"), value: answer.total_invoices },
    { key: "credit_memos", label: t("home.daily_sales.returns"), value: answer.credit_memos },
    { key: "shipping_invoices", label: t("home.daily_sales.shipping_invoices"), value: answer.shipping_invoices },
    {
      key: "net_sales",
      label: t("home.daily_sales.net_sales"),
      value: answer.net_sales,
      note: t("home.daily_sales.net_sales_note"),
      strong: true,
    },
    {
      key: "total_outstanding_orders",
      label: t("home.daily_sales.outstanding"),
      value: answer.total_outstanding_orders,
      note: orders(answer.outstanding_order_count),
    },
    {
      key: "total_pending_dropship_orders",
      label: t("home.daily_sales.pending_dropship"),
      value: answer.total_pending_dropship_orders,
      note: orders(answer.pending_dropship_order_count),
    },
  ];
  const stores = Object.values(answer.total_assignments);

  return (
    <Card>
      <BlockStack gap="400">
        {title}
        <InlineGrid columns={{ xs: 1, sm: 2, md: 3 }} gap="300">
          {figures.map((figure) => (
            <div key={figure.key} data-testid={`daily-sales-${figure.key}`}>
              <Box
                padding="300"
                background={figure.strong ? "bg-surface-secondary" : undefined}
                borderRadius="200"
                borderWidth="025"
                borderColor="border-secondary"
              >
                <BlockStack gap="100">
                  <Text as="p" tone="subdued">
                    {figure.label}
                  </Text>
                  <Text as="p" variant="headingLg" tone={figure.value < 0 ? "critical" : undefined}>
                    <span data-testid="value">{formatMoney(figure.value)}</span>
                  </Text>
                  {figure.note ? (
                    <Text as="p" variant="bodySm" tone="subdued">
                      {figure.note}
                    </Text>
                  ) : null}
                </BlockStack>
              </Box>
            </div>
          ))}
        </InlineGrid>

        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            {t("home.daily_sales.chart_title", { days: answer.history.length })}
          </Text>
          <NetSalesChart history={answer.history} />
        </BlockStack>

        <div data-testid="daily-sales-assignments">
          <BlockStack gap="200">
            <Text as="h3" variant="headingSm">
              {t("home.daily_sales.assignments_title")}
            </Text>
            {stores.length ? (
              <RegionDataTable
                label={t("home.daily_sales.assignments_title")}
                columnContentTypes={["text", "numeric", "numeric", "numeric", "numeric"]}
                headings={[
                  t("home.daily_sales.columns.store"),
                  t("home.daily_sales.columns.qty_assigned"),
                  t("home.daily_sales.columns.assigned"),
                  t("home.daily_sales.columns.shipped"),
                  t("home.daily_sales.columns.need_to_ship"),
                ]}
                rows={stores.map((store) => [store.source_code, store.qty_assigned, store.assigned, store.shipped, store.assigned - store.shipped])}
              />
            ) : (
              <Text as="p" tone="subdued">
                {t("home.daily_sales.empty")}
              </Text>
            )}
          </BlockStack>
        </div>
      </BlockStack>
    </Card>
  );
}

// The chart: one bar per day on a y = 0 baseline, days with negative net sales
// below it. Drawn in a fixed coordinate space and scaled to the card's width.
const WIDTH = 640;
const HEIGHT = 180;
const PLOT = { left: 64, right: 8, top: 10, bottom: 24 };
const axisMoney = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });
const COLORS = {
  positive: "var(--p-color-bg-fill-emphasis, #005bd3)",
  negative: "var(--p-color-bg-fill-critical, #c70a24)",
  baseline: "var(--p-color-text-secondary, #616161)",
  grid: "var(--p-color-border-secondary, #ebebeb)",
  text: "var(--p-color-text-secondary, #616161)",
};

function NetSalesChart({ history }: { history: NetSalesDay[] }) {
  const { t } = useTranslation();
  if (!history.length) return null;
  const values = history.map((day) => day.net_sales);
  const top = Math.max(0, ...values);
  const bottom = Math.min(0, ...values);
  const span = top - bottom || 1;
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const y = (value: number) => PLOT.top + ((top - value) / span) * plotHeight;
  const band = plotWidth / history.length;
  const barWidth = band * 0.7;
  const zero = y(0);

  const highest = history.reduce((best, day) => (day.net_sales > best.net_sales ? day : best));
  const lowest = history.reduce((worst, day) => (day.net_sales < worst.net_sales ? day : worst));
  const total = Math.round(values.reduce((sum, value) => sum + value, 0) * 100) / 100;
  const summary = t("home.daily_sales.chart_summary", {
    days: history.length,
    from: formatDay(history[0].date),
    to: formatDay(history[history.length - 1].date),
    total: formatMoney(total),
    highest: formatMoney(highest.net_sales),
    highest_day: formatDay(highest.date),
    lowest: formatMoney(lowest.net_sales),
    lowest_day: formatDay(lowest.date),
    today: formatMoney(history[history.length - 1].net_sales),
  });
  // Labels at 0 and at the highest and lowest values, unless one would overlap the 0 label.
  const ticks = [0, ...(y(top) < zero - 12 ? [top] : []), ...(y(bottom) > zero + 12 ? [bottom] : [])];

  return (
    <svg
      role="img"
      aria-label={summary}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width="100%"
      style={{ maxWidth: WIDTH, display: "block", fontFamily: "inherit" }}
      data-testid="net-sales-chart"
    >
      {ticks.map((tick) => (
        <g key={tick}>
          {tick !== 0 ? <line x1={PLOT.left} x2={WIDTH - PLOT.right} y1={y(tick)} y2={y(tick)} stroke={COLORS.grid} /> : null}
          <text x={PLOT.left - 6} y={y(tick)} dy="0.32em" textAnchor="end" fontSize="11" fill={COLORS.text}>
            {axisMoney.format(tick)}
          </text>
        </g>
      ))}
      {history.map((day, index) => {
        const x = PLOT.left + index * band + (band - barWidth) / 2;
        const end = y(day.net_sales);
        // A day without sales still gets a hairline, so every day has its bar (and its title).
        const height = Math.max(Math.abs(end - zero), 1);
        const label = `${formatDay(day.date)}: ${formatMoney(day.net_sales)}`;
        return (
          <g key={day.date}>
            <rect
              className="net-sales-bar"
              data-date={day.date}
              data-value={day.net_sales}
              x={x}
              y={day.net_sales < 0 ? zero : Math.min(end, zero - 1)}
              width={barWidth}
              height={height}
              fill={day.net_sales < 0 ? COLORS.negative : COLORS.positive}
              opacity={day.net_sales === 0 ? 0.35 : 1}
            >
              <title>{label}</title>
            </rect>
            {index % 2 === (history.length - 1) % 2 ? (
              <text x={x + barWidth / 2} y={HEIGHT - 8} textAnchor="middle" fontSize="11" fill={COLORS.text}>
                {monthDay.format(asUtcDate(day.date))}
              </text>
            ) : null}
          </g>
        );
      })}
      <line x1={PLOT.left} x2={WIDTH - PLOT.right} y1={zero} y2={zero} stroke={COLORS.baseline} strokeWidth="1" />
    </svg>
  );
}
