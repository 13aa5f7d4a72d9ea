import { describe, expect, it } from "vitest";
import { fieldErrorsOf, readSubmitResult } from "./submit-result";

const texts = { success: "Vendor saved successfully", error: "Error while saving vendor" };

describe("reading a form's save answer", () => {
  it("shows the default success text, or the server's message when it sent one", () => {
    expect(readSubmitResult(200, "{}", texts)).toMatchObject({ ok: true, tone: "success", title: "Vendor saved successfully" });
    expect(readSubmitResult(200, '{"error":false,"message":"Saved 3 rows"}', texts)).toMatchObject({ ok: true, title: "Saved 3 rows" });
  });

  it("lists the first message of each field of a 422", () => {
    const outcome = readSubmitResult(422, JSON.stringify({ errors: { name: ["Name is required", "too short"], sftp_port: ["Port must be 1-65535"] } }), texts);
    expect(outcome).toMatchObject({ ok: false, tone: "critical", title: "Error while saving vendor" });
    expect(outcome.messages).toEqual(["Name is required", "Port must be 1-65535"]);
  });

  it("treats an error flag, a failed status or an unreadable answer as a failure", () => {
    expect(readSubmitResult(200, '{"error":true}', texts)).toMatchObject({ ok: false, title: "Error while saving vendor" });
    expect(readSubmitResult(200, '{"error":true,"message":"Vendor has open requests"}', texts)).toMatchObject({ ok: false, title: "Vendor has open requests" });
    expect(readSubmitResult(500, "<html>", texts)).toMatchObject({ ok: false, title: "Error while saving vendor" });
    expect(readSubmitResult(200, "not json", texts)).toMatchObject({ ok: false, title: "Error while saving vendor" });
    expect(readSubmitResult(0, "", texts)).toMatchObject({ ok: false });
  });

  it("shows the generic text for any failed status where the page says so (drop-ship Tools)", () => {
    const tools = { success: "Request completed successfully", error: "Something went wrong when completing the request", serverMessageOnHttpError: false };
    expect(readSubmitResult(500, '{"error":true,"message":"Internal error (reference 1a2b)"}', tools).title).toBe(
      "Something went wrong when completing the request",
    );
    expect(readSubmitResult(200, '{"error":true,"message":"Wrong user name or password"}', tools).title).toBe("Wrong user name or password");
    expect(readSubmitResult(200, '{"error":false}', tools).title).toBe("Request completed successfully");
    expect(readSubmitResult(500, '{"error":true,"message":"Internal error (reference 1a2b)"}', texts).title).toBe("Internal error (reference 1a2b)");
  });
});

describe("a failed save's messages by field", () => {
  it("are the 422's errors, and none after a success or before any save", () => {
    const failed = readSubmitResult(422, '{"errors":{"qty":["Quantity must be at least 1"]}}', texts);
    expect(fieldErrorsOf(failed)).toEqual({ qty: ["Quantity must be at least 1"] });
    expect(fieldErrorsOf(readSubmitResult(200, '{"error":false}', texts))).toEqual({});
    expect(fieldErrorsOf(null)).toEqual({});
  });
});
