// The loader of a revise form: the record named by ?id=, or null when there is
// none, so the page shows its "could not load" banner (spec 000 §8).
import type { Translate } from "~/i18n/i18n.server";
import { pageLoader } from "~/http/route.server";
import { NotFoundError } from "~/lib/validation.server";

export function recordLoader<T>(load: (id: number, t: Translate) => Promise<T>) {
  return pageLoader(async ({ url, t }) => {
    const id = Number(url.searchParams.get("id"));
    try {
      return { id, record: await load(id, t) };
    } catch (error) {
      if (error instanceof NotFoundError) return { id, record: null };
      throw error;
    }
  });
}
