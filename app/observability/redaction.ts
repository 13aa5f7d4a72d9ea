// What never reaches a log line, by the key that holds it (D87): any value
// whose path ends in one of these keys is replaced by "[Redacted]", at any
// depth (`{ vendor: { connection: { sftp_pass } } }`), in arrays too. The
// logger applies it to every line (its `formatters.log`), copying only the
// objects on the way to a secret: what the caller logged is not changed.
// Pino's own wildcard paths (`*.password`, `*.*.password`) did the same to a
// fixed depth at 60-200 µs a line (about 20 times a line's cost); this walk
// costs about a microsecond for a request line.
// Error objects and class instances are left as they are: a secret in an
// error's message cannot be found by its key anyway.

/** The secret keys, grouped by what they hold. Case counts: both spellings the code uses are listed. */
export const SECRET_KEYS = {
  passwords: ["password", "passwd", "pass", "passphrase", "sftp_pass", "AS400_PASSWORD"],
  tokens: [
    "token",
    "accessToken",
    "access_token",
    "refreshToken",
    "refresh_token",
    "idToken",
    "id_token",
    "sessionToken",
    "session_token",
    "subject_token",
    "EOD_API_TOKEN",
    "METRICS_TOKEN",
    "hmac",
  ],
  keys: ["secret", "apiSecret", "apiSecretKey", "SHOPIFY_API_SECRET", "APP_SECRET_KEY", "privateKey", "private_key"],
  // A connection string carries the database password.
  connections: ["DATABASE_URL", "databaseUrl", "connectionString"],
  headers: ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-shopify-access-token", "x-shopify-hmac-sha256"],
} as const;

const SECRET = new Set<string>(Object.values(SECRET_KEYS).flat());
const REDACTED = "[Redacted]";
/** Deeper than this is logged as it is: no log line of the app nests that far. */
const MAX_DEPTH = 10;

const isPlainObject = (value: object): value is Record<string, unknown> => {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/** `value` with every secret key's value replaced; the same object when it holds none. */
export function redactSecrets<T>(value: T, depth = 0): T {
  if (value === null || typeof value !== "object" || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const redacted = redactSecrets(item, depth + 1);
      if (redacted !== item) (copy ??= value.slice())[index] = redacted;
    });
    return (copy ?? value) as T;
  }
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const item = value[key];
    const redacted = SECRET.has(key) && item !== undefined ? REDACTED : redactSecrets(item, depth + 1);
    if (redacted !== item) (copy ??= { ...value })[key] = redacted;
  }
  return (copy ?? value) as T;
}
