// A container that scrolls sideways is reachable by keyboard (WCAG 2.1.1, axe's
// scrollable-region-focusable, docs/decisions.md D112): while its content is wider
// than it, it is a tab stop, a region named by `label`, so arrow keys scroll it.
import { useEffect } from "react";

/** Keeps `container()` a named, focusable region while it overflows; checked after each render and on resize. */
export function useScrollRegion(container: () => HTMLElement | null | undefined, label: string) {
  useEffect(() => {
    const element = container();
    if (!element) return;
    const apply = () => {
      if (element.scrollWidth > element.clientWidth) {
        element.tabIndex = 0;
        element.setAttribute("role", "region");
        element.setAttribute("aria-label", label);
      } else {
        element.removeAttribute("tabindex");
        element.removeAttribute("role");
        element.removeAttribute("aria-label");
      }
    };
    apply();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(apply);
    observer.observe(element);
    return () => observer.disconnect();
  });
}
