import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { LOCK_KEYS } from "./lock-keys";

describe("advisory lock keys", () => {
  it("are distinct", () => {
    const values = Object.values(LOCK_KEYS);
    expect(new Set(values).size).toBe(values.length);
  });

  it("are taken from the registry everywhere: no key is written as a number elsewhere", () => {
    const files = execFileSync("git", ["ls-files", "app", "jobs", "server", "prisma", "edi"], { encoding: "utf8" })
      .split("\n")
      .filter((file) => /\.tsx?$/.test(file) && !file.endsWith("lock-keys.ts") && !file.includes("/generated/"));
    const literal = /\b72_?700_?0\d\d\b/;
    const offenders = files.filter((file) => literal.test(readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });
});
