// GET /api/settings → { settings, status, timezone }. POST /api/settings { service_levels, alerts } → saved settings;
// 422 per field (service_levels.sla_855_hours, alerts.recipients.0.email…).
import { staffName } from "~/auth.server";
import { apiRoute } from "~/http/route.server";
import { message } from "~/i18n/messages";
import { readBody } from "~/lib/validation.server";
import { saveSettings, settingsForScreen } from "~/settings/settings.server";

export const loader = apiRoute(() => settingsForScreen());

export const action = apiRoute(
  async ({ request, staff }) => ({
    error: false,
    message: message("settings.saved"),
    ...(await settingsForScreen(await saveSettings(await readBody(request), staffName(staff)))),
  }),
  { action: "settings.save" },
);
