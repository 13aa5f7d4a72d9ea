// Saved views of the Advanced Order Summary: named sets of filters, per shop,
// shown as IndexFilters tabs after the locked All tab. GET/POST /api/saved_views
// and /api/saved_views/{id} answer here. Names follow spec 000 §5
// (./saved-view-names.ts); filters are what GET /api/advancedordergrid accepts.
import { z } from "zod";
import prisma from "~/db.server";
import { Prisma } from "~/db/generated/client";
import type { Translate } from "~/i18n/i18n.server";
import { NotFoundError, ValidationError, type FieldErrors } from "~/lib/validation.server";
import { ORDER_FILTER_KEYS, ORDER_GRID, type SavedView } from "./order-grid";
import { parseOrderGridQuery } from "./order-grid.server";
import { viewNameKey, viewNameMessageKey, viewNameProblem } from "./saved-view-names";

/** What a view keeps: filter parameters with their values, and optionally the search and sort. */
export type SavedViewFilters = SavedView["filters"];
type SavedViewOut = SavedView;

const VIEW_KEYS = new Set<string>([...ORDER_FILTER_KEYS, "queryValue", "sort", "sort_dir"]);
const SINGLE_KEYS = new Set(["queryValue", "sort", "sort_dir", "grandTotalFrom", "grandTotalTo"]);

const out = (view: { id: number; name: string; filters: unknown; position: number }): SavedViewOut => ({
  id: view.id,
  name: view.name,
  filters: (view.filters ?? {}) as SavedViewFilters,
  position: view.position,
});

function gridOf(raw: string | null | undefined, t: Translate): string {
  const grid = raw?.trim() || ORDER_GRID;
  if (grid !== ORDER_GRID) throw new ValidationError({ grid: [t("errors.validation.option", { value: grid, allowed: ORDER_GRID })] }, t("errors.unprocessable"));
  return grid;
}

function invalid(field: string, message: string, t: Translate): never {
  throw new ValidationError({ [field]: [message] }, message || t("errors.unprocessable"));
}

/** Checks a view's filters as the grid would read them, and keeps them in one shape. */
function filtersFrom(raw: unknown, t: Translate): SavedViewFilters {
  if (raw === undefined || raw === null || raw === "") return {};
  let value = raw;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      invalid("filters", t("orders.views.errors.filters"), t);
    }
  }
  const shape = z.record(z.string(), z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))]));
  const parsed = shape.safeParse(value);
  if (!parsed.success) invalid("filters", t("orders.views.errors.filters"), t);

  const filters: SavedViewFilters = {};
  const params = new URLSearchParams();
  for (const [key, entry] of Object.entries(parsed.data)) {
    if (!VIEW_KEYS.has(key)) invalid("filters", t("orders.views.errors.filter_key", { key }), t);
    const values = (Array.isArray(entry) ? entry : [entry]).map(String);
    // Blank values mean nothing, except Houser (the empty marketplace source).
    const kept = key === "marketplaceSource" ? values : values.filter((item) => item.trim() !== "");
    if (kept.length === 0) continue;
    filters[key] = SINGLE_KEYS.has(key) ? kept[0] : kept;
    for (const item of SINGLE_KEYS.has(key) ? kept.slice(0, 1) : kept) params.append(key, item);
  }
  try {
    parseOrderGridQuery(params, t);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const errors: FieldErrors = {};
    for (const [field, messages] of Object.entries(error.errors)) errors[`filters.${field}`] = messages;
    throw new ValidationError(errors, Object.values(error.errors)[0]?.[0] ?? t("errors.unprocessable"));
  }
  return filters;
}

async function otherNames(shop: string, grid: string, exceptId?: number): Promise<string[]> {
  const views = await prisma.savedView.findMany({ where: { shop, grid, ...(exceptId ? { NOT: { id: exceptId } } : {}) }, select: { name: true } });
  return views.map((view) => view.name);
}

async function checkedName(raw: unknown, shop: string, grid: string, t: Translate, rename?: { id: number; current: string }): Promise<string> {
  const name = typeof raw === "string" ? raw : "";
  const problem = viewNameProblem(name, {
    others: await otherNames(shop, grid, rename?.id),
    reserved: [t("orders.views.all")],
    current: rename?.current,
  });
  if (problem) invalid("name", t(viewNameMessageKey(problem), { name: name.trim(), max: 40 }), t);
  return name.trim();
}

/** A name taken by a request that came in at the same time: the unique index answers. */
async function uniqueName<T>(name: string, t: Translate, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      invalid("name", t("orders.views.errors.taken", { name }), t);
    }
    throw error;
  }
}

async function viewOf(shop: string, id: number, t: Translate) {
  const view = Number.isSafeInteger(id) && id > 0 ? await prisma.savedView.findFirst({ where: { id, shop } }) : null;
  if (!view) throw new NotFoundError(t("orders.views.errors.not_found", { id }));
  return view;
}

export async function listSavedViews(shop: string, rawGrid: string | null, t: Translate): Promise<{ data: SavedViewOut[] }> {
  const grid = gridOf(rawGrid, t);
  const views = await prisma.savedView.findMany({ where: { shop, grid }, orderBy: [{ position: "asc" }, { id: "asc" }] });
  return { data: views.map(out) };
}

export async function getSavedView(shop: string, id: number, t: Translate): Promise<{ data: SavedViewOut }> {
  return { data: out(await viewOf(shop, id, t)) };
}

export async function createSavedView(shop: string, body: Record<string, unknown>, t: Translate): Promise<{ data: SavedViewOut }> {
  const grid = gridOf(typeof body.grid === "string" ? body.grid : null, t);
  const name = await checkedName(body.name, shop, grid, t);
  const filters = filtersFrom(body.filters, t);
  const last = await prisma.savedView.aggregate({ where: { shop, grid }, _max: { position: true } });
  const view = await uniqueName(name, t, () =>
    prisma.savedView.create({
      data: { shop, grid, name, name_key: viewNameKey(name), filters, position: (last._max.position ?? 0) + 1 },
    }),
  );
  return { data: out(view) };
}

/** Rename (`name`), replace the filters (`filters`), or both. */
export async function updateSavedView(shop: string, id: number, body: Record<string, unknown>, t: Translate): Promise<{ data: SavedViewOut }> {
  const view = await viewOf(shop, id, t);
  const data: Prisma.SavedViewUpdateInput = {};
  if (body.name !== undefined) {
    const name = await checkedName(body.name, shop, view.grid, t, { id: view.id, current: view.name });
    data.name = name;
    data.name_key = viewNameKey(name);
  }
  if (body.filters !== undefined) data.filters = filtersFrom(body.filters, t);
  if (Object.keys(data).length === 0) invalid("name", t("orders.views.errors.nothing"), t);
  const updated = await uniqueName(String(data.name ?? view.name), t, () => prisma.savedView.update({ where: { id: view.id }, data }));
  return { data: out(updated) };
}

/** A copy under a new name, placed last. */
export async function duplicateSavedView(shop: string, id: number, body: Record<string, unknown>, t: Translate): Promise<{ data: SavedViewOut }> {
  const view = await viewOf(shop, id, t);
  return createSavedView(shop, { grid: view.grid, name: body.name, filters: view.filters }, t);
}

export async function deleteSavedView(shop: string, id: number, t: Translate): Promise<{ error: false; message: string }> {
  const view = await viewOf(shop, id, t);
  await prisma.savedView.delete({ where: { id: view.id } });
  return { error: false, message: t("orders.views.deleted", { name: view.name }) };
}
