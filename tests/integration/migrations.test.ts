import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, readMigrations } from "../../app/db/migrate.server";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("test");
});
afterAll(() => database.dispose());

async function query<T extends pg.QueryResultRow>(sql: string) {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("migrations", () => {
  it("records every checked-in migration in Prisma Migrate's own table, once", async () => {
    const migrations = readMigrations();
    expect(migrations.length).toBeGreaterThan(0);
    const rows = await query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(rows.map((row) => row.migration_name)).toEqual(migrations.map((m) => m.name));
    expect(rows.every((row) => row.finished_at !== null)).toBe(true);
    expect(rows.map((row) => row.checksum)).toEqual(migrations.map((m) => m.checksum));
    expect(await applyMigrations(database.url)).toEqual([]);
  });

  it("creates a table for every entity of both specs, with the spec's field names", async () => {
    const columns = await query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    const has = (table: string, column: string) => columns.some((c) => c.table_name === table && c.column_name === column);
    const expected: Record<string, string[]> = {
      order_grid: [
        "shopify_order_id",
        "order_id",
        "shopify_updated_at",
        "concat_bill_to_name",
        "grand_total_purchased",
        "select_skus",
        "magento_status",
        "gift_card_used",
        "allocated_sources",
        "ca_site_order_id",
      ],
      order_item: ["item_id", "sku", "qty_ordered"],
      inventory_source: ["source_code", "type"],
      inventory_source_item: ["source_code", "sku", "quantity"],
      assignment: [
        "order_increment_id",
        "item_id",
        "product_sku",
        "qty_assigned",
        "store_id",
        "dropshipper_name",
        "assign_status",
        "form_number",
        "purchase_order",
        "customer_note",
      ],
      dnh_transfer: ["assignment_id", "transfer_num", "reason"],
      dropship_vendor: [
        "name",
        "store_id",
        "transfer_mechanism_id",
        "sftp_outcoming_folder",
        "input_segmenter",
        "997_enabled",
        "997_file_contents_regex",
        "850_segments",
        "856_file_contents_regex",
        "846_as400_filepath",
        "unwrap_846",
        "810_as400_filepath",
      ],
      dropship_request: ["request_id", "vendor_name", "po_number", "ship_name_first", "ship_address", "country_id"],
      dropship_response: ["tracking_number", "tracking_carrier"],
      dropship_log: ["vendor_name", "message"],
      transmission: ["direction", "file_name", "transaction_set", "interchange_control_number", "group_control_number", "content_hash", "content", "status"],
      eod_report_row: ["sales_date", "batch_id"],
      eod_batch: ["file_name"],
      feed: ["name", "cron_expression", "last_started_at", "last_finished_at", "last_failed_at", "last_skipped_at"],
      feed_log: ["feed_name", "type", "meta", "created_at", "updated_at"],
      sales_record: ["record_type", "amount", "record_date"],
      realtime_sales_log: ["shopify_order_id"],
      realtime_shipping_log: ["tracking_number"],
      special_order: ["store_ticket", "customer_address_state_code", "items", "grand_total_base"],
      special_order_error: ["special_order_id", "error_message"],
      special_order_log: ["file_path"],
      product: ["sku"],
      product_api_error: ["message"],
      product_api_operation: ["operation"],
      category_tags_mapping: ["as400_category_id", "shopify_tags"],
      Session: ["id", "shop", "state", "isOnline", "scope", "expires", "accessToken", "userId", "emailVerified"],
    };
    const missing = Object.entries(expected).flatMap(([table, names]) => names.filter((name) => !has(table, name)).map((name) => `${table}.${name}`));
    expect(missing).toEqual([]);
  });

  it("indexes every default sort", async () => {
    const indexes = await query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'`);
    const indexed = (table: string, column: string) =>
      indexes.some((i) => new RegExp(`ON public\\.${table} USING btree \\("?${column}"?[,)]`).test(i.indexdef));
    const defaultSorts: Array<[string, string]> = [
      ["order_grid", "created_at"],
      ["dropship_vendor", "id"],
      ["dropship_log", "id"],
      ["dropship_request", "request_id"],
      ["dropship_response", "id"],
      ["feed", "last_started_at"],
      ["feed_log", "created_at"],
      ["assignment", "id"],
      ["order_grid", "order_id"],
      ["special_order", "id"],
      ["special_order_error", "id"],
      ["special_order_log", "id"],
      ["eod_report_row", "sales_date"],
      ["eod_batch", "id"],
      ["product", "sku"],
      ["product_api_error", "created_at"],
      ["product_api_operation", "created_at"],
      ["category_tags_mapping", "as400_category_id"],
      ["realtime_sales_log", "id"],
      ["realtime_shipping_log", "id"],
    ];
    expect(defaultSorts.filter(([table, column]) => !indexed(table, column))).toEqual([]);
  });
});
