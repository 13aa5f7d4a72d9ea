// A message for people as edi/ hands it to the app: an i18n key with its
// parameters (a parameter may itself be such a message), or words that are
// data and are shown as they are. edi/ uses no i18n library; the app renders
// these in the reader's language (app/runs/messages.ts, D117).
export type CodedMessage = { code: string; params?: Record<string, unknown> } | { text: string };

export const coded = (code: string, params?: Record<string, unknown>): CodedMessage => (params ? { code, params } : { code });
