// Polaris's DataTable whose sideways scroll container is reachable by keyboard (WCAG 2.1.1,
// axe's scrollable-region-focusable, docs/decisions.md D112): while the table is wider than
// its card, the container is a tab stop, a region named by `label`, so arrow keys scroll it.
// DataTable takes no props for that element, so they are set on it after each render.
import { DataTable, type DataTableProps } from "@shopify/polaris";
import { useRef } from "react";
import { useScrollRegion } from "./scroll-region";

export function RegionDataTable({ label, ...props }: DataTableProps & { label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useScrollRegion(() => ref.current?.querySelector<HTMLElement>(".Polaris-DataTable__ScrollContainer"), label);
  return (
    <div ref={ref}>
      <DataTable {...props} />
    </div>
  );
}
