// The browser half of every list screen: the list state lives in the page URL
// (replaced in place, without the router: ./list-url.ts), each change of state loads the /api twin with
// retries (./fetch-with-retry.ts), a navigation to the same screen with
// another URL (a menu link, back/forward) starts over from that URL, and a
// failed load goes back to page 1 (spec 000 §4). DataGrid and the Advanced
// Order Summary both run on it.
import { useLocation, useSearchParams } from "@remix-run/react";
import { startTransition, useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from "react";
import { fetchJsonWithRetry, LoadError } from "./fetch-with-retry";
import { replaceListSearch } from "./list-url";

/** Thrown by a list's `parse` when the answer is JSON but not the list's shape. */
export class AnswerShapeError extends Error {}

export const TEXT_FILTER_DEBOUNCE_MS = 500;

/** Calls `onSettle` with `value` once it has not changed for `delayMs` (not for the first value). */
export function useDebounced<T>(value: T, delayMs: number, onSettle: (value: T) => void) {
  const settle = useRef(onSettle);
  settle.current = onSettle;
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const timer = setTimeout(() => settle.current(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
}

export interface ListLoaderOptions<S, A> {
  /** The state the page was rendered with (from the loader). */
  initialState: S;
  initialAnswer: A;
  /** The loader could not answer the URL's request. */
  initialFailed: boolean;
  /** The state a URL describes. */
  fromSearch: (search: URLSearchParams) => S;
  /** The URL search for a state, keeping parameters that are not the list's (locale, host, shop…). */
  toSearch: (state: S, current: URLSearchParams) => URLSearchParams;
  /** The /api URL that answers a state. */
  apiUrl: (state: S) => string;
  /** The answer as the screen keeps it. */
  parse?: (json: unknown) => A;
  /** The same state on page 1. */
  firstPage: (state: S) => S;
  /** The URL changed from outside and replaced the state (inputs shown should follow). */
  onNavigate?: (state: S) => void;
  onLoaded?: (answer: A) => void;
  /** "parse": an answer came but could not be read (not JSON, or not the list's shape); "fetch": no answer. */
  onFailed?: (reason: "fetch" | "parse") => void;
}

export interface ListLoader<S, A> {
  state: S;
  setState: Dispatch<SetStateAction<S>>;
  /** The same, rendered as a transition (a sort, a page). */
  setStateInTransition: Dispatch<SetStateAction<S>>;
  /** The last answer loaded (still the previous one while `failed`). */
  answer: A;
  failed: boolean;
  loading: boolean;
  /** Loads the current state again. */
  reload: () => void;
}

export function useListLoader<S, A>(options: ListLoaderOptions<S, A>): ListLoader<S, A> {
  const latest = useRef(options);
  latest.current = options;
  const [searchParams] = useSearchParams();
  const { key: navigation } = useLocation();
  const [state, setState] = useState<S>(options.initialState);
  const [answer, setAnswer] = useState<A>(options.initialAnswer);
  const [failed, setFailed] = useState(options.initialFailed);
  const [loading, setLoading] = useState(false);
  const [generation, setGeneration] = useState(0);

  // A navigation to this screen with another URL starts over from that URL;
  // the screen's own URL updates do not. The router does not see those (D247):
  // a navigation to the URL it last knew is a navigation too, hence its key.
  const ownSearch = useRef(new URLSearchParams(typeof window === "undefined" ? searchParams : window.location.search).toString());
  // The state a navigation asked for, until it is the state: a reload in the
  // same moment (a screen's action) must not load the old state and write its
  // filters back into the URL it just left.
  const navigatedTo = useRef<S | null>(null);
  useEffect(() => {
    const search = searchParams.toString();
    if (search === ownSearch.current) return;
    ownSearch.current = search;
    const next = latest.current.fromSearch(searchParams);
    latest.current.onNavigate?.(next);
    navigatedTo.current = next;
    setState(next);
  }, [searchParams, navigation]);

  // Load whenever the state changes (the first state came with the page).
  const loadedKey = useRef(JSON.stringify(options.initialState));
  const loadedGeneration = useRef(0);
  useEffect(() => {
    if (navigatedTo.current !== null && state !== navigatedTo.current) return;
    // A navigation's state came from the URL: the URL stays as it was asked for.
    const fromNavigation = navigatedTo.current !== null;
    navigatedTo.current = null;
    const key = JSON.stringify(state);
    if (key === loadedKey.current && generation === loadedGeneration.current) return;
    loadedKey.current = key;
    loadedGeneration.current = generation;
    const { toSearch, apiUrl, parse, firstPage } = latest.current;
    const onScreen = new URLSearchParams(window.location.search);
    const nextSearch = toSearch(state, onScreen);
    // The URL moved under us (a navigation not seen yet): leave it to that navigation.
    const urlIsOurs = onScreen.toString() === ownSearch.current;
    if (!fromNavigation && urlIsOurs && nextSearch.toString() !== onScreen.toString()) {
      ownSearch.current = nextSearch.toString();
      replaceListSearch(nextSearch);
    }
    const controller = new AbortController();
    setLoading(true);
    fetchJsonWithRetry<unknown>(apiUrl(state), { signal: controller.signal })
      .then((json) => {
        const loaded = parse ? parse(json) : (json as A);
        setAnswer(loaded);
        setFailed(false);
        latest.current.onLoaded?.(loaded);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const unreadable = error instanceof AnswerShapeError || (error instanceof LoadError && error.unreadable);
        // spec 000 §4: on a load error the page resets to 1, total to 0, the list to empty.
        const onFirst = firstPage(state);
        loadedKey.current = JSON.stringify(onFirst);
        setState(onFirst);
        setFailed(true);
        latest.current.onFailed?.(unreadable ? "parse" : "fetch");
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [state, generation]);

  const reload = useCallback(() => startTransition(() => setGeneration((value) => value + 1)), []);
  // A sort or a page renders as a transition: the click is answered at once (the pressed button, the
  // loading bar), the rows follow without blocking input. Not a filter's choice: its control shows the
  // state, and a controlled input must show the new value in the same event.
  const setStateInTransition = useCallback<Dispatch<SetStateAction<S>>>((next) => startTransition(() => setState(next)), []);
  return { state, setState, setStateInTransition, answer, failed, loading, reload };
}

/** IndexTable's pagination for a list: Previous/Next by one page, and the footer label. */
export function listPagination<S extends { page: number }>(
  setState: Dispatch<SetStateAction<S>>,
  shown: { currentPage: number; lastPage: number; label: string },
) {
  return {
    hasPrevious: shown.currentPage > 1,
    hasNext: shown.currentPage < shown.lastPage,
    onPrevious: () => setState((current) => ({ ...current, page: Math.max(1, current.page - 1) })),
    onNext: () => setState((current) => ({ ...current, page: current.page + 1 })),
    label: shown.label,
  };
}
