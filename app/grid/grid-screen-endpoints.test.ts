// gridScreenData sends the browser to /api/<grid id> for a list screen's next
// pages (D143): every grid a screen's loader names must have that /api route.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const APP = path.resolve(import.meta.dirname, "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

describe("the list screens' /api twins", () => {
  it("exist for every grid a screen's loader reads with gridScreenData", () => {
    const gridIds = new Map<string, string>();
    for (const file of sourceFiles(APP)) {
      for (const match of readFileSync(file, "utf8").matchAll(/export const (\w+) = defineGrid\(\{\s*id: "([^"]+)"/g)) gridIds.set(match[1]!, match[2]!);
    }
    const routes = readdirSync(path.join(APP, "routes"));
    const used = routes.flatMap((file) =>
      [...readFileSync(path.join(APP, "routes", file), "utf8").matchAll(/gridScreenData\((\w+),/g)].map((match) => match[1]!),
    );
    expect(used.length).toBeGreaterThanOrEqual(19);
    for (const grid of used) {
      const id = gridIds.get(grid);
      expect(id, `${grid} is defined with defineGrid`).toBeDefined();
      expect(routes, `/api/${id} answers ${grid}`).toContain(`api.${id}.ts`);
    }
  });
});
