// The import directions of docs/architecture.md, checked: every import
// between two modules of app/, edi/, jobs/ and server/ must be listed in the
// table "Who imports whom", every listed one must still be made (the map
// stays true), and each goes to a lower layer unless the table lists it as
// one against the direction, still to be removed. Tests,
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
function moduleOf(file: string): string | null {
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
        else if (specifier.startsWith("@edi/")) target = `edi/${specifier.slice(5)}`;
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

interface DocumentedModule {
  layer: number;
  /** Imports of a lower layer. */
  down: string[];
  /** Imports against the direction, each listed to be removed. */
  against: string[];
}

/** The table of docs/architecture.md: | `module` | layer | owns | down | against |. */
function documentedModules(): Map<string, DocumentedModule> {
  const doc = readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
  const section = doc.split(/^## /m).find((part) => part.startsWith("Who imports whom"));
  if (!section) throw new Error('docs/architecture.md has no section "## Who imports whom"');
  const modules = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!.replace(/\/$/, ""));
  const table = new Map<string, DocumentedModule>();
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    if (cells.length < 7 || !/^`[^`]+`$/.test(cells[1]!) || !/^\d+$/.test(cells[2]!)) continue;
    table.set(cells[1]!.slice(1, -1).replace(/\/$/, ""), { layer: Number(cells[2]), down: modules(cells[4]!), against: modules(cells[5]!) });
  }
  return table;
}

// edi/'s public face: one entry point per part, and its single-file modules.
const EDI_ENTRY_POINTS = new Set([
  "x12",
  "documents",
  "csv",
  "transport",
  "purchase-orders",
  "cancellations",
  "vendor-profile",
  "control-numbers",
  "incoming",
  "staff-regex",
  "messages",
]);

describe("edi/ is reached through its entry points", () => {
  it("the app, the jobs and the server import edi/ as @edi/<part> only", () => {
    const wrong: string[] = [];
    for (const dir of ["app", "jobs", "server"]) {
      for (const file of sourceFiles(dir)) {
        const text = readFileSync(path.join(ROOT, file), "utf8");
        for (const match of text.matchAll(IMPORT)) {
          const specifier = match[1] ?? match[2] ?? match[3]!;
          const relativeEdi = specifier.startsWith(".") && path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).startsWith("edi/");
          const deep = specifier.startsWith("@edi/") && !EDI_ENTRY_POINTS.has(specifier.slice("@edi/".length));
          // Local mode's demo vendor may start the loopback SFTP server.
          const loopback = specifier === "@edi/transport/loopback" && file.startsWith("app/demo/");
          if (relativeEdi || (deep && !loopback)) wrong.push(`${file}: ${specifier}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe("routes stay thin", () => {
  it("no route imports the database client: it calls a module", () => {
    const direct = sourceFiles("app/routes").filter((file) =>
      /from\s*["'](~\/db\.server|~\/db\/client\.server)["']/.test(readFileSync(path.join(ROOT, file), "utf8")),
    );
    expect(direct).toEqual([]);
  });
});

describe("import directions (docs/architecture.md)", () => {
  const actual = actualImports();
  const documented = documentedModules();
  const listed = (from: string, to: string) => Boolean(documented.get(from)?.down.includes(to) || documented.get(from)?.against.includes(to));

  it("lists every module of the code", () => {
    const modules = new Set([...actual.keys()].flatMap((edge) => edge.split(" -> ")));
    expect(
      [...modules].filter((module) => !documented.has(module)),
      "modules missing from the table",
    ).toEqual([]);
  });

  it("has no import the table does not list", () => {
    const unlisted = [...actual.entries()].filter(([edge]) => !listed(...(edge.split(" -> ") as [string, string]))).map(([edge, file]) => `${edge} (${file})`);
    expect(unlisted, "imports missing from docs/architecture.md").toEqual([]);
  });

  it("lists no import the code does not make, so the map stays true", () => {
    const unused = [...documented.entries()].flatMap(([from, module]) =>
      [...module.down, ...module.against].filter((to) => !actual.has(`${from} -> ${to}`)).map((to) => `${from} -> ${to}`),
    );
    expect(unused, "imports listed in docs/architecture.md that no code makes").toEqual([]);
  });

  it("points down: a listed import goes to a lower layer unless it is listed as one against the direction", () => {
    const layer = (module: string) => documented.get(module)?.layer ?? Number.NaN;
    const wrong = [...documented.entries()].flatMap(([from, module]) => [
      ...module.down.filter((to) => !(layer(to) < module.layer)).map((to) => `${from} (${module.layer}) -> ${to} (${layer(to)}) is not down`),
      ...module.against.filter((to) => layer(to) < module.layer).map((to) => `${from} -> ${to} goes down: move it to the down column`),
    ]);
    expect(wrong).toEqual([]);
  });
});
