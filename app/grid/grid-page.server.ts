// The first page of a grid screen, rendered by its route loader from the URL.
// A URL the grid cannot answer (a stale sort key, say) shows the screen's error
// banner over an empty first page, as a failed load does (spec 000 §4).
// Its words (ReaderTexts) are rendered here, in the reader's language (D136).
import { renderForReader, type MessageTranslate } from "~/i18n/messages";
import { ValidationError } from "~/lib/validation.server";
import type { GridPageData } from "./DataGrid";
import type { GridScreenData } from "./GridScreen";
import { runGrid, type CodedGridAnswer, type GridDefinition } from "./grid.server";
import type { GridAnswer } from "./types";

/** The answer for `params`; when they are not valid, the default list emptied, marked failed. */
export async function listPageData<A>(
  load: (params: URLSearchParams) => Promise<A>,
  params: URLSearchParams,
  emptied: (answer: A) => A,
): Promise<{ answer: A; failed: boolean }> {
  try {
    return { answer: await load(params), failed: false };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return { answer: emptied(await load(new URLSearchParams())), failed: true };
  }
}

/** The first page of a grid screen for the reader of `t`. */
export async function gridPageData(
  load: (params: URLSearchParams) => Promise<CodedGridAnswer>,
  params: URLSearchParams,
  t: MessageTranslate,
): Promise<GridPageData> {
  const { answer, failed } = await listPageData(load, params, (coded) => ({
    ...coded,
    data: { ...coded.data, data: [], total: 0, last_page: 1, current_page: 1 },
  }));
  const rendered: GridAnswer = renderForReader(t, answer);
  return { answer: rendered, failed };
}

/**
 * A grid screen's loader data (GridScreen): the first page of `grid`, read by
 * `load` (runGrid by default; a screen's own reading shapes some rows), and
 * what the browser needs to read the next ones from the grid's /api twin,
 * `/api/<grid id>`, whose answer is nested unless `answerShape` says flat.
 */
export async function gridScreenData(
  grid: GridDefinition,
  params: URLSearchParams,
  t: MessageTranslate,
  options: { load?: (params: URLSearchParams) => Promise<CodedGridAnswer>; answerShape?: "flat" } = {},
): Promise<GridScreenData> {
  const first = await gridPageData(options.load ?? ((query) => runGrid(grid, query)), params, t);
  return {
    ...first,
    endpoint: `/api/${grid.id}`,
    defaultSort: grid.defaultSort,
    rowKey: grid.rowKey,
    answerShape: options.answerShape ?? "nested",
    rowLink: grid.rowLink ?? null,
  };
}
