// Follows a page's background run (D95): start() posts the action and takes
// the run from the answer at once; while the run goes on, GET /api/run/{id}
// is read once a second (plain fetch: inside the admin App Bridge adds the
// session token to it, as to every /api call). The run the page loader found
// (the current or latest of its kind) is followed the same way, so a reload
// or another instance shows the same run. A run seen ending here is `ended`,
// which BackgroundRun announces with a toast.
import { useLocation } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { withLocale } from "~/lib/format";
import type { RunView } from "./types";

export const POLL_EVERY_MS = 1000;

export interface RunNotice {
  tone: "info" | "critical";
  title: string;
  messages: string[];
}

export interface StartRequest {
  url: string;
  body?: FormData;
  /** The failure text of this start, when it differs from the page's (Run Feed names its feed). */
  errorText?: string;
}

export function useBackgroundRun(initial: RunView | null, texts: { error: string }, options: { onEnded?: (run: RunView) => void } = {}) {
  const location = useLocation();
  const [run, setRun] = useState<RunView | null>(initial);
  const [notice, setNotice] = useState<RunNotice | null>(null);
  const [starting, setStarting] = useState(false);
  const [followFailed, setFollowFailed] = useState(false);
  // A run that ended while this page watched it: BackgroundRun announces it with a toast.
  const [ended, setEnded] = useState<RunView | null>(null);
  const seenRunning = useRef(new Set<number>());
  const onEnded = useRef(options.onEnded);
  onEnded.current = options.onEnded;

  // A new loader answer (navigation, revalidation) brings the page's run.
  useEffect(() => setRun(initial), [initial]);

  const announce = useCallback((run: RunView) => {
    if (!seenRunning.current.has(run.id)) return;
    seenRunning.current.delete(run.id);
    setEnded(run);
    onEnded.current?.(run);
  }, []);

  const runId = run?.id;
  const running = run?.status === "running";
  useEffect(() => {
    if (!running || runId === undefined) return;
    seenRunning.current.add(runId);
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const follow = async () => {
      try {
        const response = await fetch(withLocale(`/api/run/${runId}`, location.search), { headers: { accept: "application/json" } });
        if (!response.ok) throw new Error(`status ${response.status}`);
        const next = (await response.json()) as RunView;
        if (stopped) return;
        setFollowFailed(false);
        setRun(next);
        if (next.status !== "running") {
          announce(next);
          return;
        }
      } catch {
        if (stopped) return;
        setFollowFailed(true); // shown, and tried again: the run goes on whatever this page sees
      }
      timer = setTimeout(() => void follow(), POLL_EVERY_MS);
    };
    timer = setTimeout(() => void follow(), POLL_EVERY_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [runId, running, location.search, announce]);

  const start = useCallback(
    async (request: StartRequest) => {
      const failed = request.errorText ?? texts.error;
      setStarting(true);
      setNotice(null);
      try {
        const response = await fetch(withLocale(request.url, location.search), { method: "POST", headers: { accept: "application/json" }, body: request.body });
        const body = (await response.json().catch(() => null)) as { run?: RunView | null; message?: string; errors?: Record<string, string[]> } | null;
        if (body?.run) setRun(body.run);
        if (response.status === 202) return;
        if (response.status === 409) {
          // Already running: the spec's or our text, and the run that goes on.
          setNotice({ tone: "info", title: body?.message || failed, messages: [] });
        } else if (response.status === 422) {
          setNotice({
            tone: "critical",
            title: failed,
            messages: Object.values(body?.errors ?? {})
              .map((messages) => messages[0])
              .filter(Boolean),
          });
        } else if (response.ok && body?.message) {
          // An answer without a run (a feed with no job): its words, as a failure.
          setNotice({ tone: "critical", title: body.message, messages: [] });
        } else {
          setNotice({ tone: "critical", title: failed, messages: [] });
        }
      } catch {
        setNotice({ tone: "critical", title: failed, messages: [] });
      } finally {
        setStarting(false);
      }
    },
    [location.search, texts.error],
  );

  return {
    run,
    running: running || starting,
    starting,
    start,
    notice,
    dismissNotice: () => setNotice(null),
    dismissRun: () => setRun(null),
    followFailed,
    ended,
  };
}
