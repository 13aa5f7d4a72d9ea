// A grid's own keys (D274): "/" puts the cursor in the grid's search, as in
// Shopify's admin. Not while a field, a select or an editable area has the
// keyboard (the key is typed there), nor with a modifier, nor in a dialog.
import { useEffect, useRef } from "react";

const TYPING = "input, textarea, select, [contenteditable=''], [contenteditable='true']";

/** Whether a key pressed now belongs to what has the focus (a field being typed in). */
export function typingIn(target: EventTarget | null): boolean {
  return target instanceof Element && Boolean(target.closest(TYPING));
}

/** The ref for the grid's root element. */
export function useGridKeys() {
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
      if (typingIn(event.target) || document.querySelector("[role='dialog']")) return;
      // The first field of the grid's filter bar is its search (Polaris Filters).
      const search = root.current?.querySelector<HTMLInputElement>("input");
      if (!search) return;
      event.preventDefault();
      search.focus();
      search.select();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return root;
}
