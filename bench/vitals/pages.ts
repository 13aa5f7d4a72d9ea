// The pages measured: the list of tests/e2e/accessibility.spec.ts (PAGES, every
// page of both specs) with the record ids it looks up (ID_QUERIES). The spec
// exports neither, and importing it would register Playwright tests outside
// the runner, so its two declarations are read from its source with the
// TypeScript compiler and evaluated here: one list, kept where it is.
import { readFileSync } from "node:fs";
import ts from "typescript";
import { queryDatabase } from "../../tests/e2e/support";

const SPEC = "tests/e2e/accessibility.spec.ts";

type Ids = Record<string, string>;

function declarationsOf(file: string, names: string[]): Record<string, unknown> {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
  const found: Record<string, unknown> = {};
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const name = declaration.name.getText(source);
      if (!names.includes(name) || !declaration.initializer) continue;
      // Only literals of strings and arrow functions building paths: nothing else is run.
      const js = ts.transpile(`(${declaration.initializer.getText(source)})`, { target: ts.ScriptTarget.ES2022 });
      found[name] = new Function(`return ${js.trim().replace(/;$/, "")}`)();
    }
  }
  for (const name of names) if (!(name in found)) throw new Error(`${SPEC} no longer declares ${name}: bench/vitals/pages.ts reads it from there`);
  return found;
}

export interface BenchPage {
  path: string;
  /** The path with its ids as placeholders, as the table shows it (ids differ between databases). */
  label: string;
}

/**
 * Every page but the last (not found). `databaseUrl` answers the id queries; without one
 * (BENCH_URL without BENCH_DATABASE_URL) the pages that need an id are left out.
 */
export async function benchPages(databaseUrl: string | undefined): Promise<{ pages: BenchPage[]; skipped: string[] }> {
  const { PAGES, ID_QUERIES } = declarationsOf(SPEC, ["PAGES", "ID_QUERIES"]) as {
    PAGES: Array<(ids: Ids) => string>;
    ID_QUERIES: Record<string, string>;
  };
  const placeholders = new Proxy({} as Ids, { get: (_, key) => `{${String(key)}}` });
  const ids: Ids = {};
  if (databaseUrl) {
    for (const [key, sql] of Object.entries(ID_QUERIES)) {
      const [row] = await queryDatabase<{ id: string | number }>(databaseUrl, sql);
      if (row) ids[key] = String(row.id);
    }
  }
  const pages: BenchPage[] = [];
  const skipped: string[] = [];
  for (const pagePath of PAGES.slice(0, -1)) {
    const label = pagePath(placeholders);
    const needed = [...label.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
    if (needed.some((key) => !(key in ids))) skipped.push(label);
    else pages.push({ path: pagePath(ids), label });
  }
  return { pages, skipped };
}
