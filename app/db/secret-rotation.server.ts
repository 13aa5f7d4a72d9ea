// `npm run secrets:rotate` (D209): every stored secret not yet in the current
// form under APP_SECRET_KEY (v1 records, records of APP_SECRET_KEY_PREVIOUS,
// Shopify tokens stored in plain text) is decrypted and written again with the
// current key. Each row is written only if unchanged meanwhile (a save wins).
// A secret no key decrypts is left as it is and counted: staff type that
// password again (Shopify's token is exchanged again on the next request).
import {
  decryptSecret,
  encryptSecret,
  isEncryptedSecret,
  needsReencryption,
  SecretError,
  sessionTokenBinding,
  vendorPasswordBinding,
} from "~/lib/secrets.server";
import type { PrismaClient } from "./client.server";

export interface RotationResult {
  rewritten: number;
  current: number;
  undecryptable: string[];
}

export async function rotateStoredSecrets(db: PrismaClient): Promise<RotationResult> {
  const result: RotationResult = { rewritten: 0, current: 0, undecryptable: [] };
  /** The value to store instead of `stored`, or null when it is already current or cannot be read. */
  const again = (stored: string, boundTo: string, plainAllowed: boolean): string | null => {
    if (!needsReencryption(stored)) {
      result.current++;
      return null;
    }
    try {
      const plain = plainAllowed && !isEncryptedSecret(stored) ? stored : decryptSecret(stored, boundTo);
      return encryptSecret(plain, boundTo);
    } catch (error) {
      if (!(error instanceof SecretError)) throw error;
      result.undecryptable.push(boundTo);
      return null;
    }
  };

  for (const vendor of await db.vendor.findMany({ where: { sftp_pass: { not: null } }, select: { id: true, sftp_pass: true } })) {
    const next = again(vendor.sftp_pass!, vendorPasswordBinding(vendor.id), false);
    if (next === null) continue;
    const { count } = await db.vendor.updateMany({ where: { id: vendor.id, sftp_pass: vendor.sftp_pass }, data: { sftp_pass: next } });
    result.rewritten += count;
  }
  for (const session of await db.session.findMany({ select: { id: true, accessToken: true, refreshToken: true } })) {
    const accessToken = session.accessToken ? again(session.accessToken, sessionTokenBinding(session.id, "accessToken"), true) : null;
    const refreshToken = session.refreshToken ? again(session.refreshToken, sessionTokenBinding(session.id, "refreshToken"), true) : null;
    if (accessToken === null && refreshToken === null) continue;
    const { count } = await db.session.updateMany({
      where: { id: session.id, accessToken: session.accessToken, refreshToken: session.refreshToken },
      data: { ...(accessToken !== null ? { accessToken } : {}), ...(refreshToken !== null ? { refreshToken } : {}) },
    });
    result.rewritten += count;
  }
  return result;
}
