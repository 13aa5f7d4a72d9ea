// A source as Manual Assignment and Reassign offer it: its name, what it has of
// the SKU when known, and a dropshipper's 30-day on-time rate (D244), so staff
// choosing between vendors see which one ships on time.
import type { TFunction } from "i18next";

export function sourceLabel(t: TFunction, source: { name: string; on_time_30?: number | null }, qty: number | undefined): string {
  const rate = source.on_time_30 ?? null;
  if (qty === undefined)
    return rate === null ? t("sales.manual.store_option", { name: source.name }) : t("sales.manual.store_option_rate", { name: source.name, rate });
  return rate === null
    ? t("sales.manual.store_option_qty", { name: source.name, qty })
    : t("sales.manual.store_option_qty_rate", { name: source.name, qty, rate });
}
