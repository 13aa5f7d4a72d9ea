// The loader of a revise form: the record named by ?id=, or null when there is
// none, so the page shows its "could not load" banner (spec 000 §8). Its
// words (ReaderTexts, such as a stored error) are rendered for the reader (D136).
// And the action of its /api twin, which saves the record (recordAction).
import type { z } from "zod";
import { renderForReader } from "~/i18n/messages";
import type { RouteActivity } from "~/http/activity.server";
import { apiRoute, pageLoader } from "~/http/route.server";
import { NotFoundError, intendedMethod, parseInput, readBody } from "~/lib/validation.server";

export function recordLoader<T>(load: (id: number) => Promise<T>) {
  return pageLoader(async ({ url, t }) => {
    const id = Number(url.searchParams.get("id"));
    try {
      return { id, record: renderForReader(t, await load(id)) };
    } catch (error) {
      if (error instanceof NotFoundError) return { id, record: null };
      throw error;
    }
  });
}

/**
 * The action of a form's /api twin, /api/<resource>/{id}: POST with _method
 * PUT (or PATCH) saves the record, any other method is a 405 saying
 * `wrongMethod`; an unknown id is a 404 before the form is read, then bad
 * input a 422 per field.
 */
export function recordAction<R, S extends z.ZodType>(form: {
  find: (id: number) => Promise<R>;
  schema: S;
  save: (record: R, input: z.infer<S>) => Promise<unknown>;
  wrongMethod: string;
  /** What the save is recorded as (D255): "<area>.save" and the record's type; its id is the path's. */
  activity: { action: string; record: string; detail?: readonly string[] };
}) {
  const activity: RouteActivity = {
    ...form.activity,
    action: ({ method }) => (method === "PUT" || method === "PATCH" ? form.activity.action : null),
  };
  return apiRoute(async ({ request, params }) => {
    const body = await readBody(request);
    const method = intendedMethod(request, body);
    if (method !== "PUT" && method !== "PATCH") return Response.json({ error: true, message: form.wrongMethod }, { status: 405 });
    const record = await form.find(Number(params.id));
    return form.save(record, parseInput(form.schema, body));
  }, activity);
}
