// Bad input is answered 422 with per-field messages, never a 500 (D127).
// Problems are coded messages ({ code, params }, as app/i18n/messages renders
// them): domain code and form schemas name the problem, and the edge (apiRoute,
// or a page's action) renders them once in the request's language. A string is
// words shown as they are (data, such as a server's own error).
import { z } from "zod";
import { englishText } from "~/i18n/english.server";
import { CODE, coded } from "./form-messages";
import { isMessage, message, renderCoded, type MessageTranslate, type RunMessage } from "~/i18n/messages";

export type Problem = RunMessage | string;
/** Per-field problems, as thrown. */
export type FieldProblems = Record<string, Problem[]>;
/** Per-field texts, as the 422 body carries them. */
export type FieldErrors = Record<string, string[]>;

/** An error's own message (for logs and callers without a reader): its English words (D114). */
const describe = (problem: Problem): string => (typeof problem === "string" ? problem : englishText(problem));

export class ValidationError extends Error {
  constructor(
    readonly errors: FieldProblems,
    readonly summary: Problem = message("errors.unprocessable"),
  ) {
    super(describe(summary));
  }
}

/** One field's problem, which is also the answer's message. */
export function refuse(field: string, problem: Problem): never {
  throw new ValidationError({ [field]: [problem] }, problem);
}

/** A problem in the language of `t`. */
export const renderProblem = (t: MessageTranslate, problem: Problem): string => renderCoded(t, problem);

export function renderFieldErrors(t: MessageTranslate, errors: FieldProblems): FieldErrors {
  return Object.fromEntries(Object.entries(errors).map(([field, problems]) => [field, problems.map((problem) => renderProblem(t, problem))]));
}

/** The 422 answer: `{ message, errors: { field: [text] } }` in the language of `t`. */
export function unprocessable(error: ValidationError, t: MessageTranslate): Response {
  return Response.json({ message: renderProblem(t, error.summary), errors: renderFieldErrors(t, error.errors) }, { status: 422 });
}

/**
 * An answer's `message` (and `detail`) given as a coded message is rendered
 * here, in the request's language (D127): domain code says what happened, the
 * edge says it in words.
 */
export function renderAnswer<T>(t: MessageTranslate, result: T): T {
  if (!result || typeof result !== "object" || Array.isArray(result)) return result;
  const answer = result as Record<string, unknown>;
  if (!isMessage(answer.message) && !isMessage(answer.detail)) return result;
  return {
    ...answer,
    ...(isMessage(answer.message) ? { message: renderProblem(t, answer.message as RunMessage) } : {}),
    ...(isMessage(answer.detail) ? { detail: renderProblem(t, answer.detail as RunMessage) } : {}),
  } as T;
}

// --- zod schemas with coded messages (./form-messages.ts) ----------------------------

export { coded };

function problemOf(text: string): Problem {
  if (CODE.test(text)) return message(text);
  if (text.startsWith('{"code"')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (isMessage(parsed) && "code" in parsed) return parsed;
    } catch {
      // words, shown as they are
    }
  }
  return text;
}

/** Turns zod's issues into per-field problems (a coded message stays a code). */
export function problemsFromZod(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): FieldProblems {
  const errors: FieldProblems = {};
  for (const issue of issues) {
    const field = issue.path.map(String).join(".") || "_";
    (errors[field] ??= []).push(problemOf(issue.message));
  }
  return errors;
}

/** The one parse at the edge: typed input, or a ValidationError with the form's problems. */
export function parseInput<T extends z.ZodType>(schema: T, body: unknown, summary?: Problem): z.infer<T> {
  const result = schema.safeParse(body);
  if (!result.success) throw new ValidationError(problemsFromZod(result.error.issues), summary);
  return result.data;
}

/** The thing asked for does not exist: answered 404 with the message. */
export class NotFoundError extends Error {
  constructor(readonly problem: Problem) {
    super(describe(problem));
  }
}

/**
 * A request body as a plain object: JSON, or a (multipart or urlencoded) form.
 * A body that cannot be read is a 422, not a 500.
 */
export function readBody(request: Request): Promise<Record<string, unknown>> {
  // Read once per request: the route and what records the staff member's action (app/http) both see it (D255).
  let body = bodiesRead.get(request);
  if (!body) {
    body = readBodyOnce(request);
    bodiesRead.set(request, body);
  }
  return body;
}

const bodiesRead = new WeakMap<Request, Promise<Record<string, unknown>>>();

async function readBodyOnce(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type") ?? "";
  if (type.includes("application/json")) {
    const text = await request.text();
    if (!text.trim()) return {};
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // answered below
    }
    throw new ValidationError({ _: ["The body is not a JSON object."] }, "The request has errors.");
  }
  if (type.includes("multipart/form-data") || type.includes("application/x-www-form-urlencoded")) {
    const form = await request.formData();
    const out: Record<string, unknown> = {};
    for (const [key, value] of form) out[key] = typeof value === "string" ? value : value.name;
    return out;
  }
  return {};
}

/** The method a request means: `_method` (spec's override for PUT) or the HTTP method. */
export function intendedMethod(request: Request, body: Record<string, unknown>): string {
  const override = typeof body._method === "string" ? body._method.toUpperCase() : null;
  return override ?? request.method.toUpperCase();
}
