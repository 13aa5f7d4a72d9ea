// Shopify's rate limit met by the one client (D46), against the stand-in made
// to throttle: a leaky bucket of query cost answering THROTTLED, or HTTP 429
// with Retry-After. Waits are read from the stand-in's own record of when each
// call arrived and was answered, never from how fast the app is.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../app/db/client.server";
import { metricsText } from "../../app/observability/metrics.server";
import type { RecordedCall, ThrottleControl } from "../../app/shopify/stand-in.server";
import { useShopifyStandIn, type ShopifyModules, type ShopifyStandIn } from "../support/shopify-stand-in";

// Rows of this file carry this tag, so cleaning up never touches another file's.
const tag = `TH${randomBytes(3).toString("hex").toUpperCase()}`;

const suite = useShopifyStandIn({
  cleanUp: async (prisma) => {
    await prisma.productApiOperation.deleteMany({ where: { sku: { startsWith: tag } } });
    await prisma.productApiError.deleteMany({ where: { sku: { startsWith: tag } } });
  },
});
let prisma: PrismaClient;
let standIn: ShopifyStandIn;
let modules: ShopifyModules;
beforeAll(() => {
  ({ prisma, standIn, modules } = suite);
});

/** A sample of /metrics (0 when it has none yet), e.g. `shopify_calls_total{operation="ShopInfo"}`. */
const sample = async (series: string) => {
  const line = (await metricsText()).body.split("\n").find((row) => row.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
};

/** GraphQL requests only here: they all carry arrival time and concurrency. */
const calls = async () => (await (await fetch(`${standIn.url}/__calls`)).json()) as Array<RecordedCall & { arrivedMs: number; inFlight: number }>;
const throttle = (control: ThrottleControl) =>
  fetch(`${standIn.url}/__throttle`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(control) });
// Each test its own shop, so one test's throttling never slows the next (the limiter is per shop).
let shops = 0;
const freshAdmin = () => modules.client.shopifyAdminFor({ mode: "local", shop: `${tag.toLowerCase()}-${++shops}.myshopify.com` });
const recordsFor = async (sku: string) => {
  await modules.records.flushShopifyCallRecords();
  return {
    operations: await prisma.productApiOperation.findMany({ where: { sku }, orderBy: { id: "asc" } }),
    errors: await prisma.productApiError.findMany({ where: { sku }, orderBy: { id: "asc" } }),
  };
};

describe("a throttled call", () => {
  it("waits what the cost extension says, then succeeds, recorded once as a success", async () => {
    // Empty bucket refilling 2 points a second: ShopInfo (1 point) must wait 500 ms, more than the client's floor.
    await throttle({ bucket: { maximumAvailable: 10, restoreRate: 2, currentlyAvailable: 0 } });
    const { shop } = await freshAdmin().run(modules.operations.ShopInfo, {}, { sku: `${tag}-cost` });
    expect(shop.currencyCode).toBe("USD");

    const [refused, answered] = await calls();
    expect(refused).toMatchObject({ operation: "ShopInfo", throttled: "THROTTLED", retryAfterMs: 500 });
    expect(answered.throttled).toBeUndefined();
    expect(answered.arrivedMs - refused.answeredMs!).toBeGreaterThanOrEqual(refused.retryAfterMs!);
    expect(await calls()).toHaveLength(2);

    const { operations, errors } = await recordsFor(`${tag}-cost`);
    expect(operations).toHaveLength(1);
    expect(operations[0]).toMatchObject({ operation: "ShopInfo", status: "success", response: { attempts: 2, answer: { shop: { currencyCode: "USD" } } } });
    expect(errors).toEqual([]);
  });

  it("waits what Retry-After says after HTTP 429", async () => {
    await throttle({ http429: { times: 2, retryAfterSeconds: 0.3 } });
    const { order } = await freshAdmin().run(modules.operations.OrderRead, { id: "gid://shopify/Order/42" }, { sku: `${tag}-429` });
    expect(order?.name).toBe("#42");

    const sent = await calls();
    expect(sent.map((call) => call.throttled ?? "answered")).toEqual(["HTTP 429", "HTTP 429", "answered"]);
    for (let i = 1; i < sent.length; i += 1) expect(sent[i].arrivedMs - sent[i - 1].answeredMs!).toBeGreaterThanOrEqual(300);
    const { operations, errors } = await recordsFor(`${tag}-429`);
    expect(operations.map((row) => [row.status, (row.response as { attempts?: number }).attempts])).toEqual([["success", 3]]);
    expect(errors).toEqual([]);
  });

  it("that keeps being throttled ends failed, recorded in the API errors with its reason", async () => {
    await throttle({ http429: { times: 100, retryAfterSeconds: 0.2 } });
    const series = [
      'shopify_calls_total{operation="ShopInfo"}',
      'shopify_throttles_total{operation="ShopInfo"}',
      'shopify_errors_total{operation="ShopInfo",kind="throttled"}',
    ];
    const before = await Promise.all(series.map(sample));
    const failure = await freshAdmin()
      .run(modules.operations.ShopInfo, {}, { sku: `${tag}-gives-up` })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(modules.client.ShopifyThrottledError);
    expect(failure).toBeInstanceOf(modules.client.ShopifyApiError);
    expect((failure as Error).message).toMatch(/^Throttled by Shopify: 6 attempts over \d+\.\d s \(ShopInfo\)$/);
    expect(await calls()).toHaveLength(modules.client.MAX_ATTEMPTS);

    const { operations, errors } = await recordsFor(`${tag}-gives-up`);
    expect(operations.map((row) => row.status)).toEqual(["error"]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ operation: "ShopInfo", message: (failure as Error).message, payload: { response: { attempts: 6 } } });
    // /metrics: one call, six throttled answers, one error of kind throttled (D88).
    const after = await Promise.all(series.map(sample));
    expect(after.map((value, index) => value - before[index]!)).toEqual([1, modules.client.MAX_ATTEMPTS, 1]);
  });

  it("is not waited for when Shopify asks for longer than a call may wait", async () => {
    await throttle({ http429: { times: 1, retryAfterSeconds: 3600 } });
    const failure = await freshAdmin()
      .run(modules.operations.ShopInfo, {}, { sku: `${tag}-hour` })
      .catch((error: unknown) => error);
    expect((failure as Error).message).toMatch(/^Throttled by Shopify: 1 attempt over \d+\.\d s, Shopify asked to wait 3600\.0 s more \(ShopInfo\)$/);
    expect(await calls()).toHaveLength(1);
    expect((await recordsFor(`${tag}-hour`)).errors.map((row) => row.message)).toEqual([(failure as Error).message]);
  });

  it("is the only failure sent again: an answer with other errors is not", async () => {
    const failure = await freshAdmin()
      .run({ name: "Nope", document: "mutation Nope { nope }" }, {}, { sku: `${tag}-once` })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(modules.client.ShopifyApiError);
    expect(failure).not.toBeInstanceOf(modules.client.ShopifyThrottledError);
    expect(await calls()).toHaveLength(1);
  });
});

describe("while a shop is throttled", () => {
  it("its calls go one at a time, and all of them succeed", async () => {
    // Empty, slow to refill (5 points a second, 1 a call), never half full again during the test; each answer held 150 ms
    // so that the first wave overlaps even on a loaded machine.
    await throttle({ bucket: { maximumAvailable: 100, restoreRate: 5, currentlyAvailable: 0 }, latencyMs: 150 });
    const admin = freshAdmin();
    const results = await Promise.all(Array.from({ length: 12 }, () => admin.run(modules.operations.ShopInfo, {}, { sku: `${tag}-twelve` })));
    expect(results.map((result) => result.shop.myshopifyDomain)).toHaveLength(12);

    const sent = (await calls()).sort((a, b) => a.arrivedMs - b.arrivedMs);
    const throttled = sent.filter((call) => call.throttled);
    expect(throttled.length).toBeGreaterThan(0);
    expect(sent.filter((call) => !call.throttled)).toHaveLength(12);
    // What was sent before the client could know of the first refusal may overlap (the first wave, four at most)...
    const firstRefusal = Math.min(...throttled.map((call) => call.answeredMs!));
    const unaware = sent.filter((call) => call.arrivedMs <= firstRefusal);
    expect(unaware.length).toBeLessThanOrEqual(4);
    expect(Math.max(...unaware.map((call) => call.inFlight))).toBeGreaterThan(1);
    // ...once those are answered, never more than one at a time.
    const cleared = Math.max(...unaware.map((call) => call.answeredMs!));
    const after = sent.filter((call) => call.arrivedMs > cleared);
    expect(after.length).toBeGreaterThanOrEqual(12 - unaware.length);
    expect(after.map((call) => call.inFlight)).toEqual(after.map(() => 1));

    const { operations, errors } = await recordsFor(`${tag}-twelve`);
    expect(operations.map((row) => row.status)).toEqual(Array(12).fill("success"));
    expect(errors).toEqual([]);
  });
});

describe("the calls a shop's budget holds (D130)", () => {
  // FulfillmentCreate costs 10 points; an empty input is answered (with userErrors) without changing anything.
  const fulfil = (admin: ReturnType<typeof freshAdmin>, sku: string) =>
    admin.run(modules.operations.FulfillmentCreate, { fulfillment: { lineItemsByFulfillmentOrder: [] } }, { sku });

  it("go in flight together, more than four once an answer has told the budget, and none is throttled", async () => {
    await throttle({ bucket: { maximumAvailable: 400, restoreRate: 50 }, latencyMs: 100 });
    const admin = freshAdmin();
    await fulfil(admin, `${tag}-budget`);
    // 390 points left, 10 a call: the budget has room for many more than the old fixed four.
    expect(admin.budget!.room(10)).toBeGreaterThan(4);
    await Promise.all(Array.from({ length: 24 }, () => fulfil(admin, `${tag}-budget`)));
    const sent = await calls();
    expect(sent.filter((call) => call.throttled)).toEqual([]);
    expect(Math.max(...sent.map((call) => call.inFlight))).toBeGreaterThan(4);
  });

  it("never take more than the bucket holds: with a small bucket they wait for the refill instead of being refused", async () => {
    // 50 points, 10 a call: five calls at once at most; 30 calls wait for the refill instead of being refused.
    await throttle({ bucket: { maximumAvailable: 50, restoreRate: 100 }, latencyMs: 50 });
    const admin = freshAdmin();
    await fulfil(admin, `${tag}-small`);
    await Promise.all(Array.from({ length: 30 }, () => fulfil(admin, `${tag}-small`)));
    const sent = await calls();
    expect(sent).toHaveLength(31);
    expect(sent.filter((call) => call.throttled)).toEqual([]);
    expect(Math.max(...sent.map((call) => call.inFlight))).toBeLessThanOrEqual(5);
  });
});
