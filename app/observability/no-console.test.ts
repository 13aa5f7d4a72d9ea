// No console.* in app code (D85): every line goes through the logger, so it is
// JSON in production, carries its request or run, and is redacted. Tests,
// benches, scripts and the EDI command line (whose stdout is its output) may
// print; the browser bundle has nothing to say either.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const APP_CODE = ["app", "server", "jobs", "edi"];
const ALLOWED = new Set(["edi/cli.ts"]);
const skipped = (relative: string) =>
  ALLOWED.has(relative) || /\.(test|spec)\.tsx?$/.test(relative) || relative.includes("/test-fixtures/") || relative.startsWith("app/db/generated/");

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(relative);
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) && !skipped(relative) ? [relative] : [];
  });
}

describe("app code", () => {
  it("has no console.* call: it logs through app/observability/logger.server.ts", () => {
    const files = APP_CODE.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) =>
      readFileSync(path.join(ROOT, file), "utf8")
        .split("\n")
        .flatMap((line, index) => (/\bconsole\s*\.\s*[a-z]+/.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
