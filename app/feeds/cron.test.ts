import { describe, expect, it } from "vitest";
import { validateCron } from "./cron";

describe("validateCron", () => {
  it("accepts what node-cron schedules: 5 fields, 6 with seconds, names", () => {
    for (const expression of ["0 0 * * *", "* * * * * *", "*/5 9-17 * * MON-FRI", " 0 0 1 JAN * "]) {
      expect(validateCron(expression)).toBeNull();
    }
  });

  it("names the field that is wrong", () => {
    expect(validateCron("61 * * * *")).toBe('"61 * * * *" is not a valid cron expression: minute must be 0-59 (got "61").');
    expect(validateCron("0 24 * * *")).toContain("hour must be 0-23");
    expect(validateCron("0 0 32 * *")).toContain("day of month must be 1-31");
    expect(validateCron("0 0 * 13 *")).toContain("month must be 1-12");
    expect(validateCron("0 0 * * 9")).toContain("day of week must be 0-7");
    expect(validateCron("60 0 0 * * *")).toContain("second must be 0-59");
  });

  it("says how many fields it wants, and that one is required", () => {
    expect(validateCron("* * * *")).toContain("expected 5 fields");
    expect(validateCron("* * * *")).toContain("got 4");
    expect(validateCron("   ")).toMatch(/required/);
  });
});
