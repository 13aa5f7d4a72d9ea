// What the work running now is about, for its log lines (D86): the request
// (its id, and the shop once authentication knows it) or the feed run (its
// feed and run id). Kept in an AsyncLocalStorage, so code anywhere below a
// request or a run logs with them without being handed a logger; the root
// logger mixes the store into every line.
//
// On globalThis, like the database role (app/db.server.ts): the launcher and
// the Remix build each load this module, and both must see one context.
import { AsyncLocalStorage } from "node:async_hooks";

export interface LogContext {
  request_id?: string;
  shop?: string;
  feed?: string;
  run_id?: number;
}

declare global {
  var __logContext: AsyncLocalStorage<LogContext> | undefined;
}

const store = (globalThis.__logContext ??= new AsyncLocalStorage<LogContext>());

/** The context of the work running now (a copy), or an empty one outside any. */
export const currentLogContext = (): LogContext => ({ ...store.getStore() });

/**
 * Runs `work` (and everything it starts) in `context`, which also takes what
 * the current context has and it does not (a run started by a request keeps
 * the request's id). The object itself is the store: its owner may read what
 * was added to it later.
 */
export function withLogContext<T>(context: LogContext, work: () => T): T {
  const outer = store.getStore();
  if (outer) for (const [key, value] of Object.entries(outer)) if (!(key in context)) Object.assign(context, { [key]: value });
  return store.run(context, work);
}

/**
 * Adds to the context of the work running now (the shop once the request is
 * authenticated, the run id once the run's log exists). The request's own
 * line reads it at its end, so it is changed in place. No-op outside any.
 */
export function addToLogContext(context: LogContext): void {
  const current = store.getStore();
  if (current) Object.assign(current, context);
}
