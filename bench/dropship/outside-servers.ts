// The drop-ship bench's outside world in a process of its own: the vendors'
// SFTP server and the Shopify stand-in (over the bench database's catalog), as
// in production, where neither runs in the app's process. The bench starts it
// with a JSON config as its one argument; it answers one line of JSON on
// stdout ({ sftpPort, hostKey, standInUrl }) and stops when stdin closes.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { startSftpServer } from "@edi/transport/loopback";
import { PrismaClient } from "../../app/db/generated/client";
import { startShopifyStandIn } from "../../app/shopify/stand-in.server";
import { databaseCatalog } from "../../app/shopify/stand-in-catalog.server";

export interface OutsideConfig {
  databaseUrl: string;
  root: string;
  users: Record<string, string>;
  userRoots: Record<string, string>;
  shopifyLatencyMs: number;
}

const config = JSON.parse(process.argv[2] ?? "{}") as OutsideConfig;
const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 2 });
const catalogPrisma = new PrismaClient({ adapter: new PrismaPg(pool) });
const standIn = await startShopifyStandIn({ catalog: databaseCatalog(catalogPrisma) });
if (config.shopifyLatencyMs) standIn.throttle({ latencyMs: config.shopifyLatencyMs });
const sftp = await startSftpServer({ root: config.root, users: config.users, userRoots: config.userRoots });
process.stdout.write(`${JSON.stringify({ sftpPort: sftp.port, hostKey: sftp.hostKey, standInUrl: standIn.url })}\n`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await sftp.stop().catch(() => undefined);
  await standIn.stop().catch(() => undefined);
  await catalogPrisma.$disconnect().catch(() => undefined);
  await pool.end().catch(() => undefined);
  process.exit(0);
}
process.stdin.on("end", stop);
process.stdin.on("close", stop);
process.stdin.resume();
process.on("SIGTERM", stop);
