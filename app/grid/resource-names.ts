// The names a grid gives its rows ("Loading logs…", read out by screen readers),
// in the reader's language: grid.resources.<name> in public/locales.
import type { TFunction } from "i18next";

export type GridResource =
  | "log"
  | "request"
  | "response"
  | "order"
  | "mapping"
  | "special_order"
  | "vendor"
  | "assignment"
  | "product"
  | "store"
  | "error"
  | "operation"
  | "attention_item";

export function resourceNames(t: TFunction, resource: GridResource): { singular: string; plural: string } {
  return { singular: t(`grid.resources.${resource}.singular`), plural: t(`grid.resources.${resource}.plural`) };
}
