// Saved-view tab names (spec 000 §5), checked the same way in the browser and
// on the server: required; not equal to another view's name ignoring case and
// surrounding spaces ("All" included); at most 40 characters; a rename must
// change the name.

export const VIEW_NAME_MAX = 40;

/** The locked first tab; no saved view may take its name. */
export const ALL_VIEW_NAME = "All";

/** What names are compared by (and what is unique per shop and grid): trimmed, lower-cased. */
export const viewNameKey = (name: string) => name.trim().toLowerCase();

export type ViewNameProblem = "required" | "too_long" | "taken" | "unchanged";

export interface ViewNameContext {
  /** Names of the other views of the same grid and shop. */
  others: readonly string[];
  /** Names no view may take besides the others (the All tab, as shown). */
  reserved?: readonly string[];
  /** The view's name today, when renaming. */
  current?: string;
}

export function viewNameProblem(name: string, context: ViewNameContext): ViewNameProblem | null {
  const trimmed = name.trim();
  if (!trimmed) return "required";
  if (trimmed.length > VIEW_NAME_MAX) return "too_long";
  if (context.current !== undefined && trimmed === context.current.trim()) return "unchanged";
  const key = viewNameKey(trimmed);
  const taken = [ALL_VIEW_NAME, ...(context.reserved ?? []), ...context.others].some((other) => viewNameKey(other) === key);
  return taken ? "taken" : null;
}

/** Translation key of each problem's message (`orders.views.errors.*`). */
export const viewNameMessageKey = (problem: ViewNameProblem) => `orders.views.errors.${problem}`;
