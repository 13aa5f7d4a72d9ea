// Starts a page's background run for a request and answers at once (D93):
// each area builds its RunDefinition (its background-runs.server.ts), the API
// route checks the input first (a 422 is still answered at once and nothing
// runs), then hands the definition here.
import { localeFromUrl } from "~/i18n/config";
import type { Translate } from "~/i18n/i18n.server";
import { message, renderMessage, type RunMessage } from "./messages";
import { startRun, type RunDefinition, type RunKind, type RunOutcome, type RunView } from "./runs.server";

/** What the "already running" answer says, per kind (the spec's text where it has one). */
const ALREADY_RUNNING: Record<RunKind, (definition: RunDefinition) => RunMessage> = {
  dropship_test: () => message("runs.already_running"),
  dropship_tools: () => message("runs.already_running_tool"),
  dropship_vendor_test: () => message("runs.already_running_tool"),
  feed: (definition) => message("runs.feed_busy", { feed: definition.action }),
  special_order_pull: () => message("runs.already_running"),
  eod: () => message("eod.detail.busy"),
  auto_assignment: () => message("runs.already_running"),
};

export interface StartedAnswer {
  error: boolean;
  status: "running" | "already_running";
  run_id: number | null;
  message: string;
  run: RunView | null;
}

/**
 * Starts a run for a request and answers at once: 202 with the run, or 409
 * with the run already going (its id, so the page can follow it).
 */
export async function startRunAnswer(definition: RunDefinition, request: Request, t: Translate): Promise<Response> {
  const language = localeFromUrl(request.url);
  const answer = await startRun(definition, t, language);
  if (answer.started) {
    const body: StartedAnswer = { error: false, status: "running", run_id: answer.run.id, message: t("runs.started"), run: answer.run };
    return Response.json(body, { status: 202 });
  }
  const body: StartedAnswer = {
    error: true,
    status: "already_running",
    run_id: answer.run?.id ?? null,
    message: renderMessage(t, language, ALREADY_RUNNING[definition.kind](definition)),
    run: answer.run,
  };
  return Response.json(body, { status: 409 });
}

export type { RunOutcome };
