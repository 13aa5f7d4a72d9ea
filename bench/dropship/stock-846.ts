// `npm run bench:stock-846`: a vendor's 50 MB 846 applied by Process Ship
// Responses (processStoredFile), X12 and CSV, on a database of its own
// (created and dropped). The file is stored as Populate Ship Responses stores
// it; then the clock runs while it is read as a stream from the stored bytes
// and applied 5,000 SKUs a statement. RSS is sampled every 20 ms; the heap
// once a second right after a full GC (node --expose-gc), so it is what is live. Not part
// of `npm test`. Figures to the console and bench/dropship/stock-846.json.
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createTestDatabase } from "../../tests/support/test-database";

const RESULTS = fileURLToPath(new URL("./stock-846.json", import.meta.url));
const X12_LINES = Number(process.env.BENCH_846_LINES ?? 900_000); // about 58 bytes a line: 52 MB

const database = await createTestDatabase("bench-846");
process.env.DATABASE_URL = database.url;
process.env.APP_SECRET_KEY ??= Buffer.alloc(32, 5).toString("base64");
const { default: prisma } = await import("../../app/db.server");
const { StepReport } = await import("../../app/dropship/flow/context.server");
const { processStoredFile } = await import("../../app/dropship/flow/process-responses.server");
const { storeIncomingFile } = await import("../../app/dropship/flow/populate-responses.server");
const { generate846 } = await import("@edi/documents");

const mb = (bytes: number) => +(bytes / 1024 / 1024).toFixed(1);
const results: Array<{
  what: string;
  file_mb: number;
  lines: number;
  seconds: number;
  peak_heap_mb: number;
  peak_rss_mb: number;
  heap_before_mb: number;
  rss_before_mb: number;
}> = [];

async function run(what: string, vendorOverrides: Record<string, unknown>, name: string, content: Buffer, lines: number) {
  const storeId = `B846${results.length + 1}`;
  await prisma.inventorySource.create({ data: { source_code: storeId, name: `Bench ${storeId}`, type: "dropshipper" } });
  const vendor = await prisma.vendor.create({
    data: {
      name: `Bench ${storeId}`,
      store_id: storeId,
      enabled: 1,
      transfer_mechanism_id: 1,
      sftp_incoming_folder: "/out",
      edi846_enabled: 1,
      ...vendorOverrides,
    },
  });
  const stored = await storeIncomingFile(vendor, { name, path: `/out/${name}`, content, transactionSet: "846" });
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage();
  let peakHeap = before.heapUsed;
  let peakRss = before.rss;
  // Heap after a full GC once a second: what is live, not garbage waiting for the collector.
  const gc = (globalThis as { gc?: () => void }).gc;
  let ticks = 0;
  const sampler = setInterval(() => {
    if (gc && ++ticks % 50 === 0) gc();
    const now = process.memoryUsage();
    if (!gc || ticks % 50 === 0) peakHeap = Math.max(peakHeap, now.heapUsed);
    peakRss = Math.max(peakRss, now.rss);
  }, 20);
  const start = performance.now();
  const report = new StepReport();
  await processStoredFile(stored.id, vendor, report);
  const seconds = +((performance.now() - start) / 1000).toFixed(2);
  clearInterval(sampler);
  const applied = await prisma.sourceStock.count({ where: { source_code: storeId } });
  if (applied !== lines || report.counts.files_processed !== 1)
    throw new Error(`${what}: ${applied} of ${lines} SKUs applied (${JSON.stringify(report.counts)}; ${report.problems.join("; ")})`);
  const entry = {
    what,
    file_mb: mb(content.length),
    lines,
    seconds,
    peak_heap_mb: mb(peakHeap),
    peak_rss_mb: mb(peakRss),
    heap_before_mb: mb(before.heapUsed),
    rss_before_mb: mb(before.rss),
  };
  results.push(entry);
  console.log(
    `${what.padEnd(34)} ${String(entry.file_mb).padStart(6)} MB ${String(lines).padStart(8)} ` +
      `lines ${String(seconds).padStart(7)} s   peak heap ${entry.peak_heap_mb} MB ` +
      `(${entry.heap_before_mb} before)   peak RSS ${entry.peak_rss_mb} MB (${entry.rss_before_mb} before)`,
  );
}

try {
  const x12 = Buffer.from(generate846(X12_LINES, { skuPrefix: "SKU-", lineBreak: "\n" }));
  await run("846 X12, processStoredFile", { edi_format: 1, edi_identifier: "VENDOR", edi_qualifier: "ZZ" }, "846_bench.edi", x12, X12_LINES);
  // A CSV of the same size: "sku,quantity" lines of about 24 bytes.
  const csvLines = Math.round(x12.length / 24);
  const rows: string[] = ["sku,quantity"];
  for (let line = 1; line <= csvLines; line++) rows.push(`SKU-CSV-${String(line).padStart(9, "0")},${line % 500}`);
  const csv = Buffer.from(`${rows.join("\n")}\n`);
  rows.length = 0;
  await run("846 CSV, processStoredFile", { edi_format: 0 }, "stock_bench.csv", csv, csvLines);
  writeFileSync(RESULTS, `${JSON.stringify({ measured_at: new Date().toISOString(), node: process.version, results }, null, 2)}\n`);
} finally {
  await prisma.$disconnect();
  await database.dispose();
}
