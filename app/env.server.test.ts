import { describe, expect, it } from "vitest";
import { databaseSettings, EnvError, logSettings, parseEnv } from "./env.server";

const failure = (source: Record<string, string>) => {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error("expected the environment to be refused");
};

/** The three Shopify variables, which ask for embedded mode. */
const SHOPIFY = { SHOPIFY_API_KEY: "k", SHOPIFY_API_SECRET: "s", SHOPIFY_APP_URL: "https://ops.example.com" };

/** An embedded-mode environment that starts (outside production). */
const EMBEDDED = { ...SHOPIFY, APP_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"), SHOPIFY_SHOPS: "shop.myshopify.com" };

describe("environment", () => {
  it("runs in local mode on loopback with defaults when nothing is set", () => {
    const env = parseEnv({});
    expect(env.mode).toBe("local");
    expect(env.listenHost).toBe("127.0.0.1");
    expect(env.PORT).toBe(3000);
    expect(env.DATA_DIR).toBe(".data");
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("stays on loopback in local mode even when HOST says otherwise", () => {
    expect(parseEnv({ HOST: "0.0.0.0" }).listenHost).toBe("127.0.0.1");
  });

  it("runs embedded with all three Shopify variables", () => {
    const env = parseEnv({
      SHOPIFY_API_KEY: "k",
      SHOPIFY_API_SECRET: "s",
      SHOPIFY_APP_URL: "https://ops.example.com",
      PORT: "8080",
      APP_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"),
      SHOPIFY_SHOPS: "Main-Store.myshopify.com, outlet.myshopify.com",
    });
    expect(env.mode).toBe("embedded");
    expect(env.shops).toEqual(["main-store.myshopify.com", "outlet.myshopify.com"]);
    expect(env.listenHost).toBe("0.0.0.0");
    expect(env.PORT).toBe(8080);
  });

  it("names each missing or bad variable on a line of its own", () => {
    const message = failure({ SHOPIFY_API_KEY: "k", PORT: "http", DATABASE_URL: "mysql://x" });
    expect(message).toContain("SHOPIFY_API_SECRET is required for embedded mode");
    expect(message).toContain("SHOPIFY_APP_URL is required for embedded mode");
    expect(message).toMatch(/PORT .+/);
    expect(message).toContain("DATABASE_URL must be a postgresql:// connection string");
    expect(message.split("\n").filter((line) => line.startsWith("  - "))).toHaveLength(4);
  });

  it("requires a 32-byte secret key in embedded mode, to encrypt vendor passwords", () => {
    expect(failure(SHOPIFY)).toContain("APP_SECRET_KEY is required in embedded mode");
    expect(failure({ ...SHOPIFY, APP_SECRET_KEY: "c2hvcnQ=" })).toContain("APP_SECRET_KEY must be 32 bytes in base64");
  });

  it("requires the merchant's shops in embedded mode, as *.myshopify.com domains", () => {
    const { SHOPIFY_SHOPS: _, ...embedded } = EMBEDDED;
    expect(failure(embedded)).toContain("SHOPIFY_SHOPS is required in embedded mode");
    expect(failure({ ...EMBEDDED, SHOPIFY_SHOPS: "shop.example.com" })).toContain("SHOPIFY_SHOPS must list shop domains");
    expect(parseEnv({}).shops).toEqual(["demo-shop.myshopify.com"]);
  });

  it("requires DATABASE_URL in embedded mode under production: an embedded PostgreSQL on a container's disk is lost at a deploy", () => {
    expect(failure({ ...EMBEDDED, NODE_ENV: "production" })).toContain("DATABASE_URL is required in embedded mode under NODE_ENV=production");
    expect(parseEnv({ ...EMBEDDED, NODE_ENV: "production", DATABASE_URL: "postgresql://db/app" }).mode).toBe("embedded");
    expect(parseEnv(EMBEDDED).mode).toBe("embedded"); // development may use the embedded one
  });

  it("refuses local mode in production unless asked", () => {
    expect(failure({ NODE_ENV: "production" })).toContain("ALLOW_LOCAL_MODE_IN_PRODUCTION");
    expect(parseEnv({ NODE_ENV: "production", ALLOW_LOCAL_MODE_IN_PRODUCTION: "1" }).mode).toBe("local");
  });

  it("refuses local mode when a Shopify variable is set but blank, naming each", () => {
    for (const key of ["SHOPIFY_API_KEY", "SHOPIFY_API_SECRET", "SHOPIFY_APP_URL"]) {
      expect(failure({ [key]: "" })).toContain(`${key} is set but blank: local mode (no authentication) does not start that way`);
      expect(failure({ [key]: "  ", ALLOW_LOCAL_MODE_IN_PRODUCTION: "1" })).toContain(`${key} is set but blank`);
    }
    const both = failure({ SHOPIFY_API_KEY: "", SHOPIFY_API_SECRET: "" });
    expect(both.split("\n").filter((line) => line.includes("is set but blank"))).toHaveLength(2);
    // A blank one beside given ones is the embedded check's "is required".
    expect(failure({ SHOPIFY_API_KEY: "k", SHOPIFY_API_SECRET: "", SHOPIFY_APP_URL: "https://ops.example.com" })).toContain(
      "SHOPIFY_API_SECRET is required for embedded mode",
    );
  });

  it("reads OUTBOUND_ALLOW as range words, addresses and CIDRs, and names what it cannot read (D195)", () => {
    expect(parseEnv({ OUTBOUND_ALLOW: "loopback, 10.20.0.0/16, fd00::5" }).OUTBOUND_ALLOW).toBe("loopback, 10.20.0.0/16, fd00::5");
    expect(parseEnv({ OUTBOUND_ALLOW: "none" }).OUTBOUND_ALLOW).toBe("none");
    expect(failure({ OUTBOUND_ALLOW: "everything" })).toContain("OUTBOUND_ALLOW must be none, or a comma list of loopback, link-local, private");
  });

  it("treats blank variables as unset and checks the time zone", () => {
    expect(parseEnv({ DATABASE_URL: "", PORT: "" }).PORT).toBe(3000);
    expect(failure({ APP_TIMEZONE: "Mars/Olympus" })).toContain("APP_TIMEZONE must be an IANA time zone");
  });

  it("requires AS400_HOST_KEY in embedded mode when the AS400 uses SFTP: its key is not trusted on first use", () => {
    const as400 = { AS400_HOST: "as400.example.com", AS400_USER: "ops" };
    const key = `SHA256:${Buffer.alloc(32, 9).toString("base64").replace(/=+$/, "")}`;
    const needed = "AS400_HOST_KEY is required in embedded mode when the AS400 uses SFTP";
    expect(failure({ ...EMBEDDED, ...as400 })).toContain(needed);
    expect(failure({ ...EMBEDDED, ...as400, AS400_TRANSFER_MECHANISM: "1" })).toContain(needed);
    expect(parseEnv({ ...EMBEDDED, ...as400, AS400_HOST_KEY: key }).AS400_HOST_KEY).toBe(key);
    // FTP has no host key; no AS400 needs none; local mode keeps trusting on first use (the demo sets it anyway).
    expect(parseEnv({ ...EMBEDDED, ...as400, AS400_TRANSFER_MECHANISM: "2" }).mode).toBe("embedded");
    expect(parseEnv(EMBEDDED).mode).toBe("embedded");
    expect(parseEnv(as400).mode).toBe("local");
    // A fingerprint is SHA256: and the base64 of 32 bytes.
    expect(failure({ ...EMBEDDED, ...as400, AS400_HOST_KEY: "SHA256:abc" })).toContain("AS400_HOST_KEY must be an SSH key fingerprint");
    expect(parseEnv({ ...EMBEDDED, ...as400, AS400_HOST_KEY: `${key}=` }).mode).toBe("embedded");
  });

  it("reads the pool sizes, the web statement timeout and the shutdown grace, with defaults, and refuses bad ones (D67, D68)", () => {
    expect(parseEnv({})).toMatchObject({
      DATABASE_POOL_SIZE: 10,
      JOBS_DATABASE_POOL_SIZE: 10,
      FEED_LOCK_POOL_SIZE: 10,
      WEB_STATEMENT_TIMEOUT_MS: 15_000,
      SHUTDOWN_GRACE_MS: 25_000,
    });
    expect(databaseSettings({ DATABASE_POOL_SIZE: "4", WEB_STATEMENT_TIMEOUT_MS: "0", SHOPIFY_API_KEY: "" })).toMatchObject({
      DATABASE_POOL_SIZE: 4,
      WEB_STATEMENT_TIMEOUT_MS: 0,
    });
    const message = failure({
      DATABASE_POOL_SIZE: "0",
      JOBS_DATABASE_POOL_SIZE: "many",
      FEED_LOCK_POOL_SIZE: "2.5",
      WEB_STATEMENT_TIMEOUT_MS: "-1",
      SHUTDOWN_GRACE_MS: "soon",
    });
    expect(message).toContain("DATABASE_POOL_SIZE must be a number of connections from 1 to 200");
    expect(message).toContain("JOBS_DATABASE_POOL_SIZE must be a number of connections from 1 to 200");
    expect(message).toContain("FEED_LOCK_POOL_SIZE must be a number of connections from 1 to 200");
    expect(message).toContain("WEB_STATEMENT_TIMEOUT_MS must be a number of milliseconds, 0 or more");
    expect(message).toContain("SHUTDOWN_GRACE_MS must be a number of milliseconds");
    expect(() => databaseSettings({ DATABASE_POOL_SIZE: "0" })).toThrow(/DATABASE_POOL_SIZE must be a number of connections/);
  });

  it("reads the log level and format: info by default, JSON in production or embedded mode, pretty in local mode (D85)", () => {
    expect(parseEnv({}).LOG_LEVEL).toBe("info");
    expect(parseEnv({ LOG_LEVEL: "debug", LOG_FORMAT: "json" })).toMatchObject({ LOG_LEVEL: "debug", LOG_FORMAT: "json" });
    const message = failure({ LOG_LEVEL: "verbose", LOG_FORMAT: "xml" });
    expect(message).toContain("LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent");
    expect(message).toContain("LOG_FORMAT must be json or pretty");
    expect(logSettings({})).toMatchObject({ LOG_LEVEL: "info", format: "pretty" });
    expect(logSettings({ NODE_ENV: "production" }).format).toBe("json");
    expect(logSettings({ SHOPIFY_API_KEY: "k" }).format).toBe("json");
    expect(logSettings({ SHOPIFY_API_KEY: "k", LOG_FORMAT: "pretty" }).format).toBe("pretty");
    // A bad value does not stop the logger (the launcher's check names it); the other one still counts.
    expect(logSettings({ LOG_LEVEL: "verbose", LOG_FORMAT: "json" })).toMatchObject({ LOG_LEVEL: "info", format: "json" });
  });

  it("takes a METRICS_TOKEN of 32 characters or more, and wants one for the worker's METRICS_PORT in embedded mode (D88, D89)", () => {
    expect(failure({ METRICS_TOKEN: "short" })).toContain("METRICS_TOKEN must be at least 32 characters");
    expect(failure({ ...EMBEDDED, METRICS_PORT: "9464" })).toContain("METRICS_TOKEN is required in embedded mode when METRICS_PORT is set");
    expect(parseEnv({ ...EMBEDDED, METRICS_PORT: "9464", METRICS_TOKEN: "x".repeat(32) })).toMatchObject({ METRICS_PORT: 9464 });
    expect(parseEnv({ METRICS_PORT: "9464" }).METRICS_PORT).toBe(9464);
    expect(failure({ METRICS_PORT: "0" })).toMatch(/METRICS_PORT must be a port number/);
  });
});
