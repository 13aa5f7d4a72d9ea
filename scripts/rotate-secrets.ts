// `npm run secrets:rotate` (D209, docs/operations.md): after APP_SECRET_KEY is
// changed and the old one set as APP_SECRET_KEY_PREVIOUS, writes every stored
// secret again with the new key; then APP_SECRET_KEY_PREVIOUS can go.
// Also turns v1 passwords and plain-text Shopify tokens into the current form.
import { createPrismaClient } from "../app/db/client.server";
import { parseEnvOrExit } from "../app/env.server";
import { rotateStoredSecrets } from "../app/db/secret-rotation.server";

const env = parseEnvOrExit();
if (!env.DATABASE_URL) {
  console.error("secrets:rotate: DATABASE_URL is required (in local mode, the database the app prints at start)");
  process.exit(1);
}
const db = createPrismaClient(env.DATABASE_URL, 2);
try {
  const result = await rotateStoredSecrets(db);
  console.log(`secrets:rotate: ${result.rewritten} written again with the current key, ${result.current} already current`);
  if (result.undecryptable.length) {
    console.log(`secrets:rotate: ${result.undecryptable.length} no key decrypts (type those passwords again): ${result.undecryptable.join(", ")}`);
  }
} catch (error) {
  console.error(`secrets:rotate failed: ${(error as Error).message.trim().split("\n").at(-1)}`);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
