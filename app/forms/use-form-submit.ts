// Sends a form to its /api route (JSON or multipart, with `_method=PUT` when
// editing), shows the outcome in a FormBanner and redirects 1000 ms after a
// success when the form names where to go.
import { useNavigate, useLocation } from "@remix-run/react";
import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { withLocale } from "~/lib/format";
import { fieldErrorsOf, readSubmitResult, REDIRECT_AFTER_SUCCESS_MS, type SubmitOutcome, type SubmitTexts } from "./submit-result";

export interface SubmitRequest {
  url: string;
  method?: "POST" | "DELETE";
  /** A plain object is sent as JSON; FormData as multipart. */
  body?: Record<string, unknown> | FormData;
  /** Sends `_method=PUT` (the spec's method override for edits). */
  put?: boolean;
}

/** Where a success goes: a path, or one made from the answer (the vendor list following the saved connection's test). */
type RedirectTarget = string | ((body: unknown) => string);

export function useFormSubmit(texts: SubmitTexts, options: { redirectTo?: RedirectTarget } = {}) {
  const [outcome, setOutcome] = useState<SubmitOutcome | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const navigate = useNavigate();
  const location = useLocation();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const redirectTo = options.redirectTo;
  useEffect(() => () => clearTimeout(timer.current), []);

  const submit = useCallback(
    async (request: SubmitRequest): Promise<SubmitOutcome> => {
      // The button's spinner renders as a transition: the press is answered at once, not after the page
      // around the button has rendered again (a 60-field form at a modest laptop's speed).
      startTransition(() => setSubmitting(true));
      const init: RequestInit = { method: request.method ?? "POST", headers: { accept: "application/json" } };
      if (request.body instanceof FormData) {
        if (request.put) request.body.set("_method", "PUT");
        init.body = request.body;
      } else if (request.body) {
        init.body = JSON.stringify(request.put ? { ...request.body, _method: "PUT" } : request.body);
        (init.headers as Record<string, string>)["content-type"] = "application/json";
      }
      let result: SubmitOutcome;
      try {
        // The server writes its messages in the screen's language (D6).
        const response = await fetch(withLocale(request.url, location.search), init);
        result = readSubmitResult(response.status, await response.text(), texts);
      } catch {
        result = readSubmitResult(0, "", texts);
      }
      setOutcome(result);
      setSubmitting(false);
      if (result.ok && redirectTo) {
        const path = typeof redirectTo === "function" ? redirectTo(result.body) : redirectTo;
        const target = withLocale(path, location.search);
        timer.current = setTimeout(() => navigate(target), REDIRECT_AFTER_SUCCESS_MS);
      }
      return result;
    },
    [texts, redirectTo, navigate, location.search],
  );

  // Each field shows the first of its messages (`fieldErrors.name?.[0]`).
  const fieldErrors = useMemo(() => fieldErrorsOf(outcome), [outcome]);
  return { submit, submitting, outcome, fieldErrors, dismiss: () => setOutcome(null) };
}
