// Bad input is answered 422 with per-field messages, never a 500.
export type FieldErrors = Record<string, string[]>;

export class ValidationError extends Error {
  constructor(
    readonly errors: FieldErrors,
    message = "The request has errors.",
  ) {
    super(message);
  }
}

export function unprocessable(error: ValidationError): Response {
  return Response.json({ message: error.message, errors: error.errors }, { status: 422 });
}

/** Turns a zod error into per-field messages. */
export function fieldErrorsFromZod(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path.map(String).join(".") || "_";
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}

/** The thing asked for does not exist: answered 404 with the message. */
export class NotFoundError extends Error {}

/**
 * A request body as a plain object: JSON, or a (multipart or urlencoded) form.
 * A body that cannot be read is a 422, not a 500.
 */
export async function readBody(request: Request): Promise<Record<string, unknown>> {
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
