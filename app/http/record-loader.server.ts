// The loader of a revise form: the record named by ?id=, or null when there is
// none, so the page shows its "could not load" banner (spec 000 §8). Its
// words (ReaderTexts, such as a stored error) are rendered for the reader (D136).
import { renderForReader } from "~/i18n/messages";
import { pageLoader } from "~/http/route.server";
import { NotFoundError } from "~/lib/validation.server";

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
