// A loopback vendor that reads the purchase orders we uploaded to its server and
// answers them (997/855 at once, then an 856 and 810 per PO), as the demo vendor
// does: for the tests and benches that need a vendor's answers on its server.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Vendor } from "../../app/db/generated/client";
import { answerPurchaseOrderFile, type OutFile } from "../../app/dropship/tools/vendor-answers";

/** The folder of a vendor's server path, under the server's root. */
export const serverFolder = (root: string, remote: string) => path.join(root, remote.replace(/^\/+/, ""));

/** Our purchase orders (850s, PO CSVs) waiting in the vendor's folder, oldest name first. */
export function purchaseOrderFiles(root: string, vendor: Pick<Vendor, "sftp_outcoming_folder">): string[] {
  const folder = serverFolder(root, vendor.sftp_outcoming_folder!);
  return existsSync(folder)
    ? readdirSync(folder)
        .filter((name) => /^(850|PO)_/.test(name))
        .sort()
    : [];
}

export interface VendorAnswer {
  /** The purchase-order file answered. */
  file: string;
  purchaseOrders: string[];
  files: OutFile[];
}

/**
 * The vendor answers each purchase order waiting on its server (moved to `processed/` as it reads it); the
 * answers are given back, not written: `dropAnswers` puts them in the vendor's outbound folder when wanted.
 */
export function answerPurchaseOrders(
  root: string,
  vendor: Vendor,
  options: { controlNumberStart: number; random?: () => number; files?: string[] },
): VendorAnswer[] {
  const folder = serverFolder(root, vendor.sftp_outcoming_folder!);
  const answers: VendorAnswer[] = [];
  for (const name of options.files ?? purchaseOrderFiles(root, vendor)) {
    const answer = answerPurchaseOrderFile(vendor as never, name, readFileSync(path.join(folder, name)), {
      now: new Date(),
      controlNumberStart: options.controlNumberStart + answers.length * 50,
      random: options.random,
    });
    if ("error" in answer) throw new Error(answer.error);
    mkdirSync(path.join(folder, "processed"), { recursive: true });
    renameSync(path.join(folder, name), path.join(folder, "processed", name));
    answers.push({ file: name, purchaseOrders: answer.purchaseOrders, files: [...answer.immediate, ...answer.later] });
  }
  return answers;
}

/** The answer's files land on the vendor's server, in its outbound folder (our incoming folder). */
export function dropAnswers(root: string, vendor: Pick<Vendor, "sftp_incoming_folder">, answer: VendorAnswer) {
  for (const file of answer.files) writeFileSync(path.join(serverFolder(root, vendor.sftp_incoming_folder!), file.name), file.content);
}
