// Control numbers for ISA13, GS06 and ST02 come from one PostgreSQL sequence
// per vendor: they never repeat, survive restarts, and several app instances
// drawing at once still get distinct numbers. A sequence stops at 999999999
// (ISA13 has nine digits) instead of cycling back to numbers already used.

/** Runs one SQL statement; the app passes its pg pool or Prisma's $queryRawUnsafe. */
export type SqlQuery = (sql: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>;

export const sequenceName = (vendorId: number) => {
  if (!Number.isSafeInteger(vendorId) || vendorId <= 0) throw new Error(`Not a vendor id: ${vendorId}`);
  return `edi_control_vendor_${vendorId}`;
};

/**
 * Creates the vendor's sequence if it is missing. Call it outside a transaction
 * that will draw numbers: a failed first draw would abort that transaction.
 */
export async function ensureControlSequence(query: SqlQuery, vendorId: number): Promise<void> {
  const name = sequenceName(vendorId);
  try {
    await query(`CREATE SEQUENCE IF NOT EXISTS ${name} AS bigint MINVALUE 1 MAXVALUE 999999999 NO CYCLE`, []);
  } catch (raced) {
    // Two instances creating it at the same moment: the other one won.
    if (!/already exists|duplicate key/.test(String((raced as Error).message))) throw raced;
  }
}

/** Reserves `count` numbers for `vendorId`, in increasing order. */
export async function reserveControlNumbers(query: SqlQuery, vendorId: number, count: number): Promise<number[]> {
  if (!Number.isInteger(count) || count < 1) throw new Error(`count must be 1 or more, not ${count}`);
  const name = sequenceName(vendorId);
  const draw = () => query(`SELECT nextval('${name}')::bigint AS n FROM generate_series(1, $1::int) ORDER BY 1`, [count]);
  let rows: Array<Record<string, unknown>>;
  try {
    rows = await draw();
  } catch (error) {
    if (!/does not exist/.test(String((error as Error).message))) throw error;
    try {
      await query(`CREATE SEQUENCE IF NOT EXISTS ${name} AS bigint MINVALUE 1 MAXVALUE 999999999 NO CYCLE`, []);
    } catch (raced) {
      // Two instances creating it at the same moment: the other one won.
      if (!/already exists|duplicate key/.test(String((raced as Error).message))) throw raced;
    }
    rows = await draw();
  }
  return rows.map((row) => Number(row.n));
}

/** The numbers one interchange needs: ISA13 and GS06 per group, ST02 per transaction set. */
export async function reserveInterchangeNumbers(query: SqlQuery, vendorId: number, transactionsPerGroup: number[]) {
  const needed = 1 + transactionsPerGroup.length + transactionsPerGroup.reduce((sum, n) => sum + n, 0);
  const numbers = await reserveControlNumbers(query, vendorId, needed);
  let next = 0;
  const interchange = String(numbers[next++]).padStart(9, "0");
  const groups = transactionsPerGroup.map((transactions) => ({
    group: String(numbers[next++]),
    transactions: Array.from({ length: transactions }, () => String(numbers[next++]).padStart(4, "0")),
  }));
  return { interchange, groups };
}
