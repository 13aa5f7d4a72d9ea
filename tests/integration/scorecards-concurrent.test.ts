// Two refreshes of the vendor scorecards at once (the hourly feed and Run Feed, or the
// Needs attention sweep that is to call it too) both succeed and leave one row per
// vendor and window; an archived vendor's rows go at the next refresh.
import { afterAll, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { refreshVendorScorecards } from "../../app/dropship/scorecards.server";
import { DEFAULT_SETTINGS } from "../../app/settings/settings.server";

describe("vendor scorecards refreshed twice at once", () => {
  afterAll(() => prisma.$disconnect());

  it("both succeed, one row per vendor and window", async () => {
    await prisma.vendor.createMany({
      data: [
        { name: "Race One", store_id: "RC01" },
        { name: "Race Two", store_id: "RC02" },
      ],
    });
    const now = new Date();
    for (let round = 0; round < 5; round++) {
      const outcomes = await Promise.allSettled([
        refreshVendorScorecards(now, DEFAULT_SETTINGS),
        refreshVendorScorecards(now, DEFAULT_SETTINGS),
        refreshVendorScorecards(now, DEFAULT_SETTINGS),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === "rejected").map((outcome) => String((outcome as PromiseRejectedResult).reason))).toEqual([]);
    }
    const vendors = await prisma.vendor.count({ where: { archived_at: null } });
    expect(await prisma.vendorScorecard.count()).toBe(vendors * 2);

    // A vendor archived since loses its scorecards at the next refresh; the others keep theirs.
    const archived = await prisma.vendor.findFirstOrThrow({ where: { store_id: "RC02" } });
    await prisma.vendor.update({ where: { id: archived.id }, data: { archived_at: now } });
    await refreshVendorScorecards(now, DEFAULT_SETTINGS);
    expect(await prisma.vendorScorecard.count({ where: { vendor_id: archived.id } })).toBe(0);
    expect(await prisma.vendorScorecard.count()).toBe((vendors - 1) * 2);
  });
});
