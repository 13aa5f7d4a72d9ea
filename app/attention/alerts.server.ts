// Alerts that reach staff (D240). The sweep stores an item's immediate alerts;
// the digest is stored once a day per recipient when its time has come in
// APP_TIMEZONE. Delivery takes what is due, sends it in each recipient's
// language with links back into the app, and records the outcome: a failure
// is tried again later (1, 5, 15, 60 minutes, then hourly) and given up after
// MAX_ATTEMPTS. Nothing here runs inside another feed: a mail server that
// hangs delays only the needs_attention feed.
import prisma from "~/db.server";
import { env } from "~/env.server";
import { translatorForLanguage } from "~/i18n/i18n.server";
import { renderMessage, type MessageTranslate } from "~/i18n/messages";
import { dateOnly, dayIn, wallClock } from "~/lib/app-time";
import { errorMessage } from "~/lib/error-message";
import { formatDateTime } from "~/lib/format";
import { logger } from "~/observability/logger.server";
import { getSettings, type Settings } from "~/settings/settings.server";
import { mailConfigured, postWebhook, sendMail, type OutgoingAlert } from "./channels.server";
import { alertRecipients } from "./sweep.server";

const log = logger("attention");

export const MAX_ATTEMPTS = 8;
const RETRY_MINUTES = [1, 5, 15, 60];
/** A delivery holds what it took this long; a process that died meanwhile leaves them to the next round. */
const LEASE_MINUTES = 10;
/** Up to this many new items, one message each; more make one message that lists them (a vendor down opens hundreds at once). */
const ONE_MESSAGE_EACH_UP_TO = 5;
/** Items a message lists at most; the rest are counted. */
const LISTED = 50;

interface ItemRow {
  id: number;
  kind: string;
  vendor_name: string | null;
  reason: string;
  reason_code: unknown;
  detail_code: unknown;
  link: string;
  since: Date;
}

/** Stores today's digest for each recipient once its time has come (nothing when no time is set). */
export async function queueDigest(now: Date, settings: Settings): Promise<number> {
  const time = settings.alerts.digest_time;
  if (!time) return 0;
  const zone = env().APP_TIMEZONE;
  const clock = wallClock(zone, now);
  if (`${clock.hour}:${clock.minute}` < time) return 0;
  const recipients = alertRecipients(settings);
  if (!recipients.length) return 0;
  return prisma.$executeRaw`
    INSERT INTO attention_alert (digest_date, channel, recipient, language, next_attempt_at)
    SELECT ${dateOnly(dayIn(zone, now))}::date, r.channel, r.recipient, r.language, ${now}
      FROM unnest(${recipients.map((r) => r.channel)}::text[], ${recipients.map((r) => r.recipient)}::text[], ${recipients.map((r) => r.language)}::text[])
           AS r(channel, recipient, language)
    ON CONFLICT DO NOTHING`;
}

export interface DeliveryResult {
  sent: number;
  failed: number;
  skipped: number;
}

/** Sends what is due: the immediate alerts grouped per recipient, then each digest. */
export async function deliverAlerts(now = new Date(), settingsGiven?: Settings): Promise<DeliveryResult> {
  const settings = settingsGiven ?? (await getSettings());
  const result: DeliveryResult = { sent: 0, failed: 0, skipped: 0 };
  const due = await prisma.$queryRaw<
    Array<{ id: number; item_id: number | null; digest_date: Date | null; channel: string; recipient: string; language: string; attempts: number }>
  >`
    UPDATE attention_alert SET next_attempt_at = ${new Date(now.getTime() + LEASE_MINUTES * 60_000)}
     WHERE id IN (SELECT id FROM attention_alert WHERE status = 'pending' AND next_attempt_at <= ${now}
                   ORDER BY id LIMIT 5000 FOR UPDATE SKIP LOCKED)
    RETURNING id, item_id, digest_date, channel, recipient, language, attempts`;
  if (!due.length) return result;

  // A recipient no longer in Settings (or e-mail no longer configured) gets nothing: their alerts are closed, not kept forever.
  const current = new Set(alertRecipients(settings).map((r) => `${r.channel} ${r.recipient}`));
  const deliverable = due.filter((alert) => current.has(`${alert.channel} ${alert.recipient}`) && (alert.channel !== "email" || mailConfigured()));
  const dropped = due.filter((alert) => !deliverable.includes(alert));
  if (dropped.length) {
    await prisma.attentionAlert.updateMany({
      where: { id: { in: dropped.map((a) => a.id) } },
      data: { status: "skipped", last_error: "no longer a recipient, or SMTP_URL unset" },
    });
    result.skipped += dropped.length;
  }

  const groups = new Map<string, typeof deliverable>();
  for (const alert of deliverable) {
    const key = `${alert.channel} ${alert.recipient} ${alert.digest_date ? `digest ${alert.id}` : "items"}`;
    groups.set(key, [...(groups.get(key) ?? []), alert]);
  }
  // Every digest of the round lists the same open items: read once, when the first digest needs them.
  let open: Promise<ItemRow[]> | undefined;
  for (const alerts of groups.values()) {
    const first = alerts[0]!;
    const t = (await translatorForLanguage(first.language)) as unknown as MessageTranslate;
    let messages: OutgoingAlert[];
    if (first.digest_date) {
      const items = await (open ??= openItems());
      if (!items.length) {
        await prisma.attentionAlert.update({ where: { id: first.id }, data: { status: "skipped", last_error: "nothing open", sent_at: now } });
        result.skipped++;
        continue;
      }
      messages = [digestMessage(t, first.language, items, now)];
    } else {
      const items = await prisma.attentionItem.findMany({ where: { id: { in: alerts.map((a) => a.item_id!) } }, orderBy: { since: "asc" } });
      messages = items.length <= ONE_MESSAGE_EACH_UP_TO ? items.map((item) => itemMessage(t, first.language, item)) : [listMessage(t, first.language, items)];
    }
    try {
      for (const outgoing of messages) {
        if (first.channel === "email") await sendMail(first.recipient, outgoing);
        else await postWebhook(first.recipient, outgoing);
      }
      await prisma.attentionAlert.updateMany({
        where: { id: { in: alerts.map((a) => a.id) } },
        data: { status: "sent", sent_at: now, attempts: { increment: 1 }, last_error: null },
      });
      result.sent += alerts.length;
    } catch (error) {
      const attempts = first.attempts + 1;
      const giveUp = attempts >= MAX_ATTEMPTS;
      const wait = RETRY_MINUTES[Math.min(attempts - 1, RETRY_MINUTES.length - 1)]!;
      await prisma.attentionAlert.updateMany({
        where: { id: { in: alerts.map((a) => a.id) } },
        data: {
          status: giveUp ? "failed" : "pending",
          attempts: { increment: 1 },
          last_error: errorMessage(error).slice(0, 500),
          next_attempt_at: new Date(now.getTime() + wait * 60_000),
        },
      });
      result.failed += alerts.length;
      log.warn({ err: error, channel: first.channel, alerts: alerts.length, attempts }, giveUp ? "alert given up" : "alert not delivered, tried again later");
    }
  }
  return result;
}

function openItems(): Promise<ItemRow[]> {
  return prisma.attentionItem.findMany({ where: { resolved_at: null, dismissed_at: null }, orderBy: { since: "asc" } });
}

/** A link into the app: the Shopify admin's page of the app in embedded mode, the local app otherwise. */
export function appUrl(path: string): string {
  const config = env();
  if (config.SHOPIFY_API_KEY && config.SHOPIFY_SHOPS?.length) {
    const store = config.SHOPIFY_SHOPS[0]!.replace(/\.myshopify\.com$/, "");
    return `https://admin.shopify.com/store/${store}/apps/${config.SHOPIFY_API_KEY}${path}`;
  }
  return `${config.SHOPIFY_APP_URL ?? `http://localhost:${config.PORT}`}${path}`;
}

const withLanguage = (path: string, language: string) => `${path}${path.includes("?") ? "&" : "?"}locale=${language}`;
const anchor = (url: string, words: string) => `<a href="${escapeHtml(url)}">${escapeHtml(words)}</a>`;
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function itemLines(t: MessageTranslate, language: string, item: ItemRow) {
  const zone = env().APP_TIMEZONE;
  return {
    kind: t(`attention.kinds.${item.kind}`),
    reason: renderMessage(t, language, item.reason_code) || item.reason,
    detail: item.detail_code ? renderMessage(t, language, item.detail_code) : "",
    since: t("attention.mail.since", { when: formatDateTime(item.since, zone) }),
    url: appUrl(withLanguage(item.link, language)),
  };
}

function itemMessage(t: MessageTranslate, language: string, item: ItemRow): OutgoingAlert {
  const lines = itemLines(t, language, item);
  const queue = appUrl(withLanguage("/attention", language));
  const text = [
    t("attention.mail.line", { label: lines.kind, text: lines.reason }),
    lines.detail,
    lines.since,
    t("attention.mail.line", { label: t("attention.mail.open"), text: lines.url }),
    t("attention.mail.line", { label: t("attention.mail.queue"), text: queue }),
  ]
    .filter(Boolean)
    .join("\n");
  const html = [
    `<p><strong>${escapeHtml(lines.kind)}</strong>: ${escapeHtml(lines.reason)}</p>`,
    lines.detail ? `<p>${escapeHtml(lines.detail)}</p>` : "",
    `<p>${escapeHtml(lines.since)}</p>`,
    `<p>${anchor(lines.url, t("attention.mail.open"))} · ${anchor(queue, t("attention.mail.queue"))}</p>`,
  ].join("");
  return {
    subject: t("attention.mail.item_subject", { reason: lines.reason.slice(0, 150) }),
    text,
    html,
    payload: {
      kind: "item",
      items: [{ id: item.id, kind: item.kind, vendor: item.vendor_name, reason: lines.reason, since: item.since.toISOString(), url: lines.url }],
    },
  };
}

function listBody(t: MessageTranslate, language: string, items: ItemRow[]) {
  const shown = items.slice(0, LISTED).map((item) => ({ item, lines: itemLines(t, language, item) }));
  const more = items.length - shown.length;
  const queue = appUrl(withLanguage("/attention", language));
  const text = [
    ...shown.map(({ lines }) => `- ${t("attention.mail.line", { label: lines.kind, text: lines.reason })} (${lines.since}) ${lines.url}`),
    ...(more > 0 ? [t("attention.mail.more", { count: more })] : []),
    t("attention.mail.line", { label: t("attention.mail.queue"), text: queue }),
  ].join("\n");
  const html = [
    "<ul>",
    ...shown.map(({ lines }) => `<li><strong>${escapeHtml(lines.kind)}</strong>: ${anchor(lines.url, lines.reason)} (${escapeHtml(lines.since)})</li>`),
    "</ul>",
    more > 0 ? `<p>${escapeHtml(t("attention.mail.more", { count: more }))}</p>` : "",
    `<p>${anchor(queue, t("attention.mail.queue"))}</p>`,
  ].join("");
  const payloadItems = shown.map(({ item, lines }) => ({
    id: item.id,
    kind: item.kind,
    vendor: item.vendor_name,
    reason: lines.reason,
    since: item.since.toISOString(),
    url: lines.url,
  }));
  return { text, html, payloadItems };
}

function listMessage(t: MessageTranslate, language: string, items: ItemRow[]): OutgoingAlert {
  const body = listBody(t, language, items);
  const subject = t("attention.mail.list_subject", { count: items.length });
  return {
    subject,
    text: `${subject}\n${body.text}`,
    html: `<p>${escapeHtml(subject)}</p>${body.html}`,
    payload: { kind: "items", count: items.length, items: body.payloadItems },
  };
}

function digestMessage(t: MessageTranslate, language: string, items: ItemRow[], now: Date): OutgoingAlert {
  const zone = env().APP_TIMEZONE;
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.kind, (counts.get(item.kind) ?? 0) + 1);
  const summary = [...counts].map(([kind, count]) => t("attention.mail.line", { label: t(`attention.kinds.${kind}`), text: count }));
  const subject = t("attention.mail.digest_subject", { count: items.length, date: dayIn(zone, now) });
  const body = listBody(t, language, items);
  return {
    subject,
    text: [subject, ...summary, "", body.text].join("\n"),
    html: `<p>${escapeHtml(subject)}</p><ul>${summary.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>${body.html}`,
    payload: { kind: "digest", count: items.length, counts: Object.fromEntries(counts), items: body.payloadItems },
  };
}
