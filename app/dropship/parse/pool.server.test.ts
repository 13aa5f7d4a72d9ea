import { afterEach, describe, expect, it } from "vitest";
import { mapTransactions } from "@edi/documents";
import { readX12 } from "@edi/x12";
import { big855 } from "../../../tests/support/hostile-files";
import { ParseWorkerError, readAndMapX12 } from "./pool.server";

afterEach(() => {
  delete process.env.PARSE_WORKER_CRASH_ON;
});

const lineCount = (read: Awaited<ReturnType<typeof readAndMapX12>>) => {
  const mapped = read.documents[0].mapped;
  return mapped?.type === "855" ? mapped.document.lines.length : -1;
};

describe("the parse pool (issue 28)", () => {
  it("reads and maps a large 855 in its worker, the same as on this thread, while this thread's timers keep firing", async () => {
    const text = Buffer.from(big855(60_000));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const read = await readAndMapX12(text, {});
    clearInterval(timer);
    // Read here, the whole file would hold the thread from start to end: not one tick.
    expect(ticks).toBeGreaterThan(5);
    const here = readX12(text);
    expect(read.result.faults).toEqual(here.faults);
    expect(lineCount(read)).toBe(60_000);
    expect(read.documents).toEqual(mapTransactions(here));
    // The segment table came back with its methods.
    expect(read.result.segments.elements(2)).toEqual(["ST", "855", "0001"]);
  });

  it("fails only the file the worker died on; the next file is read by a new worker", async () => {
    process.env.PARSE_WORKER_CRASH_ON = "CRASH-HERE";
    const doomed = readAndMapX12(Buffer.from(big855(5_000, { note: "CRASH-HERE" })), {});
    const next = readAndMapX12(Buffer.from(big855(5_000)), {});
    await expect(doomed).rejects.toBeInstanceOf(ParseWorkerError);
    expect(lineCount(await next)).toBe(5_000);
  });
});
