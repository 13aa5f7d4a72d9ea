// An outgoing file, to a vendor or to the AS400, is stored as a `prepared`
// transmission (content, hash, control numbers) before it is uploaded, so a
// crash or a partner that is down leaves a file the next run uploads under the
// same name. Who uploads it: the drop-ship flow's outbound
// (app/dropship/flow/outbound.server.ts) and the realtime AS400 export
// (app/as400/realtime-export.server.ts), each under an upload lease
// (upload-lease.server.ts, D69).
import prisma from "~/db.server";
import type { Prisma, Transmission } from "~/db/generated/client";
import { baseName } from "@edi/transport";
import { contentHash } from "./incoming-deliveries.server";

/** Outbound hashes cover the name too: the same CSV sent again on purpose is a new file. */
export const outboundHash = (fileName: string, content: Buffer) => contentHash(Buffer.concat([Buffer.from(`${fileName}\n`), content]));

export interface PreparedFile {
  vendorId: number | null;
  partner: "vendor" | "as400";
  /** Final remote path: folder and name. */
  remotePath: string;
  transactionSet: string;
  content: Buffer;
  interchangeControlNumber?: string | null;
  groupControlNumber?: string | null;
  transactionControlNumbers?: string[];
  replyToId?: number | null;
}

/** Stores a file to upload. With replyToId, a second call for the same file and set stores nothing. */
export async function storePreparedFile(file: PreparedFile, db: Prisma.TransactionClient = prisma): Promise<Transmission | null> {
  const fileName = baseName(file.remotePath);
  const data = {
    vendor_id: file.vendorId,
    partner: file.partner,
    direction: "out",
    file_name: fileName,
    remote_path: file.remotePath,
    transaction_set: file.transactionSet,
    interchange_control_number: file.interchangeControlNumber ?? null,
    group_control_number: file.groupControlNumber ?? null,
    transaction_control_numbers: file.transactionControlNumbers ?? [],
    content_hash: outboundHash(fileName, file.content),
    content: new Uint8Array(file.content),
    size: file.content.length,
    status: "prepared",
    reply_to_id: file.replyToId ?? null,
  };
  const [stored] = await db.transmission.createManyAndReturn({ data: [data], skipDuplicates: true });
  return stored ?? null;
}
