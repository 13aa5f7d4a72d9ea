// Settings staff change on /settings (issue 30): the vendors' default service
// levels, when a partner counts as unreachable, and who gets alerts. Stored as
// one JSON value per key in app_setting, checked with zod on the way in and on
// the way out (a value stored by an older version falls back to its default).
import { z } from "zod";
import prisma from "~/db.server";
import type { PrismaClient } from "~/db/client.server";
import { env } from "~/env.server";
import { supportedLngs } from "~/i18n/config";
import { message } from "~/i18n/messages";
import { coded, parseInput } from "~/lib/validation.server";
import { ATTENTION_KINDS, IMMEDIATE_KINDS_DEFAULT } from "./attention-kinds";

const hours = (field: string) =>
  z.coerce
    .number({ message: coded("settings.errors.hours", { field: message(`settings.fields.${field}`) }) })
    .int(coded("settings.errors.hours", { field: message(`settings.fields.${field}`) }))
    .min(1, coded("settings.errors.hours", { field: message(`settings.fields.${field}`) }))
    .max(8760, coded("settings.errors.hours", { field: message(`settings.fields.${field}`) }));

export const ServiceLevelsSchema = z.object({
  sla_997_hours: hours("sla_997_hours"),
  sla_855_hours: hours("sla_855_hours"),
  sla_856_hours: hours("sla_856_hours"),
  /** A vendor or the AS400 that failed this many connections in a row is unreachable. */
  unreachable_runs: z.coerce.number().int().min(1, coded("settings.errors.runs")).max(100, coded("settings.errors.runs")),
});

const language = z.enum(supportedLngs, { message: coded("settings.errors.language") });

/** A plain address: one @, no spaces or angle brackets (nothing a mail header could be smuggled in with). */
const EMAIL = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;

export const AlertSettingsSchema = z.object({
  recipients: z
    .array(z.object({ email: z.string().trim().max(254, coded("settings.errors.email")).regex(EMAIL, coded("settings.errors.email")), language }))
    .max(20, coded("settings.errors.too_many_recipients")),
  /** An incoming webhook (Slack, Teams, any HTTPS endpoint): a JSON POST with `text` per alert. Blank: none. */
  webhook_url: z
    .string()
    .trim()
    .max(2000, coded("settings.errors.webhook_url"))
    .refine((value) => value === "" || /^https?:\/\/[^\s]+$/i.test(value), coded("settings.errors.webhook_url")),
  webhook_language: language,
  immediate_kinds: z.array(z.enum(ATTENTION_KINDS, { message: coded("settings.errors.kind") })),
  /** HH:MM in APP_TIMEZONE; blank: no digest. */
  digest_time: z
    .string()
    .trim()
    .refine((value) => value === "" || /^([01]\d|2[0-3]):[0-5]\d$/.test(value), coded("settings.errors.digest_time")),
});

export type ServiceLevels = z.infer<typeof ServiceLevelsSchema>;
export type AlertSettings = z.infer<typeof AlertSettingsSchema>;
export interface Settings {
  service_levels: ServiceLevels;
  alerts: AlertSettings;
}

/** The defaults (D238): a 997 is automatic, an 855 a working day, a shipment three days. */
export const DEFAULT_SETTINGS: Settings = {
  service_levels: { sla_997_hours: 4, sla_855_hours: 24, sla_856_hours: 72, unreachable_runs: 3 },
  alerts: { recipients: [], webhook_url: "", webhook_language: "en", immediate_kinds: IMMEDIATE_KINDS_DEFAULT, digest_time: "07:00" },
};

const SCHEMAS = { service_levels: ServiceLevelsSchema, alerts: AlertSettingsSchema } as const;
type Key = keyof typeof SCHEMAS;

/** Every setting, each stored value checked again (one that no longer passes is its default). */
export async function getSettings(db: Pick<PrismaClient, "appSetting"> = prisma): Promise<Settings> {
  const rows = await db.appSetting.findMany({ where: { key: { in: Object.keys(SCHEMAS) } } });
  const settings = structuredClone(DEFAULT_SETTINGS);
  for (const row of rows) {
    const key = row.key as Key;
    const parsed = SCHEMAS[key].safeParse({ ...DEFAULT_SETTINGS[key], ...(row.value as object) });
    if (parsed.success) (settings as unknown as Record<Key, unknown>)[key] = parsed.data;
  }
  return settings;
}

const SettingsBody = z.object({ service_levels: ServiceLevelsSchema, alerts: AlertSettingsSchema });

/** Saves the whole form; 422 with per-field problems (`alerts.recipients.0.email`) when a value is refused. */
export async function saveSettings(body: unknown, updatedBy: string): Promise<Settings> {
  const input = parseInput(SettingsBody, body);
  const alerts = { ...input.alerts, immediate_kinds: [...new Set(input.alerts.immediate_kinds)] };
  await prisma.$transaction([
    prisma.appSetting.upsert({
      where: { key: "service_levels" },
      create: { key: "service_levels", value: input.service_levels, updated_by: updatedBy },
      update: { value: input.service_levels, updated_by: updatedBy },
    }),
    prisma.appSetting.upsert({
      where: { key: "alerts" },
      create: { key: "alerts", value: alerts, updated_by: updatedBy },
      update: { value: alerts, updated_by: updatedBy },
    }),
  ]);
  return getSettings();
}

/** What the Settings screen shows besides the values: whether e-mail can go out at all (SMTP_URL), never its password. */
export function alertChannelStatus(settings: Settings, smtpUrl: string | undefined) {
  let smtpHost: string | null = null;
  try {
    smtpHost = smtpUrl ? new URL(smtpUrl).host : null;
  } catch {
    smtpHost = null;
  }
  const recipients = settings.alerts.recipients.length;
  return {
    smtp_host: smtpHost,
    /** Nothing would be sent: no recipient with e-mail on, and no webhook. */
    nothing_sent: !(recipients > 0 && smtpHost) && !settings.alerts.webhook_url,
    email_off: recipients > 0 && !smtpHost,
  };
}

/** The Settings screen's data: the values, whether alerts can go out, and the zone the digest's time is in. */
export async function settingsForScreen(given?: Settings) {
  const settings = given ?? (await getSettings());
  return { settings, status: alertChannelStatus(settings, env().SMTP_URL), timezone: env().APP_TIMEZONE };
}
