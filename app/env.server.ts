// The environment, read and checked once. A bad or missing variable stops the
// start with one line per problem instead of a failure somewhere later.
import { z } from "zod";
import { normaliseFingerprint, parseOutboundAllow } from "@edi/transport";

const flag = z.enum(["1", "0", "true", "false", "yes", "no"]).transform((value) => ["1", "true", "yes"].includes(value));

const port = z.coerce
  .number({ message: "must be a port number from 1 to 65535" })
  .int("must be a port number from 1 to 65535")
  .min(1, "must be a port number from 1 to 65535")
  .max(65535, "must be a port number from 1 to 65535");

const poolSize = z.coerce
  .number({ message: "must be a number of connections from 1 to 200" })
  .int("must be a number of connections from 1 to 200")
  .min(1, "must be a number of connections from 1 to 200")
  .max(200, "must be a number of connections from 1 to 200");

const milliseconds = z.coerce
  .number({ message: "must be a number of milliseconds" })
  .int("must be a whole number of milliseconds")
  .min(0, "must be a number of milliseconds, 0 or more")
  .max(3_600_000, "must be at most 3600000 (an hour)");

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  // 0: any free port, told in the "serving" line (the tests start many apps at once).
  PORT: z.coerce
    .number({ message: "must be a port number from 0 to 65535" })
    .int("must be a port number from 0 to 65535")
    .min(0, "must be a port number from 0 to 65535")
    .max(65535, "must be a port number from 0 to 65535")
    .default(3000),
  HOST: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default(".data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// connection string")
    .optional(),
  /** Connections of the pool that web requests use (each process: web instances and npm start). */
  DATABASE_POOL_SIZE: poolSize.default(10),
  /** Connections of the pool that jobs use (feed runs, the EOD work), in each process that runs them. */
  JOBS_DATABASE_POOL_SIZE: poolSize.default(10),
  /** Connections holding the feeds' advisory locks: one per feed running in this process at once. */
  FEED_LOCK_POOL_SIZE: poolSize.default(10),
  /** PostgreSQL statement_timeout of the web requests' connections (0: none). Jobs have none (D67). */
  WEB_STATEMENT_TIMEOUT_MS: milliseconds.default(15_000),
  /** After SIGTERM/SIGINT: how long requests in flight and running feeds get to end before they are cut (D68). */
  SHUTDOWN_GRACE_MS: milliseconds.default(25_000),
  PG_PORT: port.default(54329),
  SHOPIFY_API_KEY: z.string().min(1).optional(),
  SHOPIFY_API_SECRET: z.string().min(1).optional(),
  SHOPIFY_APP_URL: z.url({ message: "must be the app's public URL, e.g. https://ops.example.com" }).optional(),
  /** Admin API access scopes; unset: what the app needs (APP_SCOPES, app/shopify/access-scopes.ts). */
  SCOPES: z.string().min(1).optional(),
  /** The merchant's shop or shops (comma-separated *.myshopify.com): the only ones served in embedded mode. */
  SHOPIFY_SHOPS: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((shop) => shop.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/, "must list shop domains such as my-shop.myshopify.com, separated by commas")).min(1))
    .optional(),
  /** Shop domain used for Shopify calls in local mode (answered by the stand-in). */
  LOCAL_SHOP: z
    .string()
    .regex(/^[a-z0-9-]+\.myshopify\.com$/)
    .default("demo-shop.myshopify.com"),
  /** Where the Shopify stand-in listens; set by the launcher in local mode. */
  SHOPIFY_STAND_IN_URL: z.url().optional(),
  ALLOW_LOCAL_MODE_IN_PRODUCTION: flag.default(false),
  SEED_DEMO_DATA: flag.default(true),
  /** Runs the feeds on their schedules in this process; 0 in web instances when `npm run jobs` runs them. */
  SCHEDULER: flag.default(true),
  /** Local mode: the loopback SFTP server and simulated vendor that answer the demo vendors' 850s. */
  DEMO_VENDOR: flag.default(true),
  /** 32 bytes, base64: encrypts vendor passwords at rest. Local mode keeps a generated one in DATA_DIR. */
  APP_SECRET_KEY: z
    .string()
    .refine((value) => Buffer.from(value.trim(), "base64").length === 32, "must be 32 bytes in base64 (openssl rand -base64 32)")
    .optional(),
  /** The key before the last rotation: still decrypts what it encrypted until `npm run secrets:rotate` (docs/operations.md). */
  APP_SECRET_KEY_PREVIOUS: z
    .string()
    .refine((value) => Buffer.from(value.trim(), "base64").length === 32, "must be 32 bytes in base64 (openssl rand -base64 32)")
    .optional(),
  /** Our identity in X12 envelopes (ISA06/GS02), and the one used with vendors in test mode. */
  EDI_SENDER_QUALIFIER: z
    .string()
    .regex(/^[A-Z0-9]{2}$/, "must be two capitals or digits, e.g. ZZ")
    .default("ZZ"),
  EDI_SENDER_ID: z
    .string()
    .regex(/^[A-Za-z0-9 ]{1,15}$/, "must be 1 to 15 letters, digits or spaces")
    .default("HOUSEROPS"),
  EDI_TEST_SENDER_ID: z
    .string()
    .regex(/^[A-Za-z0-9 ]{1,15}$/, "must be 1 to 15 letters, digits or spaces")
    .optional(),
  /** The AS400 / order-system file exchange: the same transport as vendors. */
  AS400_TRANSFER_MECHANISM: z.enum(["1", "2", "3"]).transform(Number).optional(),
  AS400_HOST: z.string().min(1).optional(),
  AS400_PORT: port.optional(),
  AS400_USER: z.string().min(1).optional(),
  AS400_PASSWORD: z.string().optional(),
  AS400_HOST_KEY: z
    .string()
    .refine(
      (value) => normaliseFingerprint(value) !== null,
      "must be an SSH key fingerprint: SHA256: and the base64 of 32 bytes, as ssh-keygen -lf prints it (an SFTP host key's, or an FTPS certificate's)",
    )
    .optional(),
  /** Explicit FTPS (AUTH TLS, PROT P) for AS400_TRANSFER_MECHANISM 2 or 3; ignored for SFTP. */
  AS400_FTP_TLS: z.enum(["0", "1"]).transform(Number).optional(),
  /**
   * Which refused address ranges a vendor's or the AS400's host may still resolve to (D195): words
   * (loopback, link-local, private, unspecified, multicast, reserved) and addresses or CIDRs, comma-separated.
   * Unset: none in embedded mode, loopback in local mode (the demo vendor). The app's database is refused always.
   */
  OUTBOUND_ALLOW: z
    .string()
    .refine(
      (value) => !("problems" in parseOutboundAllow(value)),
      "must be none, or a comma list of loopback, link-local, private, unspecified, multicast, reserved, addresses or CIDRs (10.20.0.0/16)",
    )
    .optional(),
  /**
   * Where Needs attention e-mails go out (issue 30): smtp://user:pass@host:587 (STARTTLS when the server offers it)
   * or smtps://user:pass@host:465. Unset: no e-mail is sent, and Settings says so. The host passes OUTBOUND_ALLOW.
   */
  SMTP_URL: z
    .string()
    .trim()
    .refine((value) => /^smtps?:\/\/[^\s/]+/i.test(value) && URL.canParse(value), "must be smtp://user:password@host:port or smtps://…")
    .optional(),
  /** The From of alert e-mails. */
  SMTP_FROM: z.string().trim().min(3).default("Back office alerts <alerts@localhost>"),
  /** The largest vendor or AS400 file a download takes (it is held in memory while it is stored). */
  MAX_DOWNLOAD_MB: z.coerce
    .number({ message: "must be a number of megabytes" })
    .positive("must be a number of megabytes above 0")
    .max(2048, "must be at most 2048")
    .default(100),
  /** An AS400 file modified at least this long ago is taken at once; a younger one only when two listings agree (D60). */
  AS400_MIN_FILE_AGE_SECONDS: z.coerce
    .number({ message: "must be a number of seconds" })
    .int("must be a whole number of seconds")
    .min(0, "must be 0 or more")
    .max(86_400, "must be at most 86400")
    .default(60),
  /** The pause between the two listings of a vendor's or the AS400's folder that tell a file still being written (D60). */
  INCOMING_SETTLE_SECONDS: z.coerce.number({ message: "must be a number of seconds" }).min(0, "must be 0 or more").max(120, "must be at most 120").default(5),
  /** Files taken from one vendor's or AS400 folder per run, oldest first; the rest at the next runs (D180). */
  MAX_FILES_PER_FOLDER: z.coerce
    .number({ message: "must be a number of files" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(20_000, "must be at most 20000")
    .default(500),
  /** An AS400 file still changing across runs is left this long at most, then taken as it is (D181; vendors: their own field). */
  AS400_INCOMING_MAX_WAIT_MINUTES: z.coerce
    .number({ message: "must be a number of minutes" })
    .int("must be a whole number of minutes")
    .min(1, "must be at least 1")
    .max(10_080, "must be at most 10080")
    .default(60),
  /** Lets an outside caller (a scheduler, the AS400) run or retry the EOD report at /api/eod_report_run/{token} (D32). */
  EOD_API_TOKEN: z.string().trim().min(24, "must be at least 24 characters (openssl rand -hex 16)").optional(),
  /** How much the app logs (D85): fatal, error, warn, info, debug, trace or silent. */
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], { message: "must be one of fatal, error, warn, info, debug, trace, silent" })
    .default("info"),
  /** json (one object a line) or pretty (for a person at a terminal); unset: json in production or embedded mode, else pretty (D85). */
  LOG_FORMAT: z.enum(["json", "pretty"], { message: "must be json or pretty" }).optional(),
  /** Lets a scraper read GET /metrics (Authorization: Bearer <token>); required for /metrics in embedded mode (D88). */
  METRICS_TOKEN: z.string().trim().min(32, "must be at least 32 characters (openssl rand -hex 32)").optional(),
  /** The jobs worker (`npm run jobs`) serves GET /metrics on this port when set (D89). */
  METRICS_PORT: port.optional(),
  APP_TIMEZONE: z
    .string()
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat("en-US", { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, "must be an IANA time zone such as America/New_York")
    .default("America/New_York"),
});

// Checks across variables, run even when single variables are bad so that one
// start shows every problem.
const shopifyKeys = ["SHOPIFY_API_KEY", "SHOPIFY_API_SECRET", "SHOPIFY_APP_URL"] as const;

function crossChecks(env: Record<string, string | undefined>, source: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  const given = shopifyKeys.filter((key) => env[key]);
  // A Shopify variable set but blank is a deployment gone wrong (a secret not
  // filled in), not a request for local mode, which has no login (D54).
  if (given.length === 0) {
    for (const key of shopifyKeys.filter((key) => source[key] !== undefined && source[key]!.trim() === "")) {
      problems.push(
        `${key} is set but blank: local mode (no authentication) does not start that way. ` +
          `Unset it for local mode, or set all three Shopify variables for embedded mode`,
      );
    }
  }
  if (given.length > 0 && given.length < shopifyKeys.length) {
    for (const key of shopifyKeys.filter((key) => !env[key])) {
      problems.push(`${key} is required for embedded mode (${given.join(", ")} ${given.length > 1 ? "are" : "is"} set)`);
    }
  }
  if (given.length === shopifyKeys.length && !env.SHOPIFY_SHOPS) {
    problems.push("SHOPIFY_SHOPS is required in embedded mode: the merchant's shop domains, e.g. my-shop.myshopify.com (the app serves no other shop)");
  }
  if (given.length === shopifyKeys.length && !env.APP_SECRET_KEY) {
    problems.push("APP_SECRET_KEY is required in embedded mode: it encrypts vendor passwords (openssl rand -base64 32)");
  }
  if (env.AS400_HOST && !env.AS400_USER) problems.push("AS400_USER is required when AS400_HOST is set");
  // Embedded mode does not trust the AS400's key on first use: nothing would keep a pin across instances and restarts (D64).
  if (given.length === shopifyKeys.length && env.AS400_HOST && [undefined, "1"].includes(env.AS400_TRANSFER_MECHANISM) && !env.AS400_HOST_KEY) {
    problems.push(
      "AS400_HOST_KEY is required in embedded mode when the AS400 uses SFTP (AS400_TRANSFER_MECHANISM 1 " +
        "or unset): its host key fingerprint, SHA256:... (ssh-keyscan -t ed25519 <host> | ssh-keygen -lf -)",
    );
  }
  if (given.length === shopifyKeys.length && env.NODE_ENV === "production" && !env.DATABASE_URL) {
    problems.push(
      "DATABASE_URL is required in embedded mode under NODE_ENV=production: an embedded PostgreSQL on a container's disk is lost at the next deploy",
    );
  }
  // The worker's metrics listener would answer only 404 without a token in embedded mode (D88, D89).
  if (given.length === shopifyKeys.length && env.METRICS_PORT && !env.METRICS_TOKEN) {
    problems.push("METRICS_TOKEN is required in embedded mode when METRICS_PORT is set: /metrics answers only with the token (openssl rand -hex 32)");
  }
  const production = env.NODE_ENV === "production";
  const allowed = ["1", "true", "yes"].includes(env.ALLOW_LOCAL_MODE_IN_PRODUCTION ?? "");
  if (given.length === 0 && production && !allowed) {
    problems.push(
      "SHOPIFY_API_KEY is missing and NODE_ENV is production: local mode has no authentication. " +
        "Set the Shopify credentials, or ALLOW_LOCAL_MODE_IN_PRODUCTION=1 if you mean it",
    );
  }
  return problems;
}

export type AppEnv = z.infer<typeof EnvSchema> & {
  mode: "embedded" | "local";
  /** The shops this app serves: SHOPIFY_SHOPS in embedded mode, LOCAL_SHOP in local mode. */
  shops: string[];
  /** Interface the HTTP server binds to: loopback only in local mode. */
  listenHost: string;
};

export class EnvError extends Error {}

export function parseEnv(source: Record<string, string | undefined> = process.env): AppEnv {
  // Blank variables count as unset, as in most deployment tools (the Shopify ones are checked in crossChecks).
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([key, value]) => value !== "" && !((shopifyKeys as readonly string[]).includes(key) && value?.trim() === "")),
  );
  const result = EnvSchema.safeParse(cleaned);
  const problems = [
    ...(result.success ? [] : result.error.issues.map((issue) => `${String(issue.path[0])} ${issue.message}`)),
    ...crossChecks(cleaned, source),
  ];
  if (!result.success || problems.length) {
    throw new EnvError(`The environment is not usable:\n${problems.map((line) => `  - ${line}`).join("\n")}`);
  }
  const env = result.data;
  const mode = env.SHOPIFY_API_KEY ? "embedded" : "local";
  const shops = mode === "local" ? [env.LOCAL_SHOP] : (env.SHOPIFY_SHOPS ?? []);
  return { ...env, mode, shops, listenHost: mode === "local" ? "127.0.0.1" : (env.HOST ?? "0.0.0.0") };
}

/** For the launchers (npm start, npm run jobs): the environment, or its problems printed and exit 1. */
export function parseEnvOrExit(): AppEnv {
  try {
    return parseEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      // Plain text, not through the logger: the environment configures the logger, and a person reads this.
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

const DATABASE_KEYS = {
  DATABASE_POOL_SIZE: true,
  JOBS_DATABASE_POOL_SIZE: true,
  FEED_LOCK_POOL_SIZE: true,
  WEB_STATEMENT_TIMEOUT_MS: true,
  SHUTDOWN_GRACE_MS: true,
} as const;
export type DatabaseSettings = Pick<z.infer<typeof EnvSchema>, keyof typeof DATABASE_KEYS>;

/**
 * The pool sizes, timeouts and grace only: what the database clients need
 * when they are created, without failing on an unrelated variable (the
 * launchers have checked the whole environment already).
 */
export function databaseSettings(source: Record<string, string | undefined> = process.env): DatabaseSettings {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = EnvSchema.pick(DATABASE_KEYS).safeParse(cleaned);
  if (!result.success) {
    throw new EnvError(`The environment is not usable:\n${result.error.issues.map((issue) => `  - ${String(issue.path[0])} ${issue.message}`).join("\n")}`);
  }
  return result.data;
}

let cached: AppEnv | undefined;
export function env(): AppEnv {
  cached ??= parseEnv();
  return cached;
}

/** The launcher sets variables it discovers at start (the stand-in's URL, the demo AS400): read them again. */
export function reloadEnv() {
  cached = undefined;
}

type LogKey = "LOG_LEVEL" | "LOG_FORMAT" | "NODE_ENV";
export type LogSettings = Pick<z.infer<typeof EnvSchema>, LogKey> & { format: "json" | "pretty" };

/**
 * The logger's level and format (D85), read before anything else: a bad value
 * here falls back to the default, and the launcher's full check names it.
 * Unset LOG_FORMAT: JSON under NODE_ENV=production or in embedded mode (a log
 * collector reads it), pretty lines otherwise (local mode, a person reads it).
 */
export function logSettings(source: Record<string, string | undefined> = process.env): LogSettings {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  // Each on its own: a bad LOG_FORMAT does not cost the LOG_LEVEL.
  const one = <K extends LogKey>(key: K): z.infer<typeof EnvSchema>[K] => {
    const parsed = EnvSchema.shape[key].safeParse(cleaned[key]);
    return (parsed.success ? parsed.data : EnvSchema.shape[key].parse(undefined)) as z.infer<typeof EnvSchema>[K];
  };
  const settings = { LOG_LEVEL: one("LOG_LEVEL"), LOG_FORMAT: one("LOG_FORMAT"), NODE_ENV: one("NODE_ENV") };
  const embedded = Boolean(source.SHOPIFY_API_KEY?.trim());
  const format = settings.LOG_FORMAT ?? (settings.NODE_ENV === "production" || embedded ? "json" : "pretty");
  return { ...settings, format };
}
