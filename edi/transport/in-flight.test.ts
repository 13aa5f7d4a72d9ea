import { describe, expect, it } from "vitest";
import { gate, inFlight } from "./in-flight";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("inFlight", () => {
  it("keeps at most the limit running, and answers in the items' order", async () => {
    let running = 0;
    let most = 0;
    const outcomes = await inFlight([30, 5, 20, 1, 10, 2, 8], 3, async (ms, index) => {
      most = Math.max(most, ++running);
      await sleep(ms);
      running--;
      if (index === 4) throw new Error("four");
      return index;
    });
    expect(most).toBe(3);
    expect(outcomes.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : outcome.status))).toEqual([0, 1, 2, 3, "rejected", 5, 6]);
  });

  it("starts nothing more once stop says so, and waits for what was started", async () => {
    const started: number[] = [];
    const outcomes = await inFlight(
      [0, 1, 2, 3, 4, 5],
      2,
      async (n) => {
        started.push(n);
        await sleep(n === 1 ? 5 : 20);
        if (n === 1) throw new Error("connection lost");
        return n;
      },
      (outcome) => outcome.status === "rejected",
    );
    // 1 fails while 0 still runs: 0 is waited for, nothing after 1 starts.
    expect(started).toEqual([0, 1]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "skipped", "skipped", "skipped", "skipped"]);
  });
});

describe("gate", () => {
  it("lets at most its count through at once, in the order they came", async () => {
    const through = gate(2);
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      [0, 1, 2, 3, 4].map((n) =>
        through(async () => {
          order.push(n);
          most = Math.max(most, ++inside);
          await sleep(10);
          inside--;
        }),
      ),
    );
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    // A failure frees its slot too.
    await expect(through(async () => Promise.reject(new Error("no")))).rejects.toThrow("no");
    expect(await Promise.all([through(async () => "a"), through(async () => "b"), through(async () => "c")])).toEqual(["a", "b", "c"]);
  });
});
