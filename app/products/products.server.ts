// The Products area (spec 001 §2, §3, §7): the grids' answers and the
// category-tag mappings' load, save and delete. The page loaders and their
// /api twins call these.
import { z } from "zod";
import prisma from "~/db.server";
import { Prisma } from "~/db/generated/client";
import { runGrid } from "~/grid/grid.server";
import type { Translate } from "~/i18n/i18n.server";
import { problemsFromZod, NotFoundError, ValidationError } from "~/lib/validation.server";
import { categoryTagsMappingGrid, productApiErrorGrid, productApiOperationGrid, productGrid } from "./grids.server";

export const listProducts = (params: URLSearchParams, t: Translate) => runGrid(productGrid, params, t);
export const listProductApiErrors = (params: URLSearchParams, t: Translate) => runGrid(productApiErrorGrid, params, t);
export const listProductApiOperations = (params: URLSearchParams, t: Translate) => runGrid(productApiOperationGrid, params, t);
export const listCategoryTagsMappings = (params: URLSearchParams, t: Translate) => runGrid(categoryTagsMappingGrid, params, t);

// --- the mapping form ---------------------------------------------------------------

export const CATEGORY_ID_MAX = 50;
/** Shopify's limits: a tag has at most 255 characters, a product at most 250 tags. */
export const TAG_MAX = 255;
export const TAGS_MAX = 250;

export interface CategoryTagsMappingApi {
  id: number;
  as400_category_id: string;
  shopify_tags: string;
  created_at: Date;
  updated_at: Date;
}

/** The tags of a mapping's text: comma-separated, trimmed, blanks dropped, one of each ignoring case (as Shopify keeps them). */
export function tagsOf(text: string | null | undefined): string[] {
  const byKey = new Map<string, string>();
  for (const part of (text ?? "").split(",")) {
    const tag = part.trim();
    if (tag && !byKey.has(tag.toLowerCase())) byKey.set(tag.toLowerCase(), tag);
  }
  return [...byKey.values()];
}

function mappingSchema(t: Translate) {
  const label = (field: string) => t(`products.mappings.fields.${field}`);
  const required = (field: string) => t("products.errors.required", { field: label(field) });
  return z.object({
    as400_category_id: z
      .string({ message: required("as400_category_id") })
      .trim()
      .min(1, required("as400_category_id"))
      .max(CATEGORY_ID_MAX, t("products.errors.too_long", { field: label("as400_category_id"), max: CATEGORY_ID_MAX })),
    shopify_tags: z
      .string({ message: required("shopify_tags") })
      .transform(tagsOf)
      .refine((tags) => tags.length > 0, required("shopify_tags"))
      .refine((tags) => tags.every((tag) => tag.length <= TAG_MAX), t("products.errors.tag_too_long", { max: TAG_MAX }))
      .refine((tags) => tags.length <= TAGS_MAX, t("products.errors.too_many_tags", { max: TAGS_MAX }))
      .transform((tags) => tags.join(", ")),
  });
}

function mappingId(value: unknown): number | null {
  if (value === undefined || value === null || value === "") return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : NaN;
}

export async function getCategoryTagsMapping(idValue: unknown): Promise<CategoryTagsMappingApi> {
  const id = mappingId(idValue);
  const mapping = id ? await prisma.categoryTagsMapping.findUnique({ where: { id } }) : null;
  if (!mapping) throw new NotFoundError(`Mapping ${String(idValue ?? "")} does not exist`);
  return mapping;
}

/** Creates a mapping, or updates the one named by `id`; both fields are required (spec 001 §5). */
export async function saveCategoryTagsMapping(body: Record<string, unknown>, t: Translate) {
  const id = mappingId(body.id);
  if (Number.isNaN(id)) throw new NotFoundError(`Mapping ${String(body.id)} does not exist`);
  if (id) await getCategoryTagsMapping(id);
  const parsed = mappingSchema(t).safeParse({ as400_category_id: body.as400_category_id, shopify_tags: body.shopify_tags });
  if (!parsed.success) throw new ValidationError(problemsFromZod(parsed.error.issues), t("errors.unprocessable"));
  const duplicate = () =>
    new ValidationError({ as400_category_id: [t("products.errors.duplicate", { value: parsed.data.as400_category_id })] }, t("errors.unprocessable"));
  const taken = await prisma.categoryTagsMapping.findUnique({ where: { as400_category_id: parsed.data.as400_category_id }, select: { id: true } });
  if (taken && taken.id !== id) throw duplicate();
  try {
    const mapping = id
      ? await prisma.categoryTagsMapping.update({ where: { id }, data: parsed.data })
      : await prisma.categoryTagsMapping.create({ data: parsed.data });
    return { error: false, message: null, data: mapping };
  } catch (error) {
    // Two saves of the same category at once: the unique index refuses the second.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") throw duplicate();
    throw error;
  }
}

/** Deletes a mapping. Tags it put on products stay there (tags are only ever added: D39). */
export async function deleteCategoryTagsMapping(idValue: unknown) {
  const mapping = await getCategoryTagsMapping(idValue);
  await prisma.categoryTagsMapping.delete({ where: { id: mapping.id } });
  return { error: false, message: null };
}
