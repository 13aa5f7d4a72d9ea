// The Needs attention sweep (D239): reads every cause open now (sources.server.ts),
// opens an item for each new one, resolves the items whose cause is gone, and
// queues the immediate alerts of the items it opened, all in one transaction:
// an item is opened once and its alerts are stored before anything is sent
// (D240). Run by the needs_attention feed and after the drop-ship steps.
import prisma from "~/db.server";
import type { PrismaClient } from "~/db/client.server";
import { LOCK_KEYS } from "~/db/lock-keys";
import { englishText } from "~/i18n/english.server";
import { logger } from "~/observability/logger.server";
import { getSettings, type Settings } from "~/settings/settings.server";
import type { AttentionKind } from "~/settings/attention-kinds";
import { ATTENTION_SOURCES, type Cause } from "./sources.server";

const log = logger("attention");

export interface SweepResult {
  opened: number;
  resolved: number;
  open: number;
  alertsQueued: number;
  /** Kinds whose source could not be read: their items were left as they were. */
  failedKinds: AttentionKind[];
}

/** `db`: the app's client; the demo seed gives its own (it fills another database). */
export async function sweepAttention(now = new Date(), settingsGiven?: Settings, db: PrismaClient = prisma): Promise<SweepResult> {
  const settings = settingsGiven ?? (await getSettings(db));
  const causes: Cause[] = [];
  const sweptKinds: AttentionKind[] = [];
  const failedKinds: AttentionKind[] = [];
  for (const source of ATTENTION_SOURCES) {
    try {
      causes.push(...(await source.read({ now, settings, db })));
      sweptKinds.push(...source.kinds);
    } catch (error) {
      // One source that fails leaves its items alone; the others are still swept.
      failedKinds.push(...source.kinds);
      log.error({ err: error, kinds: source.kinds }, "a Needs attention source could not be read");
    }
  }

  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_KEYS.attentionSweep})`;
      // Only causes not open yet, or whose words or link changed, are written (and rendered in English): most sweeps
      // find what the last one found, and thousands of late POs would otherwise be rewritten every 5 minutes.
      const changed = await tx.$queryRaw<Array<{ at: number }>>`
        SELECT c.at::int AS at
          FROM unnest(${causes.map((cause) => cause.kind)}::text[], ${causes.map((cause) => cause.subject)}::text[],
                      ${causes.map((cause) => JSON.stringify(cause.reason))}::jsonb[],
                      ${causes.map((cause) => (cause.detail ? JSON.stringify(cause.detail) : null))}::jsonb[],
                      ${causes.map((cause) => cause.link)}::text[]) WITH ORDINALITY AS c(kind, subject, reason_code, detail_code, link, at)
          LEFT JOIN attention_item a ON a.kind = c.kind AND a.subject = c.subject AND a.resolved_at IS NULL
         WHERE a.id IS NULL OR a.reason_code IS DISTINCT FROM c.reason_code OR a.detail_code IS DISTINCT FROM c.detail_code
            OR a.link IS DISTINCT FROM c.link`;
      const rows = changed.map(({ at }) => causes[at - 1]!).map((cause) => ({ ...cause, reasonText: englishText(cause.reason) }));
      // New causes open an item; an open item's words follow its cause (a count of failures grows), its age does not.
      const upserted = await tx.$queryRaw<Array<{ id: number; kind: string; inserted: boolean }>>`
        INSERT INTO attention_item (kind, subject, vendor_id, vendor_name, reason, reason_code, detail_code, link, since, opened_at)
        SELECT c.kind, c.subject, c.vendor_id, c.vendor_name, c.reason, c.reason_code, c.detail_code, c.link, c.since, ${now}
          FROM unnest(${rows.map((row) => row.kind)}::text[], ${rows.map((row) => row.subject)}::text[],
                      ${rows.map((row) => row.vendor_id)}::int[], ${rows.map((row) => row.vendor_name)}::text[],
                      ${rows.map((row) => row.reasonText)}::text[], ${rows.map((row) => JSON.stringify(row.reason))}::jsonb[],
                      ${rows.map((row) => (row.detail ? JSON.stringify(row.detail) : null))}::jsonb[],
                      ${rows.map((row) => row.link)}::text[], ${rows.map((row) => row.since)}::timestamptz[])
               AS c(kind, subject, vendor_id, vendor_name, reason, reason_code, detail_code, link, since)
        ON CONFLICT (kind, subject) WHERE resolved_at IS NULL
        DO UPDATE SET reason = EXCLUDED.reason, reason_code = EXCLUDED.reason_code, detail_code = EXCLUDED.detail_code,
                      link = EXCLUDED.link, vendor_name = EXCLUDED.vendor_name
                WHERE attention_item.reason_code IS DISTINCT FROM EXCLUDED.reason_code
                   OR attention_item.detail_code IS DISTINCT FROM EXCLUDED.detail_code
                   OR attention_item.link IS DISTINCT FROM EXCLUDED.link
        RETURNING id, kind, (xmax = 0) AS inserted`;
      // xmax is 0 for a row this statement inserted, set for one it updated: only new items alert.
      const opened = upserted.filter((row) => row.inserted);

      const resolved = await tx.$executeRaw`
        UPDATE attention_item a SET resolved_at = ${now}
         WHERE a.resolved_at IS NULL AND a.kind = ANY(${sweptKinds}::text[])
           AND NOT EXISTS (SELECT 1 FROM unnest(${causes.map((cause) => cause.kind)}::text[], ${causes.map((cause) => cause.subject)}::text[])
                                         AS c(kind, subject)
                            WHERE c.kind = a.kind AND c.subject = a.subject)`;

      const immediate = opened.filter((item) => settings.alerts.immediate_kinds.includes(item.kind as AttentionKind)).map((item) => item.id);
      const recipients = alertRecipients(settings);
      let alertsQueued = 0;
      if (immediate.length && recipients.length) {
        alertsQueued = await tx.$executeRaw`
          INSERT INTO attention_alert (item_id, channel, recipient, language, next_attempt_at)
          SELECT i.id, r.channel, r.recipient, r.language, ${now}
            FROM unnest(${immediate}::int[]) AS i(id)
           CROSS JOIN unnest(${recipients.map((r) => r.channel)}::text[], ${recipients.map((r) => r.recipient)}::text[],
                             ${recipients.map((r) => r.language)}::text[]) AS r(channel, recipient, language)
          ON CONFLICT DO NOTHING`;
      }
      const [{ open }] = await tx.$queryRaw<Array<{ open: number }>>`
        SELECT count(*)::int AS open FROM attention_item WHERE resolved_at IS NULL AND dismissed_at IS NULL`;
      return { opened: opened.length, resolved, open, alertsQueued, failedKinds };
    },
    { timeout: 120_000 },
  );
}

/** Who gets alerts: each e-mail recipient, and the webhook when one is set. */
export function alertRecipients(settings: Settings): Array<{ channel: "email" | "webhook"; recipient: string; language: string }> {
  return [
    ...settings.alerts.recipients.map((recipient) => ({ channel: "email" as const, recipient: recipient.email.toLowerCase(), language: recipient.language })),
    ...(settings.alerts.webhook_url
      ? [{ channel: "webhook" as const, recipient: settings.alerts.webhook_url, language: settings.alerts.webhook_language }]
      : []),
  ];
}
