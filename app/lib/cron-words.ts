// A cron expression in words, in the staff member's language (issue 18 item 3):
// "*/5 * * * *" reads "Every 5 minutes", "Alle 5 Minuten", "Toutes les 5 minutes".
// Only the three languages' locales are loaded (cronstrue's i18n bundle is 300 KB).
import cronstrue from "cronstrue";
import "cronstrue/locales/de";
import "cronstrue/locales/fr";

/** The expression in words, or undefined when it cannot be read (the form's own validation says why). */
export function cronInWords(expression: string, locale: string): string | undefined {
  if (!expression.trim()) return undefined;
  try {
    return cronstrue.toString(expression, { locale, use24HourTimeFormat: locale !== "en", throwExceptionOnParseError: true });
  } catch {
    return undefined;
  }
}
