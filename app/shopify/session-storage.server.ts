// Shopify's sessions at rest (D211): the template's Prisma storage, with the
// offline token (and a refresh token, if any) encrypted by the secrets module,
// bound to the session's id, so the Session table alone gives no access to the
// shop. A token stored in plain text before this (or under the previous key)
// is still read, and written again encrypted with the current key.
import type { SessionStorage } from "@shopify/shopify-app-session-storage";
import { Session } from "@shopify/shopify-app-remix/server";
import { decryptSecret, encryptSecret, isEncryptedSecret, needsReencryption, SecretError, sessionTokenBinding } from "~/lib/secrets.server";
import { logger } from "~/observability/logger.server";

const log = logger("shopify");

type TokenField = "accessToken" | "refreshToken";
const TOKEN_FIELDS: TokenField[] = ["accessToken", "refreshToken"];

export class EncryptedSessionStorage implements SessionStorage {
  constructor(private readonly inner: SessionStorage) {}

  async storeSession(session: Session): Promise<boolean> {
    return this.inner.storeSession(withTokens(session, (token, field) => encryptSecret(token, sessionTokenBinding(session.id, field))));
  }

  async loadSession(id: string): Promise<Session | undefined> {
    const stored = await this.inner.loadSession(id);
    return stored ? this.opened(stored) : undefined;
  }

  async findSessionsByShop(shop: string): Promise<Session[]> {
    const opened = await Promise.all((await this.inner.findSessionsByShop(shop)).map((session) => this.opened(session)));
    return opened.filter((session): session is Session => session !== undefined);
  }

  deleteSession(id: string): Promise<boolean> {
    return this.inner.deleteSession(id);
  }

  deleteSessions(ids: string[]): Promise<boolean> {
    return this.inner.deleteSessions(ids);
  }

  /**
   * The session with its tokens in clear. A token in plain text or under the
   * previous key is written again; one no key decrypts is no session: the
   * next request exchanges a new token, as on a first install.
   */
  private async opened(stored: Session): Promise<Session | undefined> {
    let rewrite = false;
    let opened: Session;
    try {
      opened = withTokens(stored, (token, field) => {
        if (!isEncryptedSecret(token)) {
          rewrite = true;
          return token;
        }
        rewrite ||= needsReencryption(token);
        return decryptSecret(token, sessionTokenBinding(stored.id, field));
      });
    } catch (error) {
      if (!(error instanceof SecretError)) throw error;
      log.warn({ session: stored.id }, `session ${stored.id}: its token cannot be decrypted (${error.code}); it is treated as absent`);
      return undefined;
    }
    if (rewrite) await this.storeSession(opened);
    return opened;
  }
}

function withTokens(session: Session, change: (token: string, field: TokenField) => string): Session {
  const params = session.toObject();
  for (const field of TOKEN_FIELDS) {
    const token = params[field];
    if (token) params[field] = change(token, field);
  }
  return new Session(params);
}
