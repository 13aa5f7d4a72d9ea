import { describe, expect, it } from "vitest";
import { dateOnly, dayIn, shiftDay } from "./app-time";

describe("dayIn", () => {
  it("is the date where the time zone is, not in UTC", () => {
    // 03:00 UTC on the 21st is still the evening of the 20th in New York (EST, UTC−5).
    expect(dayIn("America/New_York", new Date("2026-11-21T03:00:00Z"))).toBe("2026-11-20");
    expect(dayIn("UTC", new Date("2026-11-21T03:00:00Z"))).toBe("2026-11-21");
    expect(dayIn("Asia/Tokyo", new Date("2026-11-20T15:30:00Z"))).toBe("2026-11-21");
  });

  it("moves its midnight with daylight saving time", () => {
    // EDT (UTC−4) in July: midnight in New York is 04:00 UTC.
    expect(dayIn("America/New_York", new Date("2026-07-04T03:59:59Z"))).toBe("2026-07-03");
    expect(dayIn("America/New_York", new Date("2026-07-04T04:00:00Z"))).toBe("2026-07-04");
    // EST (UTC−5) in January: 05:00 UTC.
    expect(dayIn("America/New_York", new Date("2026-01-15T04:59:59Z"))).toBe("2026-01-14");
    expect(dayIn("America/New_York", new Date("2026-01-15T05:00:00Z"))).toBe("2026-01-15");
  });

  it("is today without an instant", () => {
    const before = dayIn("UTC", new Date());
    const today = dayIn("UTC");
    expect([before, dayIn("UTC", new Date())]).toContain(today);
  });
});

describe("dateOnly", () => {
  it("is the day's midnight in UTC, as a date column stores it", () => {
    expect(dateOnly("2026-11-20").toISOString()).toBe("2026-11-20T00:00:00.000Z");
  });
});

describe("shiftDay", () => {
  it("moves by calendar days across months, years and leap days", () => {
    expect(shiftDay("2026-11-20", -1)).toBe("2026-11-19");
    expect(shiftDay("2026-03-01", -1)).toBe("2026-02-28");
    expect(shiftDay("2028-03-01", -1)).toBe("2028-02-29");
    expect(shiftDay("2026-12-31", 1)).toBe("2027-01-01");
    expect(shiftDay("2026-11-20", -13)).toBe("2026-11-07");
    // The day daylight saving time ends in New York is one calendar day, whatever its length.
    expect(shiftDay("2026-11-01", 1)).toBe("2026-11-02");
  });
});
