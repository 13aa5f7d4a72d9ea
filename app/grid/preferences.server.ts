// Each staff member's columns (D268): the columns a grid hides for them, kept
// in staff_grid_preference under the staff member's name (staffName) and the
// grid's id. The page's layout loader reads them all with the first page, so a
// grid never shows every column first; the column chooser writes them through
// PUT /api/grid_preferences/{grid}.
import { z } from "zod";
import prisma from "~/db.server";
import { message } from "~/i18n/messages";
import { NotFoundError, ValidationError, parseInput } from "~/lib/validation.server";

/** Grid id → the columns it hides for one staff member. */
export type GridPreferences = Record<string, string[]>;

export async function gridPreferencesOf(staff: string): Promise<GridPreferences> {
  const rows = await prisma.staffGridPreference.findMany({ where: { staff }, select: { grid_id: true, hidden_columns: true } });
  return Object.fromEntries(rows.map((row) => [row.grid_id, row.hidden_columns]));
}

const preferenceForm = z.object({ hidden_columns: z.array(z.string().trim().min(1).max(100)).max(100) });

/** The columns of a grid the chooser may hide; null for a grid that does not exist. */
export type GridColumnsOf = (gridId: string) => readonly string[] | null;

function knownColumns(gridId: string, columnsOf: GridColumnsOf): readonly string[] {
  const columns = /^[a-z0-9_]{1,60}$/.test(gridId) ? columnsOf(gridId) : null;
  if (!columns) throw new NotFoundError(message("grid.errors.unknown_grid", { grid: gridId.slice(0, 60) }));
  return columns;
}

export async function gridPreferenceOf(staff: string, gridId: string, columnsOf: GridColumnsOf) {
  const columns = knownColumns(gridId, columnsOf);
  const row = await prisma.staffGridPreference.findUnique({ where: { staff_grid_id: { staff, grid_id: gridId } } });
  return { grid: gridId, hidden_columns: (row?.hidden_columns ?? []).filter((key) => columns.includes(key)) };
}

/** Saves the columns `staff` hides in `gridId`: known column keys only, and one column at least left shown (422 otherwise). */
export async function saveGridPreference(staff: string, gridId: string, body: unknown, columnsOf: GridColumnsOf) {
  const columns = knownColumns(gridId, columnsOf);
  const { hidden_columns: asked } = parseInput(preferenceForm, body);
  const unknown = asked.filter((key) => !columns.includes(key));
  if (unknown.length) {
    throw new ValidationError({
      hidden_columns: unknown.map((value) => message("errors.validation.option", { value, allowed: columns.join(", ") })),
    });
  }
  const hidden = [...new Set(asked)];
  if (hidden.length >= columns.length) throw new ValidationError({ hidden_columns: [message("grid.errors.all_hidden")] });
  await prisma.staffGridPreference.upsert({
    where: { staff_grid_id: { staff, grid_id: gridId } },
    create: { staff, grid_id: gridId, hidden_columns: hidden },
    update: { hidden_columns: hidden },
  });
  return { error: false, grid: gridId, hidden_columns: hidden };
}
