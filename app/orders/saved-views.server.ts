// Saved views of the Advanced Order Summary: named sets of filters, per shop,
// shown as IndexFilters tabs after the locked All tab. GET/POST /api/saved_views
// and /api/saved_views/{id} answer here. Names follow spec 000 §5
// (./saved-view-names.ts); filters are what GET /api/advancedordergrid accepts.
import { z } from "zod";
import prisma from "~/db.server";
import { Prisma } from "~/db/generated/client";
import { message, type CodedMessage } from "~/i18n/messages";
import { NotFoundError, refuse, ValidationError, type FieldProblems } from "~/lib/validation.server";
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

function gridOf(raw: string | null | undefined): string {
  const grid = raw?.trim() || ORDER_GRID;
  if (grid !== ORDER_GRID) throw new ValidationError({ grid: [message("errors.validation.option", { value: grid, allowed: ORDER_GRID })] });
  return grid;
}

/** Checks a view's filters as the grid would read them, and keeps them in one shape. */
function filtersFrom(raw: unknown): SavedViewFilters {
  if (raw === undefined || raw === null || raw === "") return {};
  let value = raw;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      refuse("filters", message("orders.views.errors.filters"));
    }
  }
  const shape = z.record(z.string(), z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))]));
  const parsed = shape.safeParse(value);
  if (!parsed.success) refuse("filters", message("orders.views.errors.filters"));

  const filters: SavedViewFilters = {};
  const params = new URLSearchParams();
  for (const [key, entry] of Object.entries(parsed.data)) {
    if (!VIEW_KEYS.has(key)) refuse("filters", message("orders.views.errors.filter_key", { key }));
    const values = (Array.isArray(entry) ? entry : [entry]).map(String);
    // Blank values mean nothing, except Houser (the empty marketplace source).
    const kept = key === "marketplaceSource" ? values : values.filter((item) => item.trim() !== "");
    if (kept.length === 0) continue;
    filters[key] = SINGLE_KEYS.has(key) ? kept[0] : kept;
    for (const item of SINGLE_KEYS.has(key) ? kept.slice(0, 1) : kept) params.append(key, item);
  }
  try {
    parseOrderGridQuery(params);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const errors: FieldProblems = {};
    for (const [field, problems] of Object.entries(error.errors)) errors[`filters.${field}`] = problems;
    throw new ValidationError(errors, Object.values(error.errors)[0]?.[0]);
  }
  return filters;
}

const field = (body: unknown, key: string): unknown => (body && typeof body === "object" ? (body as Record<string, unknown>)[key] : undefined);
const nameOf = (value: unknown): string => (typeof value === "string" ? value : "");

/**
 * What a saved view's form sends: the grid (the order grid), a name, filters
 * as the grid reads them. Each problem is the answer's message (a 422 names the
 * rule broken), so the checks throw rather than collect.
 */
export const savedViewForm = z.unknown().transform((body) => ({
  grid: gridOf(typeof field(body, "grid") === "string" ? (field(body, "grid") as string) : null),
  name: nameOf(field(body, "name")),
  filters: filtersFrom(field(body, "filters")),
}));
export type SavedViewInput = z.infer<typeof savedViewForm>;

/** A duplicate's form: the new name. */
export const savedViewNameForm = z.unknown().transform((body) => ({ name: nameOf(field(body, "name")) }));

/** The names no view may take besides the others: the All tab as the reader sees it. */
export interface ViewNaming {
  allTab: string;
}

async function otherNames(shop: string, grid: string, exceptId?: number): Promise<string[]> {
  const views = await prisma.savedView.findMany({ where: { shop, grid, ...(exceptId ? { NOT: { id: exceptId } } : {}) }, select: { name: true } });
  return views.map((view) => view.name);
}

async function checkedName(name: string, shop: string, grid: string, naming: ViewNaming, rename?: { id: number; current: string }): Promise<string> {
  const problem = viewNameProblem(name, {
    others: await otherNames(shop, grid, rename?.id),
    reserved: [naming.allTab],
    current: rename?.current,
  });
  if (problem) refuse("name", message(viewNameMessageKey(problem), { name: name.trim(), max: 40 }));
  return name.trim();
}

/** A name taken by a request that came in at the same time: the unique index answers. */
async function uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      refuse("name", message("orders.views.errors.taken", { name }));
    }
    throw error;
  }
}

async function viewOf(shop: string, id: number) {
  const view = Number.isSafeInteger(id) && id > 0 ? await prisma.savedView.findFirst({ where: { id, shop } }) : null;
  if (!view) throw new NotFoundError(message("orders.views.errors.not_found", { id }));
  return view;
}

export async function listSavedViews(shop: string, rawGrid: string | null): Promise<{ data: SavedViewOut[] }> {
  const grid = gridOf(rawGrid);
  const views = await prisma.savedView.findMany({ where: { shop, grid }, orderBy: [{ position: "asc" }, { id: "asc" }] });
  return { data: views.map(out) };
}

export async function getSavedView(shop: string, id: number): Promise<{ data: SavedViewOut }> {
  return { data: out(await viewOf(shop, id)) };
}

export async function createSavedView(shop: string, input: SavedViewInput, naming: ViewNaming): Promise<{ data: SavedViewOut }> {
  const { grid, filters } = input;
  const name = await checkedName(input.name, shop, grid, naming);
  const last = await prisma.savedView.aggregate({ where: { shop, grid }, _max: { position: true } });
  const view = await uniqueName(name, () =>
    prisma.savedView.create({
      data: { shop, grid, name, name_key: viewNameKey(name), filters, position: (last._max.position ?? 0) + 1 },
    }),
  );
  return { data: out(view) };
}

/** What a change sends: a new name, new filters, or both (a field not sent stays). */
export const savedViewChangeForm = z.unknown().transform((body) => ({
  name: field(body, "name") === undefined ? undefined : nameOf(field(body, "name")),
  filters: field(body, "filters") === undefined ? undefined : filtersFrom(field(body, "filters")),
}));
export type SavedViewChange = z.infer<typeof savedViewChangeForm>;

/** Rename (`name`), replace the filters (`filters`), or both. */
export async function updateSavedView(shop: string, id: number, change: SavedViewChange, naming: ViewNaming): Promise<{ data: SavedViewOut }> {
  const view = await viewOf(shop, id);
  const data: Prisma.SavedViewUpdateInput = {};
  if (change.name !== undefined) {
    const name = await checkedName(change.name, shop, view.grid, naming, { id: view.id, current: view.name });
    data.name = name;
    data.name_key = viewNameKey(name);
  }
  if (change.filters !== undefined) data.filters = change.filters;
  if (Object.keys(data).length === 0) refuse("name", message("orders.views.errors.nothing"));
  const updated = await uniqueName(String(data.name ?? view.name), () => prisma.savedView.update({ where: { id: view.id }, data }));
  return { data: out(updated) };
}

/** A copy under a new name, placed last. */
export async function duplicateSavedView(shop: string, id: number, name: string, naming: ViewNaming): Promise<{ data: SavedViewOut }> {
  const view = await viewOf(shop, id);
  return createSavedView(shop, { grid: view.grid, name, filters: (view.filters ?? {}) as SavedViewFilters }, naming);
}

export async function deleteSavedView(shop: string, id: number): Promise<{ error: false; message: CodedMessage }> {
  const view = await viewOf(shop, id);
  await prisma.savedView.delete({ where: { id: view.id } });
  return { error: false, message: message("orders.views.deleted", { name: view.name }) };
}
