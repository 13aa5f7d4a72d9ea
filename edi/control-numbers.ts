// Control numbers for ISA13, GS06 and ST02 come from one PostgreSQL sequence
// per vendor: they never repeat, survive restarts, and several app instances
// drawing at once still get distinct numbers. ISA13 is N0 9/9, GS06 N0 1/9
// and ST02 AN 4/9: at 999999999 a sequence wraps to 1 (CYCLE; 0 is never
// used, D73), so a number never grows a tenth digit. Numbers repeat only after
// 999,999,999 of them.

/** The largest control number: nine digits. */
export const MAX_CONTROL_NUMBER = 999_999_999;

/** `n` moved on by `step`, wrapping from 999999999 to 1 (never 0, never ten digits). */
export function addControlNumber(n: number, step = 1): number {
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_CONTROL_NUMBER) throw new Error(`Not a control number: ${n}`);
  return ((((n - 1 + step) % MAX_CONTROL_NUMBER) + MAX_CONTROL_NUMBER) % MAX_CONTROL_NUMBER) + 1;
}

const CREATE = (name: string) => `CREATE SEQUENCE IF NOT EXISTS ${name} AS bigint MINVALUE 1 MAXVALUE ${MAX_CONTROL_NUMBER} CYCLE`;

/** Numbers drawn together, in the order they were handed out: sorted, and those after a wrap last. */
function drawOrder(numbers: number[]): number[] {
  const sorted = [...numbers].sort((a, b) => a - b);
  if (sorted.length < 2 || sorted[sorted.length - 1] - sorted[0] < MAX_CONTROL_NUMBER / 2) return sorted;
  const wrapped = sorted.filter((n) => n < MAX_CONTROL_NUMBER / 2);
  return [...sorted.filter((n) => n >= MAX_CONTROL_NUMBER / 2), ...wrapped];
}

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
    await query(CREATE(name), []);
  } catch (raced) {
    // Two instances creating it at the same moment: the other one won.
    if (!/already exists|duplicate key/.test(String((raced as Error).message))) throw raced;
  }
  // Sequences made before D73 stopped at 999999999 (NO CYCLE): they wrap now.
  await query(`ALTER SEQUENCE ${name} CYCLE`, []);
}

/** Reserves `count` numbers for `vendorId`, in increasing order (those after a wrap to 1 last). */
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
      await query(CREATE(name), []);
    } catch (raced) {
      // Two instances creating it at the same moment: the other one won.
      if (!/already exists|duplicate key/.test(String((raced as Error).message))) throw raced;
    }
    rows = await draw();
  }
  return drawOrder(rows.map((row) => Number(row.n)));
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
