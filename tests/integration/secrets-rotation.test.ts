// Secrets at rest against PostgreSQL (D208, D209, D211): a vendor password
// copied to another vendor's row is of no use there; after APP_SECRET_KEY is
// changed (the old one kept as APP_SECRET_KEY_PREVIOUS) everything still
// decrypts, and `npm run secrets:rotate` writes every record again with the new
// key, v1 passwords and plain-text Shopify tokens included.
import { createCipheriv, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "../../app/db/client.server";
import { vendorConnectionSettings } from "../../app/dropship/vendor-connection.server";
import { rotateStoredSecrets } from "../../app/db/secret-rotation.server";
import { decryptSecret, encryptSecret, secretKeyId, SecretError, sessionTokenBinding, vendorPasswordBinding } from "../../app/lib/secrets.server";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { restoreKeys, useKeys } from "../support/secret-keys";

const OLD_KEY = Buffer.alloc(32, 4);
const NEW_KEY = Buffer.alloc(32, 5);
let database: TestDatabase;
let db: ReturnType<typeof createPrismaClient>;

/** A password as stored before key ids (v1, no associated data). */
function legacyV1(plain: string, key: Buffer) {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), data.toString("base64")].join(":");
}

const vendorRow = (name: string, storeId: string) =>
  db.vendor.create({ data: { name, store_id: storeId, enabled: 1, transfer_mechanism_id: 1, sftp_host: "sftp.example.com", sftp_user: "ops" } });

beforeAll(async () => {
  database = await createTestDatabase("secrets");
  db = createPrismaClient(database.url);
  useKeys(OLD_KEY);
}, 120_000);

afterAll(async () => {
  await db?.$disconnect();
  await database?.dispose();
  restoreKeys();
});

describe("secrets at rest", () => {
  it("a vendor's password copied to another vendor's row does not decrypt there", async () => {
    const acme = await vendorRow("Acme", "DSR1");
    const other = await vendorRow("Other", "DSR2");
    const stored = encryptSecret("acme-pass", vendorPasswordBinding(acme.id));
    const withPassword = await db.vendor.update({ where: { id: acme.id }, data: { sftp_pass: stored } });
    const copied = await db.vendor.update({ where: { id: other.id }, data: { sftp_pass: stored } });
    expect(vendorConnectionSettings(withPassword).password).toBe("acme-pass");
    expect(() => vendorConnectionSettings(copied)).toThrow(SecretError);
    await db.vendor.deleteMany({ where: { id: { in: [acme.id, other.id] } } });
  });

  it("after a key change, decrypts with the previous key, and secrets:rotate writes everything again with the new one", async () => {
    const current = await vendorRow("Current Co", "DSR3");
    const legacy = await vendorRow("Legacy Co", "DSR4");
    const lost = await vendorRow("Lost Co", "DSR5");
    await db.vendor.update({ where: { id: current.id }, data: { sftp_pass: encryptSecret("current-pass", vendorPasswordBinding(current.id)) } });
    await db.vendor.update({ where: { id: legacy.id }, data: { sftp_pass: legacyV1("legacy-pass", OLD_KEY) } });
    // Written with a key nobody has any more: left as it is, and named.
    await db.vendor.update({ where: { id: lost.id }, data: { sftp_pass: legacyV1("lost-pass", randomBytes(32)) } });
    const session = { id: "offline_test-shop.myshopify.com", shop: "test-shop.myshopify.com", state: "", isOnline: false, accessToken: "shpat_plain_token" };
    await db.session.create({ data: session });

    useKeys(NEW_KEY, OLD_KEY);
    const reload = (id: number) => db.vendor.findUniqueOrThrow({ where: { id } });
    expect(vendorConnectionSettings(await reload(current.id)).password).toBe("current-pass");
    expect(vendorConnectionSettings(await reload(legacy.id)).password).toBe("legacy-pass");

    const result = await rotateStoredSecrets(db);
    expect(result).toEqual({ rewritten: 3, current: 0, undecryptable: [vendorPasswordBinding(lost.id)] });
    for (const id of [current.id, legacy.id]) expect((await reload(id)).sftp_pass).toMatch(new RegExp(`^v2:${secretKeyId(NEW_KEY)}:`));
    const token = (await db.session.findUniqueOrThrow({ where: { id: session.id } })).accessToken;
    expect(token).toMatch(new RegExp(`^v2:${secretKeyId(NEW_KEY)}:`));
    expect(decryptSecret(token, sessionTokenBinding(session.id, "accessToken"))).toBe("shpat_plain_token");

    // Once rotated, the previous key can go: everything decrypts with the new one alone.
    useKeys(NEW_KEY);
    expect(vendorConnectionSettings(await reload(current.id)).password).toBe("current-pass");
    expect(vendorConnectionSettings(await reload(legacy.id)).password).toBe("legacy-pass");
    expect(await rotateStoredSecrets(db)).toEqual({ rewritten: 0, current: 3, undecryptable: [vendorPasswordBinding(lost.id)] });
  });
});
