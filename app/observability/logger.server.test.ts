// The logger as the app makes it (JSON lines): secrets redacted by path
// wherever they sit, the request's or run's ids on every line.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { withLogContext, addToLogContext } from "./context.server";
import { createLogger } from "./logger.server";
import { SECRET_KEYS } from "./redaction";

function capture(format: "json" | "pretty" = "json") {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  return { log: createLogger({ level: "debug", format, destination }), lines, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const at = (value: unknown, path: Array<string | number>) => path.reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], value);

describe("redaction", () => {
  const keys = Object.values(SECRET_KEYS).flat();

  it.each(keys)("redacts %s at the top and nested at any depth, arrays included, without changing what was logged", (key) => {
    const { log, lines, parsed } = capture();
    const secret = `secret-value-of-${key}`;
    const shapes: Array<{ object: Record<string, unknown>; path: Array<string | number> }> = [
      { object: { [key]: secret }, path: [key] },
      { object: { vendor: { [key]: secret } }, path: ["vendor", key] },
      { object: { req: { headers: { [key]: secret } } }, path: ["req", "headers", key] },
      { object: { a: { b: { c: { [key]: secret } } } }, path: ["a", "b", "c", key] },
      { object: { vendors: [{ id: 1, [key]: secret }] }, path: ["vendors", 0, key] },
      { object: { a: { b: { c: { d: { e: [{ [key]: secret }] } } } } }, path: ["a", "b", "c", "d", "e", 0, key] },
    ];
    for (const shape of shapes) log.info(shape.object, "a line");
    expect(lines.join("\n")).not.toContain(secret);
    parsed().forEach((line, index) => expect(at(line, shapes[index]!.path)).toBe("[Redacted]"));
    for (const shape of shapes) expect(at(shape.object, shape.path)).toBe(secret);
  });

  it("keeps what is not secret beside what is", () => {
    const { log, parsed } = capture();
    log.info(
      {
        vendor: { id: 7, name: "Acme", sftp_user: "acme", sftp_host: "sftp.acme.test", sftp_host_key: "SHA256:abc", sftp_pass: "v1:iv:tag:data" },
        env: {
          AS400_HOST_KEY: "SHA256:def",
          AS400_PASSWORD: "hunter2",
          APP_SECRET_KEY: "a2V5",
          SHOPIFY_API_SECRET: "shpss_1",
          METRICS_TOKEN: "m".repeat(40),
          DATABASE_URL: "postgresql://app:pw@db/app",
        },
        headers: { authorization: "Bearer eyJ.x.y", cookie: "session=abc", "x-request-id": "r-1" },
      },
      "settings",
    );
    const [line] = parsed();
    expect(line).toMatchObject({
      vendor: { id: 7, name: "Acme", sftp_user: "acme", sftp_host: "sftp.acme.test", sftp_host_key: "SHA256:abc", sftp_pass: "[Redacted]" },
      // A host key is public: it stays, to tell which server was trusted.
      env: {
        AS400_HOST_KEY: "SHA256:def",
        AS400_PASSWORD: "[Redacted]",
        APP_SECRET_KEY: "[Redacted]",
        SHOPIFY_API_SECRET: "[Redacted]",
        METRICS_TOKEN: "[Redacted]",
        DATABASE_URL: "[Redacted]",
      },
      headers: { authorization: "[Redacted]", cookie: "[Redacted]", "x-request-id": "r-1" },
    });
  });

  it("redacts in pretty output too", () => {
    const { log, lines } = capture("pretty");
    log.info({ vendor: { sftp_pass: "pretty-secret" } }, "pretty line");
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: pretty line/);
    expect(lines.join("\n")).toContain("[Redacted]");
    expect(lines.join("\n")).not.toContain("pretty-secret");
  });
});

describe("context", () => {
  it("puts the request's id and shop, then a run's feed and id, on lines logged anywhere below", async () => {
    const { log, parsed } = capture();
    await withLogContext({ request_id: "req-1" }, async () => {
      log.info("before authentication");
      addToLogContext({ shop: "a-shop.myshopify.com" });
      await Promise.resolve();
      log.error({ err: new Error("deep failure") }, "after");
      await withLogContext({ feed: "location_sync" }, async () => {
        addToLogContext({ run_id: 42 });
        await new Promise((resolve) => setTimeout(resolve, 1));
        log.warn("inside the run");
      });
    });
    log.info("outside");
    const [before, after, run, outside] = parsed();
    expect(before).toMatchObject({ request_id: "req-1", level: "info" });
    expect(before).not.toHaveProperty("shop");
    expect(after).toMatchObject({ request_id: "req-1", shop: "a-shop.myshopify.com", level: "error", err: { message: "deep failure" } });
    expect(run).toMatchObject({ request_id: "req-1", shop: "a-shop.myshopify.com", feed: "location_sync", run_id: 42 });
    expect(outside).not.toHaveProperty("request_id");
  });
});
