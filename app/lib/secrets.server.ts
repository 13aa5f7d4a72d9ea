// Secrets at rest (vendor passwords): AES-256-GCM with a key from
// APP_SECRET_KEY (32 bytes, base64). Local mode without one generates a key and
// keeps it in DATA_DIR/secret.key (mode 0600), so restarts can still decrypt.
// Stored form: "v1:<iv>:<tag>:<ciphertext>", all base64.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "~/env.server";

const PREFIX = "v1";
let cachedKey: Buffer | undefined;

export function parseSecretKey(value: string): Buffer {
  const key = Buffer.from(value.trim(), "base64");
  if (key.length !== 32) throw new Error("APP_SECRET_KEY must be 32 bytes in base64 (openssl rand -base64 32)");
  return key;
}

function secretKey(): Buffer {
  if (cachedKey) return cachedKey;
  const config = env();
  if (config.APP_SECRET_KEY) return (cachedKey = parseSecretKey(config.APP_SECRET_KEY));
  if (config.mode !== "local") throw new Error("APP_SECRET_KEY is required in embedded mode");
  const file = path.resolve(config.DATA_DIR, "secret.key");
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    // "wx": two processes starting at once cannot overwrite each other's key.
    try {
      writeFileSync(file, randomBytes(32).toString("base64") + "\n", { mode: 0o600, flag: "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  return (cachedKey = parseSecretKey(readFileSync(file, "utf8")));
}

export function encryptSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", secretKey(), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [PREFIX, iv.toString("base64"), cipher.getAuthTag().toString("base64"), data.toString("base64")].join(":");
}

/** A stored password that cannot be used; `code` (under `secrets.errors.`) says why in the reader's language (D117). */
export class SecretError extends Error {
  constructor(
    readonly code: "malformed" | "undecryptable",
    message: string,
  ) {
    super(message);
    this.name = "SecretError";
  }
}

export function decryptSecret(stored: string): string {
  const [prefix, iv, tag, data] = stored.split(":");
  if (prefix !== PREFIX || !iv || !tag || data === undefined)
    throw new SecretError("malformed", "The stored secret is not in the expected form; enter the password again.");
  try {
    const decipher = createDecipheriv("aes-256-gcm", secretKey(), Buffer.from(iv, "base64"));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretError("undecryptable", "The stored password cannot be decrypted with this APP_SECRET_KEY; enter the password again.");
  }
}

/** For tests: forget the cached key (after changing the environment). */
export function resetSecretKeyForTests() {
  cachedKey = undefined;
}
