// A list screen's state lives in the page URL, written in place with
// history.replaceState and not through the router: a sort, a page or a filter
// then renders the grid alone, not every route and link around it (D247).
// The router's own idea of the URL can therefore be behind the address bar;
// what reads the list's state reads the address bar (currentSearch,
// useListSearch), and a screen that reloads its loader navigates to the
// address bar's URL (useNavigateToListUrl).
import { useLocation, useNavigate } from "@remix-run/react";
import { useCallback, useMemo, useSyncExternalStore } from "react";

const LIST_URL_EVENT = "app:list-url";

/** Writes the list's search into the address bar, keeping the router's history entry and state. */
export function replaceListSearch(search: URLSearchParams) {
  const { pathname, hash } = window.location;
  const query = search.toString();
  window.history.replaceState(window.history.state, "", `${pathname}${query ? `?${query}` : ""}${hash}`);
  window.dispatchEvent(new Event(LIST_URL_EVENT));
}

/** The address bar's search in the browser; `fallback` (the router's) while rendering on the server. */
export function currentSearch(fallback: URLSearchParams | string = ""): URLSearchParams {
  return new URLSearchParams(typeof window === "undefined" ? fallback : window.location.search);
}

function subscribe(onChange: () => void) {
  window.addEventListener(LIST_URL_EVENT, onChange);
  window.addEventListener("popstate", onChange);
  return () => {
    window.removeEventListener(LIST_URL_EVENT, onChange);
    window.removeEventListener("popstate", onChange);
  };
}

/** The address bar's search, following the lists' own changes as well as navigations (e.g. a title that names a filter). */
export function useListSearch(): URLSearchParams {
  const location = useLocation();
  const search = useSyncExternalStore(
    subscribe,
    () => window.location.search,
    () => location.search,
  );
  // A navigation changes the router's location first; reading the address bar again then is enough.
  return useMemo(() => new URLSearchParams(search), [search]);
}

/**
 * Navigates to the address bar's URL, replacing the entry: the router catches up with the list's state,
 * and a route that reloads on it (reloadableGridShouldRevalidate) runs its loader for that state.
 */
export function useNavigateToListUrl() {
  const navigate = useNavigate();
  return useCallback(() => {
    const { pathname, search, hash } = window.location;
    navigate(`${pathname}${search}${hash}`, { replace: true, preventScrollReset: true });
  }, [navigate]);
}
