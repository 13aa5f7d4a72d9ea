// Control numbers from real PostgreSQL sequences: unique under concurrency,
// per vendor, and still increasing after the connection (the "restart") is gone.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addControlNumber, ensureControlSequence, reserveControlNumbers, reserveInterchangeNumbers, type SqlQuery } from "@edi/control-numbers";

let pool: pg.Pool;
const query: SqlQuery = async (sql, params) => (await pool.query(sql, params)).rows;

beforeAll(() => {
  pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 8 });
});
afterAll(() => pool.end());

describe("control numbers", () => {
  it("never hands out the same number twice, even to many callers at once", async () => {
    const batches = await Promise.all(Array.from({ length: 20 }, () => reserveControlNumbers(query, 9001, 5)));
    const all = batches.flat();
    expect(all).toHaveLength(100);
    expect(new Set(all).size).toBe(100);
    for (const batch of batches) expect(batch).toEqual([...batch].sort((a, b) => a - b));
  });

  it("keeps one sequence per vendor and survives a new connection", async () => {
    const [a1] = await reserveControlNumbers(query, 9002, 1);
    const [b1] = await reserveControlNumbers(query, 9003, 1);
    expect(a1).toBe(1);
    expect(b1).toBe(1);
    await pool.end();
    pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
    const [a2] = await reserveControlNumbers(query, 9002, 1);
    expect(a2).toBe(2);
  });

  it("gives an interchange its ISA13, GS06 and ST02 numbers, all distinct and well formed", async () => {
    const numbers = await reserveInterchangeNumbers(query, 9004, [2, 1]);
    expect(numbers.interchange).toMatch(/^\d{9}$/);
    expect(numbers.groups.map((g) => g.transactions.length)).toEqual([2, 1]);
    for (const st of numbers.groups.flatMap((g) => g.transactions)) expect(st).toMatch(/^\d{4,9}$/);
    const all = [Number(numbers.interchange), ...numbers.groups.flatMap((g) => [Number(g.group), ...g.transactions.map(Number)])];
    expect(new Set(all).size).toBe(all.length);
  });

  it("wraps from 999999999 to 1, never to 0 or ten digits (D73)", async () => {
    await reserveControlNumbers(query, 9005, 1);
    await query("SELECT setval('edi_control_vendor_9005', 999999997)", []);
    expect(await reserveControlNumbers(query, 9005, 4)).toEqual([999999998, 999999999, 1, 2]);
    await query("SELECT setval('edi_control_vendor_9005', 999999998)", []);
    const numbers = await reserveInterchangeNumbers(query, 9005, [2]);
    expect(numbers).toEqual({ interchange: "999999999", groups: [{ group: "1", transactions: ["0002", "0003"] }] });
    expect(addControlNumber(999_999_999)).toBe(1);
    expect(addControlNumber(999_999_998, 3)).toBe(2);
  });

  it("makes a sequence created before D73 (NO CYCLE) wrap", async () => {
    await query("DROP SEQUENCE IF EXISTS edi_control_vendor_9006", []);
    await query("CREATE SEQUENCE edi_control_vendor_9006 AS bigint MINVALUE 1 MAXVALUE 999999999 NO CYCLE", []);
    await query("SELECT setval('edi_control_vendor_9006', 999999999)", []);
    await ensureControlSequence(query, 9006);
    expect(await reserveControlNumbers(query, 9006, 1)).toEqual([1]);
  });

  it("refuses a bad vendor id before touching the database", async () => {
    await expect(reserveControlNumbers(query, 0, 1)).rejects.toThrow("Not a vendor id");
    await expect(reserveControlNumbers(query, 1.5, 1)).rejects.toThrow("Not a vendor id");
  });
});
