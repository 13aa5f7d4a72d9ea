// The import directions of docs/architecture.md, checked: every import
// between two modules of app/, edi/, jobs/ and server/ must be listed in the
// table "Who imports whom", every listed one must still be used (the map
// stays true), and the listed directions must have no cycle. Tests,
// fixtures, benches and scripts may import anything and are not read.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const SOURCE_DIRS = ["app", "edi", "jobs", "server"];
// Files at the top of app/ belong to the module their name says.
const APP_ROOT_FILES: Record<string, string> = {
  "db.server": "app/db",
  "env.server": "app/env",
  "shopify.server": "app/shopify",
  "auth.server": "app/auth",
  root: "app/root",
  "entry.client": "app/entry",
  "entry.server": "app/entry",
};

/** The module a file (path relative to the root, with / separators) belongs to. */
export function moduleOf(file: string): string | null {
  const parts = file.split("/");
  if (parts[0] !== "app") return SOURCE_DIRS.includes(parts[0]!) ? parts[0]! : null;
  if (parts.length === 2) return APP_ROOT_FILES[parts[1]!.replace(/\.(tsx?|jsx?)$/, "")] ?? null;
  return `app/${parts[1]}`;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name === "generated" || entry.name === "node_modules" || entry.name === "test-fixtures") continue;
      out.push(...sourceFiles(relative));
    } else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
      out.push(relative);
    }
  }
  return out;
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^"'`;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^import\s*["']([^"']+)["']/gm;

/** Every module-to-module import in the code, with one file that makes it. */
function actualImports(): Map<string, string> {
  const edges = new Map<string, string>();
  for (const dir of SOURCE_DIRS) {
    for (const file of sourceFiles(dir)) {
      const from = moduleOf(file);
      if (!from) continue;
      const text = readFileSync(path.join(ROOT, file), "utf8");
      for (const match of text.matchAll(IMPORT)) {
        const specifier = match[1] ?? match[2] ?? match[3]!;
        let target: string;
        if (specifier.startsWith("~/")) target = `app/${specifier.slice(2)}`;
        else if (specifier.startsWith(".")) target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
        else continue; // a package
        const to = moduleOf(target);
        if (!to || to === from) continue;
        const edge = `${from} -> ${to}`;
        if (!edges.has(edge)) edges.set(edge, file);
      }
    }
  }
  return edges;
}

/** The table of docs/architecture.md: module -> the modules it may import. */
function documentedImports(): Map<string, string[]> {
  const doc = readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
  const section = doc.split(/^## /m).find((part) => part.startsWith("Who imports whom"));
  if (!section) throw new Error('docs/architecture.md has no section "## Who imports whom"');
  const table = new Map<string, string[]>();
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    // | `module` | what it owns | `a`, `b` |
    if (cells.length < 4 || !/^`[^`]+`$/.test(cells[1]!)) continue;
    const module = cells[1]!.slice(1, -1).replace(/\/$/, "");
    const allowed = [...cells[3]!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!.replace(/\/$/, ""));
    table.set(module, allowed);
  }
  return table;
}

describe("import directions (docs/architecture.md)", () => {
  const actual = actualImports();
  const documented = documentedImports();

  it("lists every module of the code", () => {
    const modules = new Set([...actual.keys()].flatMap((edge) => edge.split(" -> ")));
    const missing = [...modules].filter((module) => !documented.has(module));
    expect(missing, "modules missing from the table").toEqual([]);
  });

  it("has no import the table does not allow", () => {
    const refused = [...actual.entries()]
      .filter(([edge]) => {
        const [from, to] = edge.split(" -> ") as [string, string];
        return !documented.get(from)?.includes(to);
      })
      .map(([edge, file]) => `${edge} (${file})`);
    expect(refused, "imports against docs/architecture.md").toEqual([]);
  });

  it("allows no import the code does not make, so the map stays true", () => {
    const unused = [...documented.entries()].flatMap(([from, allowed]) => allowed.filter((to) => !actual.has(`${from} -> ${to}`)).map((to) => `${from} -> ${to}`));
    expect(unused, "directions listed in docs/architecture.md that no code uses").toEqual([]);
  });

  it("points one way: no cycle between modules", () => {
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (module: string, trail: string[]) => {
      if (state.get(module) === "done") return;
      if (state.get(module) === "open") {
        cycles.push([...trail.slice(trail.indexOf(module)), module].join(" -> "));
        return;
      }
      state.set(module, "open");
      for (const next of documented.get(module) ?? []) visit(next, [...trail, module]);
      state.set(module, "done");
    };
    for (const module of documented.keys()) visit(module, []);
    expect(cycles).toEqual([]);
  });
});
