// Secrets at rest (D208, D209): a key id for rotation, the row bound as
// associated data, a full 16-byte tag, and the legacy v1 form still read.
import { createCipheriv, randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret, needsReencryption, secretKeyId, SecretError, vendorPasswordBinding } from "./secrets.server";
import { restoreKeys, useKeys } from "../../tests/support/secret-keys";

const OLD_KEY = Buffer.alloc(32, 1);
const NEW_KEY = Buffer.alloc(32, 2);
function refusal(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SecretError);
    return (error as SecretError).code;
  }
  return undefined;
}

/** The form stored before key ids: "v1:<iv>:<tag>:<ciphertext>", no associated data. */
function legacyV1(plain: string, key: Buffer) {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), data.toString("base64")].join(":");
}

beforeEach(() => useKeys(OLD_KEY));
afterEach(() => {
  restoreKeys();
});

describe("secrets at rest", () => {
  it("names its key, and decrypts only for the row it was written for", () => {
    const stored = encryptSecret("s3cret-pass", vendorPasswordBinding(7));
    expect(stored.split(":").slice(0, 2)).toEqual(["v2", secretKeyId(OLD_KEY)]);
    expect(decryptSecret(stored, vendorPasswordBinding(7))).toBe("s3cret-pass");
    // Copied to another vendor's row, it is of no use there.
    expect(refusal(() => decryptSecret(stored, vendorPasswordBinding(8)))).toBe("undecryptable");
  });

  it("refuses a shortened tag", () => {
    const [format, kid, iv, tag, data] = encryptSecret("s3cret-pass", "vendor:7:sftp_pass").split(":");
    const short = Buffer.from(tag, "base64").subarray(0, 4).toString("base64");
    expect(refusal(() => decryptSecret([format, kid, iv, short, data].join(":"), "vendor:7:sftp_pass"))).toBe("malformed");
    const legacy = legacyV1("s3cret-pass", OLD_KEY).split(":");
    legacy[2] = Buffer.from(legacy[2], "base64").subarray(0, 4).toString("base64");
    expect(refusal(() => decryptSecret(legacy.join(":"), "vendor:7:sftp_pass"))).toBe("malformed");
  });

  it("still decrypts what the previous key wrote after a rotation, and says it should be written again", () => {
    const before = encryptSecret("s3cret-pass", vendorPasswordBinding(7));
    const legacy = legacyV1("old-form", OLD_KEY);
    useKeys(NEW_KEY, OLD_KEY);
    expect(decryptSecret(before, vendorPasswordBinding(7))).toBe("s3cret-pass");
    expect(decryptSecret(legacy, vendorPasswordBinding(7))).toBe("old-form");
    expect(needsReencryption(before)).toBe(true);
    expect(needsReencryption(legacy)).toBe(true);
    const rewritten = encryptSecret("s3cret-pass", vendorPasswordBinding(7));
    expect(needsReencryption(rewritten)).toBe(false);
    expect(rewritten.split(":")[1]).toBe(secretKeyId(NEW_KEY));
    // Without the previous key, its records cannot be read: they name a key that is not there.
    useKeys(NEW_KEY);
    expect(refusal(() => decryptSecret(before, vendorPasswordBinding(7)))).toBe("undecryptable");
    expect(decryptSecret(rewritten, vendorPasswordBinding(7))).toBe("s3cret-pass");
  });

  it("reads the legacy form with the current key", () => {
    expect(decryptSecret(legacyV1("old-form", OLD_KEY), vendorPasswordBinding(3))).toBe("old-form");
    expect(refusal(() => decryptSecret(legacyV1("old-form", NEW_KEY), vendorPasswordBinding(3)))).toBe("undecryptable");
    expect(refusal(() => decryptSecret("plain-text", vendorPasswordBinding(3)))).toBe("malformed");
  });
});
