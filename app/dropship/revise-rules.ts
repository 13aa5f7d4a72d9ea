// What Save does to a revised request or response (issue 32): the one rule
// revisions.server.ts applies and the revise pages state, so the sentence a
// page shows can never disagree with what the save does. Imports nothing of
// the server: the pages read it too.

/** Asked back from the vendor (D225): sending it again would undo the cancellation. */
export const REVISE_REFUSED_STATUSES = ["cancel_requested", "cancelled", "cancel_refused"] as const;
/** Sent or answered: a save makes it pending, so it is sent to the vendor again. */
export const RESENT_STATUSES = ["rejected", "backordered", "sent", "acknowledged"] as const;

export type RequestSaveEffect =
  /** Cannot be saved; `status` says why (cancel_ui.revise_refused.<status>). */
  | { kind: "refused"; status: string }
  /** Sent to the vendor again: the status goes from `from` to `to`. */
  | { kind: "resent"; from: string; to: "pending" }
  /** Still pending: sent to the vendor at the next run. */
  | { kind: "queued"; status: "pending" }
  /** Shipped, invoiced, completed…: saved, its status kept; only pending requests are sent, so it is not sent again. */
  | { kind: "kept"; status: string };

export function requestSaveEffect(status: string): RequestSaveEffect {
  if ((REVISE_REFUSED_STATUSES as readonly string[]).includes(status)) return { kind: "refused", status };
  if ((RESENT_STATUSES as readonly string[]).includes(status)) return { kind: "resent", from: status, to: "pending" };
  if (status === "pending") return { kind: "queued", status };
  return { kind: "kept", status };
}

/** The status a saved request gets (the save is refused before this for REVISE_REFUSED_STATUSES). */
export const statusAfterRequestSave = (status: string) => {
  const effect = requestSaveEffect(status);
  return effect.kind === "resent" ? effect.to : status;
};

/** A saved response is received again: processed (and fulfilled, for an 856) at the next run. */
export const RESPONSE_STATUS_AFTER_SAVE = "received";

export interface ResponseSaveEffect {
  from: string;
  to: typeof RESPONSE_STATUS_AFTER_SAVE;
}

export const responseSaveEffect = (status: string): ResponseSaveEffect => ({ from: status, to: RESPONSE_STATUS_AFTER_SAVE });

/**
 * The grids' Badge tones, shared with the revise pages. Waiting on us or the vendor: info; needs a look: attention or
 * critical; done: success; archived: no tone.
 */
export const REQUEST_STATUS_TONES = {
  pending: "attention",
  sent: "info",
  acknowledged: "info",
  backordered: "warning",
  rejected: "critical",
  cancel_requested: "attention",
  cancelled: null,
  cancel_refused: "critical",
  shipped: "info",
  invoiced: "info",
  completed: "success",
  archived: null,
} as const;

export const RESPONSE_STATUS_TONES = { received: "info", processed: "success", fulfilled: "success", failed: "critical" } as const;
