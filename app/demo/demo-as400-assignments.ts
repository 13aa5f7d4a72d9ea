// Local mode's AS400 doing its auto-assignment: each auto-assignments file the
// app writes into /as400/auto-assignment is answered with an assignment file in
// /as400/assignments (docs/as400-files.md), as the real AS400 would, so that
// Retrieve New Assignments From AS400 has something to import. Each line goes
// to the enabled store with the most stock of its SKU (a marketplace order's
// lines all to one store); the answered file moves into processed/.
import { promises as fs } from "node:fs";
import path from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import type { PrismaClient } from "../db/client.server";

interface AutoLine {
  order_id: string;
  item_id: string;
  sku: string;
  qty_unassigned: string;
  marketplace_source: string;
}

/** `folder` is the AS400 user's /as400 folder on disk. Returns how many files were answered. */
export async function answerAutoAssignmentFiles(db: PrismaClient, folder: string, now = new Date()): Promise<number> {
  const inbox = path.join(folder, "auto-assignment");
  const outbox = path.join(folder, "assignments");
  const names = (await fs.readdir(inbox).catch(() => [] as string[])).filter((name) => /\.csv$/i.test(name) && !name.startsWith(".")).sort();
  if (names.length === 0) return 0;
  const stores = await db.inventorySource.findMany({ where: { type: "store", enabled: 1 }, orderBy: { source_code: "asc" }, select: { source_code: true } });
  if (stores.length === 0) return 0;
  await fs.mkdir(outbox, { recursive: true });
  await fs.mkdir(path.join(inbox, "processed"), { recursive: true });
  let answered = 0;
  for (const name of names) {
    const lines = parseCsv(await fs.readFile(path.join(inbox, name), "utf8"), { columns: true, skip_empty_lines: true, bom: true }) as AutoLine[];
    const stock = await db.sourceStock.findMany({
      where: { sku: { in: [...new Set(lines.map((line) => line.sku))] }, source_code: { in: stores.map((store) => store.source_code) } },
      select: { source_code: true, sku: true, quantity: true },
    });
    const quantity = (source: string, sku: string) => stock.find((row) => row.source_code === source && row.sku === sku)?.quantity ?? 0;
    const best = (skus: string[]) =>
      stores
        .map((store) => store.source_code)
        .sort((a, b) => Math.min(...skus.map((sku) => quantity(b, sku))) - Math.min(...skus.map((sku) => quantity(a, sku))))[0];
    const orderSource = new Map<string, string>();
    for (const line of lines) {
      if (!line.marketplace_source || orderSource.has(line.order_id)) continue;
      orderSource.set(line.order_id, best(lines.filter((other) => other.order_id === line.order_id).map((other) => other.sku)));
    }
    const out = ["order_id,item_id,sku,source_code,qty,form_number"];
    for (const line of lines) {
      const source = orderSource.get(line.order_id) ?? best([line.sku]);
      out.push([line.order_id, line.item_id, line.sku, source, line.qty_unassigned, `F${String(line.item_id).padStart(6, "0")}`].join(","));
    }
    const stamp = now.toISOString().replace(/[-:T]/g, "").slice(0, 14);
    const target = path.join(outbox, `ASSIGN_${stamp}_${answered + 1}.csv`);
    // Written under a temporary name and renamed, as the import expects of the AS400.
    await fs.writeFile(`${path.join(outbox, ".")}${path.basename(target)}.part`, out.join("\r\n") + "\r\n");
    await fs.rename(`${path.join(outbox, ".")}${path.basename(target)}.part`, target);
    await fs.rename(path.join(inbox, name), path.join(inbox, "processed", name));
    answered++;
  }
  return answered;
}
