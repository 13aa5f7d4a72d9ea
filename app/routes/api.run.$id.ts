// GET /api/run/{id}: a background run as the page follows it (D93, D95): status
// (running, finished, failed, interrupted), progress (done of total, unit,
// counts) and, once ended, error, message and detail in the reader's language
// (plus msg, the spec's name of it for Pull New Special Orders).
import { z } from "zod";
import { localeFromUrl } from "~/i18n/config";
import { apiRoute } from "~/http/route.server";
import { NotFoundError, ValidationError } from "~/lib/validation.server";
import { readRun, type RunView } from "~/runs/runs.server";

const RunId = z.coerce.number().int().positive().max(2_147_483_647);

/** The run as its answer, with the fields the spec's callers read at its end. */
export function runAnswer(run: RunView) {
  return { ...run, ...(run.kind === "special_order_pull" ? { msg: run.message } : {}), ...run.data };
}

export const loader = apiRoute(async ({ params, url, t }) => {
  const id = RunId.safeParse(params.id);
  if (!id.success) throw new ValidationError({ id: [t("runs.bad_id")] }, t("errors.unprocessable"));
  const run = await readRun(id.data, t, localeFromUrl(url));
  if (!run) throw new NotFoundError(t("runs.not_found", { id: id.data }));
  return runAnswer(run);
});
