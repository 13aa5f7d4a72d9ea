// The Products area's server-defined grids (spec 001 §2, §9): products by sku
// ascending, API errors and operations newest first, mappings by AS400
// category ascending with an Edit link to the mapping form.
import prisma from "~/db.server";
import { defineGrid, gridSourceFrom, optionsFrom, type GridSource } from "~/grid/grid.server";
import type { GridRow } from "~/grid/types";
import { MAPPING_FORM_PATH } from "./paths";

export const PRODUCT_STATUSES = ["active", "draft", "archived"] as const;
export const OPERATION_STATUSES = ["success", "error"] as const;

/** Prices are Decimals: the answer carries them as text ("129.95"), like every amount the app sends. */
function withPlainNumbers(source: GridSource): GridSource {
  return {
    count: (args) => source.count(args),
    findMany: async (args) =>
      (await source.findMany(args)).map((row) => {
        const out: GridRow = { ...row };
        for (const [key, value] of Object.entries(out)) {
          if (value !== null && typeof value === "object" && !(value instanceof Date) && "toFixed" in value)
            out[key] = (value as { toFixed(d: number): string }).toFixed(2);
        }
        return out;
      }),
  };
}

export const productGrid = defineGrid({
  id: "product",
  rowKey: "id",
  defaultSort: { key: "sku", dir: "asc" },
  source: () => withPlainNumbers(gridSourceFrom(prisma.product)),
  columns: [
    { key: "id", label: "products.columns.id", dataType: "text", valueType: "int" },
    { key: "sku", label: "products.columns.sku", dataType: "text" },
    { key: "name", label: "products.columns.name", dataType: "text" },
    { key: "as400_category_id", label: "products.columns.as400_category_id", dataType: "text" },
    { key: "price", label: "products.columns.price", dataType: "textOnly", filter: "none", searchable: false },
    {
      key: "status",
      label: "products.columns.status",
      dataType: "select",
      options: optionsFrom(PRODUCT_STATUSES, "products.statuses"),
      tones: { active: "success", draft: "info", archived: null },
    },
    { key: "shopify_product_id", label: "products.columns.shopify_product_id", dataType: "text" },
    { key: "shopify_tags", label: "products.columns.shopify_tags", dataType: "text" },
    { key: "updated_at", label: "products.columns.updated_at", dataType: "datetime" },
  ],
});

export const productApiErrorGrid = defineGrid({
  id: "product_api_error",
  rowKey: "id",
  defaultSort: { key: "created_at", dir: "desc" },
  source: () => gridSourceFrom(prisma.productApiError),
  columns: [
    { key: "id", label: "products.columns.id", dataType: "text", valueType: "int" },
    { key: "created_at", label: "products.columns.created_at", dataType: "datetime", filter: "date_range" },
    { key: "operation", label: "products.columns.operation", dataType: "text" },
    { key: "sku", label: "products.columns.sku", dataType: "text" },
    { key: "message", label: "products.columns.message", dataType: "textOnly", filter: "text", sortable: false, searchable: true },
    { key: "payload", label: "products.columns.payload", dataType: "textOnly", filter: "none", sortable: false, searchable: false },
  ],
});

export const productApiOperationGrid = defineGrid({
  id: "product_api_operation",
  rowKey: "id",
  defaultSort: { key: "created_at", dir: "desc" },
  source: () => gridSourceFrom(prisma.productApiOperation),
  columns: [
    { key: "id", label: "products.columns.id", dataType: "text", valueType: "int" },
    { key: "created_at", label: "products.columns.created_at", dataType: "datetime", filter: "date_range" },
    { key: "operation", label: "products.columns.operation", dataType: "text" },
    {
      key: "status",
      label: "products.columns.status",
      dataType: "select",
      options: optionsFrom(OPERATION_STATUSES, "products.operation_statuses"),
      tones: { success: "success", error: "critical" },
    },
    { key: "sku", label: "products.columns.sku", dataType: "text" },
    { key: "request", label: "products.columns.request", dataType: "textOnly", filter: "none", sortable: false, searchable: false },
    { key: "response", label: "products.columns.response", dataType: "textOnly", filter: "none", sortable: false, searchable: false },
  ],
});

export const categoryTagsMappingGrid = defineGrid({
  id: "category_tags_mapping",
  rowKey: "id",
  defaultSort: { key: "as400_category_id", dir: "asc" },
  source: () => gridSourceFrom(prisma.categoryTagsMapping),
  columns: [
    { key: "id", label: "products.columns.id", dataType: "text", valueType: "int" },
    { key: "as400_category_id", label: "products.columns.as400_category_id", dataType: "text" },
    { key: "shopify_tags", label: "products.columns.shopify_tags", dataType: "text" },
    { key: "updated_at", label: "products.columns.updated_at", dataType: "datetime" },
    {
      key: "actions",
      label: "products.columns.actions",
      dataType: "links",
      field: null,
      links: [{ path: MAPPING_FORM_PATH, field: "id", field_request_name: "id", label: "products.mappings.edit", target: "_self" }],
    },
  ],
});
