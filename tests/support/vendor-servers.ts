// For the drop-ship tests that run the flow in this process: a loopback SFTP server
// on a fresh folder (its user "vendor" with the file's password, and the AS400's
// user when asked, with this process's AS400_* pointed at it), and the Shopify
// stand-in over the test database's catalog, with APP_SECRET_KEY and
// SHOPIFY_STAND_IN_URL set for them; all stopped and removed after the file.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import prisma from "../../app/db.server";
import { reloadEnv } from "../../app/env.server";
import { databaseCatalog } from "../../app/shopify/stand-in-catalog.server";
import { startShopifyStandIn } from "../../app/shopify/stand-in.server";
import { startSftpServer, type SftpTestServer } from "@edi/transport/loopback";
import { AS400_USERS, as400EnvFor } from "./loopback-as400";
import type { ShopifyStandIn } from "./shopify-stand-in";

export interface VendorServers {
  /** The SFTP server's root folder. */
  root: string;
  sftp: SftpTestServer;
  standIn: ShopifyStandIn;
}

/** The servers are there from the file's own beforeAll hooks on. */
export function useVendorServers(label: string, password: string, options: { as400?: boolean } = {}): VendorServers {
  const servers = {} as VendorServers;
  beforeAll(async () => {
    process.env.APP_SECRET_KEY ??= Buffer.alloc(32, 11).toString("base64");
    servers.root = mkdtempSync(path.join(tmpdir(), `${label}-`));
    servers.sftp = await startSftpServer({ root: servers.root, users: { vendor: password, ...(options.as400 ? AS400_USERS : {}) } });
    servers.standIn = await startShopifyStandIn({ catalog: databaseCatalog(prisma) });
    process.env.SHOPIFY_STAND_IN_URL = servers.standIn.url;
    if (options.as400) {
      Object.assign(process.env, as400EnvFor(servers.sftp));
      reloadEnv();
    }
  }, 60_000);
  afterAll(async () => {
    await servers.standIn?.stop();
    await servers.sftp?.stop();
    if (servers.root) rmSync(servers.root, { recursive: true, force: true });
  });
  return servers;
}
