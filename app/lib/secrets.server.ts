// Secrets at rest (vendor passwords, Shopify's offline token): AES-256-GCM
// with a key from APP_SECRET_KEY (32 bytes, base64). Local mode without one
// generates a key and keeps it in DATA_DIR/secret.key (mode 0600), so restarts
// can still decrypt.
// Stored form (D208): "v2:<kid>:<iv>:<tag>:<ciphertext>", all base64 but kid:
//   kid   the key's id (the first 8 bytes of SHA-256 over the key, hex), so a
//         record names the key it needs: APP_SECRET_KEY or, after a rotation,
//         APP_SECRET_KEY_PREVIOUS;
//   AAD   what the secret belongs to (e.g. "vendor:12:sftp_pass"): a value
//         copied to another row does not decrypt there;
//   tag   16 bytes, required (GCM would accept a truncated one).
// "v1:<iv>:<tag>:<ciphertext>" (no kid, no AAD) is still read, with either key,
// and rewritten as v2 on the next save or by `npm run secrets:rotate` (D209).
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "~/env.server";

const CURRENT_FORMAT = "v2";
const LEGACY_FORMAT = "v1";
const TAG_BYTES = 16;

interface SecretKey {
  id: string;
  key: Buffer;
}
let cachedKeys: { current: SecretKey; previous?: SecretKey } | undefined;

export function parseSecretKey(value: string): Buffer {
  const key = Buffer.from(value.trim(), "base64");
  if (key.length !== 32) throw new Error("APP_SECRET_KEY must be 32 bytes in base64 (openssl rand -base64 32)");
  return key;
}

/** A key's id: names it in every record without revealing it. */
export const secretKeyId = (key: Buffer) => createHash("sha256").update(key).digest().subarray(0, 8).toString("hex");

const withId = (key: Buffer): SecretKey => ({ id: secretKeyId(key), key });

function secretKeys() {
  if (cachedKeys) return cachedKeys;
  const config = env();
  const previous = config.APP_SECRET_KEY_PREVIOUS ? withId(parseSecretKey(config.APP_SECRET_KEY_PREVIOUS)) : undefined;
  return (cachedKeys = { current: withId(currentKey()), previous });
}

function currentKey(): Buffer {
  const config = env();
  if (config.APP_SECRET_KEY) return parseSecretKey(config.APP_SECRET_KEY);
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
  return parseSecretKey(readFileSync(file, "utf8"));
}

/** What a vendor's SFTP/FTP password is bound to: its row. */
export const vendorPasswordBinding = (vendorId: number) => `vendor:${vendorId}:sftp_pass`;
/** What a Shopify session's token is bound to: its session id (D211). */
export const sessionTokenBinding = (sessionId: string, field: "accessToken" | "refreshToken") => `session:${sessionId}:${field}`;

/** Encrypts `plain` with the current key, bound to `boundTo` (the row and column it is stored in). */
export function encryptSecret(plain: string, boundTo: string): string {
  const { current } = secretKeys();
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", current.key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(boundTo, "utf8"));
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [CURRENT_FORMAT, current.id, iv.toString("base64"), cipher.getAuthTag().toString("base64"), data.toString("base64")].join(":");
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

const malformed = () => new SecretError("malformed", "The stored secret is not in the expected form; enter the password again.");
const undecryptable = () => new SecretError("undecryptable", "The stored password cannot be decrypted with this APP_SECRET_KEY; enter the password again.");

/** Whether `stored` is in one of this module's forms (not, say, a token stored before encryption). */
export const isEncryptedSecret = (stored: string) => stored.startsWith(`${CURRENT_FORMAT}:`) || stored.startsWith(`${LEGACY_FORMAT}:`);

/** Whether `stored` should be written again: the legacy form, or another key than the current one. */
export function needsReencryption(stored: string): boolean {
  return !stored.startsWith(`${CURRENT_FORMAT}:${secretKeys().current.id}:`);
}

export function decryptSecret(stored: string, boundTo: string): string {
  const parts = stored.split(":");
  if (parts[0] === CURRENT_FORMAT && parts.length === 5) {
    const [, kid, iv, tag, data] = parts;
    const { current, previous } = secretKeys();
    const key = [current, previous].find((candidate) => candidate?.id === kid);
    if (!key) throw undecryptable();
    return open(key.key, iv, tag, data, boundTo);
  }
  if (parts[0] === LEGACY_FORMAT && parts.length === 4) {
    // Legacy: no key id and no binding; either key may have written it.
    const [, iv, tag, data] = parts;
    const { current, previous } = secretKeys();
    for (const key of previous ? [current, previous] : [current]) {
      try {
        return open(key.key, iv, tag, data, null);
      } catch (error) {
        if (!(error instanceof SecretError) || error.code !== "undecryptable") throw error;
      }
    }
    throw undecryptable();
  }
  throw malformed();
}

function open(key: Buffer, iv: string, tag: string, data: string, boundTo: string | null): string {
  const tagBytes = Buffer.from(tag, "base64");
  const ivBytes = Buffer.from(iv, "base64");
  if (tagBytes.length !== TAG_BYTES || ivBytes.length !== 12) throw malformed();
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, ivBytes, { authTagLength: TAG_BYTES });
    if (boundTo !== null) decipher.setAAD(Buffer.from(boundTo, "utf8"));
    decipher.setAuthTag(tagBytes);
    return Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]).toString("utf8");
  } catch {
    throw undecryptable();
  }
}

/** For tests: forget the cached keys (after changing the environment). */
export function resetSecretKeyForTests() {
  cachedKeys = undefined;
}
