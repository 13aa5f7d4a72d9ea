// What a revise page says Save does is what the save does (issue 32, D276).
import { describe, expect, it } from "vitest";
import { REQUEST_STATUSES } from "./grids.server";
import { requestSaveEffect, responseSaveEffect, statusAfterRequestSave } from "./revise-rules";

describe("revise rules", () => {
  it("sends a sent, acknowledged, backordered or rejected request again as pending", () => {
    for (const status of ["sent", "acknowledged", "backordered", "rejected"]) {
      expect(requestSaveEffect(status)).toEqual({ kind: "resent", from: status, to: "pending" });
      expect(statusAfterRequestSave(status)).toBe("pending");
    }
  });

  it("refuses a request asked back from its vendor, keeps pending and finished ones", () => {
    for (const status of ["cancel_requested", "cancelled", "cancel_refused"]) expect(requestSaveEffect(status).kind).toBe("refused");
    expect(requestSaveEffect("pending")).toEqual({ kind: "queued", status: "pending" });
    for (const status of ["shipped", "invoiced", "completed", "archived"]) {
      expect(requestSaveEffect(status)).toEqual({ kind: "kept", status });
      expect(statusAfterRequestSave(status)).toBe(status);
    }
  });

  it("has a sentence for every request status the grid knows", () => {
    for (const status of REQUEST_STATUSES) expect(["refused", "resent", "queued", "kept"]).toContain(requestSaveEffect(status).kind);
  });

  it("makes a saved response received again", () => {
    expect(responseSaveEffect("fulfilled")).toEqual({ from: "fulfilled", to: "received" });
  });
});
