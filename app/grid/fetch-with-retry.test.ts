import { describe, expect, it } from "vitest";
import { fetchJsonWithRetry, LoadError, retryDelayMs } from "./fetch-with-retry";

function scripted(answers: Array<() => Response | Promise<Response>>) {
  const calls: string[] = [];
  const fetchImpl = (async (url: string) => {
    calls.push(url);
    const next = answers.shift();
    if (!next) throw new Error("no more answers");
    return next();
  }) as unknown as typeof fetch;
  return { fetchImpl, calls };
}

const json = (status: number, body: unknown) => () => new Response(JSON.stringify(body), { status });

describe("fetchJsonWithRetry", () => {
  it("retries failed loads 3 times, waiting 1 s, 2 s, 4 s", async () => {
    const waits: number[] = [];
    const { fetchImpl, calls } = scripted([
      () => Promise.reject(new TypeError("fetch failed")),
      json(500, { message: "boom" }),
      () => new Response("<html>", { status: 200 }),
      json(200, { data: { total: 3 } }),
    ]);
    const body = await fetchJsonWithRetry<{ data: { total: number } }>("/api/x", {
      fetchImpl,
      sleep: async (ms) => void waits.push(ms),
    });
    expect(body.data.total).toBe(3);
    expect(calls).toHaveLength(4);
    expect(waits).toEqual([1000, 2000, 4000]);
  });

  it("gives up after the third retry with the last failure", async () => {
    const { fetchImpl, calls } = scripted(Array.from({ length: 6 }, () => json(503, {})));
    await expect(fetchJsonWithRetry("/api/x", { fetchImpl, sleep: async () => {} })).rejects.toMatchObject({ status: 503 });
    expect(calls).toHaveLength(4);
  });

  it("does not retry an answer that will not change (422)", async () => {
    const { fetchImpl, calls } = scripted([json(422, { errors: { sort: ["bad"] } })]);
    const error = (await fetchJsonWithRetry("/api/x", { fetchImpl, sleep: async () => {} }).catch((e: unknown) => e)) as LoadError;
    expect(error).toBeInstanceOf(LoadError);
    expect(error.body).toEqual({ errors: { sort: ["bad"] } });
    expect(calls).toHaveLength(1);
  });

  it("doubles the backoff up to 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((attempt) => retryDelayMs(attempt))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});
