// The Products area (spec 001 §2, §3, §7): the grids' answers and the
// category-tag mappings' load, save and delete. The page loaders and their
// /api twins call these.
import { z } from "zod";
import prisma from "~/db.server";
import { Prisma } from "~/db/generated/client";
import { runGrid } from "~/grid/grid.server";
import { message } from "~/i18n/messages";
import { coded, NotFoundError, ValidationError } from "~/lib/validation.server";
import { categoryTagsMappingGrid, productApiErrorGrid, productApiOperationGrid, productGrid } from "./grids.server";

export const listProducts = (params: URLSearchParams) => runGrid(productGrid, params);
export const listProductApiErrors = (params: URLSearchParams) => runGrid(productApiErrorGrid, params);
export const listProductApiOperations = (params: URLSearchParams) => runGrid(productApiOperationGrid, params);
export const listCategoryTagsMappings = (params: URLSearchParams) => runGrid(categoryTagsMappingGrid, params);

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

const mappingLabel = (field: string) => message(`products.mappings.fields.${field}`);
const mappingRequired = (field: string) => coded("products.errors.required", { field: mappingLabel(field) });

/** The category-tag mapping form (spec 001 §5): both fields required. */
export const mappingForm = z.object({
  as400_category_id: z
    .string({ message: mappingRequired("as400_category_id") })
    .trim()
    .min(1, mappingRequired("as400_category_id"))
    .max(CATEGORY_ID_MAX, coded("products.errors.too_long", { field: mappingLabel("as400_category_id"), max: CATEGORY_ID_MAX })),
  shopify_tags: z
    .string({ message: mappingRequired("shopify_tags") })
    .transform(tagsOf)
    .refine((tags) => tags.length > 0, mappingRequired("shopify_tags"))
    .refine((tags) => tags.every((tag) => tag.length <= TAG_MAX), coded("products.errors.tag_too_long", { max: TAG_MAX }))
    .refine((tags) => tags.length <= TAGS_MAX, coded("products.errors.too_many_tags", { max: TAGS_MAX }))
    .transform((tags) => tags.join(", ")),
});
export type MappingInput = z.infer<typeof mappingForm>;

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
/** The mapping a save names: null for a new one; an unknown id is a 404 (before the form is read). */
export async function mappingToSave(idValue: unknown): Promise<number | null> {
  const id = mappingId(idValue);
  if (Number.isNaN(id)) throw new NotFoundError(`Mapping ${String(idValue)} does not exist`);
  if (id) await getCategoryTagsMapping(id);
  return id;
}

export async function saveCategoryTagsMapping(id: number | null, data: MappingInput) {
  const duplicate = () => new ValidationError({ as400_category_id: [message("products.errors.duplicate", { value: data.as400_category_id })] });
  const taken = await prisma.categoryTagsMapping.findUnique({ where: { as400_category_id: data.as400_category_id }, select: { id: true } });
  if (taken && taken.id !== id) throw duplicate();
  try {
    const mapping = id ? await prisma.categoryTagsMapping.update({ where: { id }, data }) : await prisma.categoryTagsMapping.create({ data });
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
