// A drop-ship vendor whose server is a loopback SFTP server of the test: its
// dropshipper source, its two folders under the server's root (named after its
// store id), and its row, pinned to the server's host key. What each test cares
// about (format, 997/810/846, regex) it gives as overrides.
import { mkdirSync } from "node:fs";
import path from "node:path";
import prisma from "../../app/db.server";
import type { Prisma } from "../../app/db/generated/client";
import { encryptSecret, vendorPasswordBinding } from "../../app/lib/secrets.server";

export interface LoopbackServer {
  root: string;
  port: number;
  /** Pinned on the vendor when given; without it the first connection trusts the key (D62). */
  hostKey?: string;
  /** The password of the server's user "vendor". */
  password: string;
}

type VendorFields = Partial<Prisma.VendorUncheckedCreateInput>;

export async function createLoopbackVendor(server: LoopbackServer, storeId: string, overrides: VendorFields = {}, name = `Vendor ${storeId}`) {
  const folder = storeId.toLowerCase();
  for (const sub of ["inbound", "outbound"]) mkdirSync(path.join(server.root, folder, sub), { recursive: true });
  await prisma.inventorySource.create({ data: { source_code: storeId, name, type: "dropshipper" } });
  const vendor = await prisma.vendor.create({
    data: {
      name,
      store_id: storeId,
      enabled: 1,
      transfer_mechanism_id: 1,
      sftp_host: "127.0.0.1",
      sftp_port: server.port,
      sftp_user: "vendor",
      ...(server.hostKey ? { sftp_host_key: server.hostKey } : {}),
      sftp_incoming_folder: `/${folder}/outbound`,
      sftp_outcoming_folder: `/${folder}/inbound`,
      is_archiving_files: 1,
      ...overrides,
    },
  });
  // The password is bound to its row (D208): encrypted once the id is known, unless the test gives its own.
  if (overrides.sftp_pass !== undefined) return vendor;
  return prisma.vendor.update({ where: { id: vendor.id }, data: { sftp_pass: encryptSecret(server.password, vendorPasswordBinding(vendor.id)) } });
}
