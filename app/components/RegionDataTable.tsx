// Polaris's DataTable whose sideways scroll container is reachable by keyboard (WCAG 2.1.1,
// axe's scrollable-region-focusable, docs/decisions.md D112): while the table is wider than
// its card, the container is a tab stop, a region named by `label`, so arrow keys scroll it.
// DataTable takes no props for that element, so they are set on it after each render.
import { DataTable, type DataTableProps } from "@shopify/polaris";
import { useEffect, useRef } from "react";

export function RegionDataTable({ label, ...props }: DataTableProps & { label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const container = ref.current?.querySelector<HTMLElement>(".Polaris-DataTable__ScrollContainer");
    if (!container) return;
    const apply = () => {
      if (container.scrollWidth > container.clientWidth) {
        container.tabIndex = 0;
        container.setAttribute("role", "region");
        container.setAttribute("aria-label", label);
      } else {
        container.removeAttribute("tabindex");
        container.removeAttribute("role");
        container.removeAttribute("aria-label");
      }
    };
    apply();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(apply);
    observer.observe(container);
    return () => observer.disconnect();
  });
  return (
    <div ref={ref}>
      <DataTable {...props} />
    </div>
  );
}
