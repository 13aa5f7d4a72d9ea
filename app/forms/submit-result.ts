// How every form reads the answer of its save (spec 000 §4, §5, §8; spec 001 §8):
// success → a success banner (the server's message preferred) and, when the
// form says where, a redirect after 1000 ms; 422 → the error text followed by
// the first message of each field; anything else → the error text, or the
// server's message when it sent one.

export const REDIRECT_AFTER_SUCCESS_MS = 1000;

export interface SubmitTexts {
  success: string;
  error: string;
  /**
   * Whether a server message is shown for a failed HTTP status too (spec 001
   * §8: "the server message is preferred"). The drop-ship Test and Tools pages
   * show their generic text for any non-200 (spec 000 §8): false there.
   */
  serverMessageOnHttpError?: boolean;
}

export interface SubmitOutcome {
  ok: boolean;
  tone: "success" | "critical";
  title: string;
  /** Per-field messages (422), first of each field. */
  messages: string[];
  /** The parsed answer, for forms that need more of it. */
  body: unknown;
}

type AnswerBody = { error?: unknown; message?: unknown; msg?: unknown; errors?: unknown } | null;

function serverMessage(body: AnswerBody): string | null {
  const message = body?.message ?? body?.msg;
  return typeof message === "string" && message.trim() ? message : null;
}

function firstMessages(errors: unknown): string[] {
  if (!errors || typeof errors !== "object") return [];
  return Object.values(errors as Record<string, unknown>)
    .map((value) => (Array.isArray(value) ? value[0] : value))
    .filter((value): value is string => typeof value === "string" && value !== "");
}

export function readSubmitResult(status: number, rawBody: string, texts: SubmitTexts): SubmitOutcome {
  let body: AnswerBody = null;
  let parsed = true;
  try {
    body = rawBody ? (JSON.parse(rawBody) as AnswerBody) : null;
  } catch {
    parsed = false;
  }
  if (status === 422 && parsed) {
    return { ok: false, tone: "critical", title: texts.error, messages: firstMessages(body?.errors), body };
  }
  // An answer that says error:true without a message gets the generic text.
  const flaggedError = parsed && body !== null && body.error !== undefined && body.error !== false && body.error !== 0;
  if (status >= 200 && status < 300 && parsed && !flaggedError) {
    return { ok: true, tone: "success", title: serverMessage(body) ?? texts.success, messages: [], body };
  }
  const httpOk = status >= 200 && status < 300;
  const useMessage = parsed && (httpOk || texts.serverMessageOnHttpError !== false);
  return { ok: false, tone: "critical", title: (useMessage && serverMessage(body)) || texts.error, messages: [], body };
}

/** The per-field messages of a failed save (422: `errors`, by field name); none after a success. */
export function fieldErrorsOf(outcome: SubmitOutcome | null): Record<string, string[]> {
  const body = outcome?.body as { errors?: Record<string, string[]> } | null | undefined;
  return outcome && !outcome.ok ? (body?.errors ?? {}) : {};
}
