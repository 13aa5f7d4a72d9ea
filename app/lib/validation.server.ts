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
