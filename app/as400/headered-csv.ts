// The one reader of the CSV files the AS400 (and the order system on its
// exchange) sends us: a header row naming the columns, then one row per record.
// Written in Excel or on the AS400, so a BOM, any line ending and stray blanks
// around values are accepted, and columns may come in any order, under any
// case ("Store ID", "store-id"). Unknown columns are ignored, so the sender can
// add one without breaking us. A file is refused whole (with the area's own
// error class) only when it is not CSV, is empty, names a column twice or lacks
// a required column; judging the rows is the area's work.
import { parse as parseCsv } from "csv-parse/sync";
import { normaliseHeaderName } from "@edi/csv";

export interface HeaderedCsvFormat {
  /** The columns read, by their normalised header name; any other column is ignored. */
  columns: readonly string[];
  /** Columns the header row must name. */
  required: readonly string[];
  /** Other (normalised) header names accepted for a column: { category: "as400_category_id" }. */
  aliases?: Readonly<Record<string, string>>;
  /** What a file missing a required column is not: "not an order status file". */
  notThisKind: string;
  /** The header row asked for when the file is empty: "order_id, ..., updated_at". */
  expectedHeader: string;
  /** Takes a quote inside an unquoted value (5" boot) as a character; true unless false is given. */
  relaxQuotes?: boolean;
  /** The longest record read, in characters (0: no limit); 1,000,000 unless given. */
  maxRecordSize?: number;
  /** The error refusing the whole file: each area keeps its own class. */
  refuse: (message: string) => Error;
}

export interface HeaderedCsvRow {
  /** Line of the file the row starts on. */
  line: number;
  /** Line the row ends on (a quoted value may span lines). */
  lastLine: number;
  /** How many values the row has; more than the header's columns is for the area to report. */
  valueCount: number;
  /** The trimmed value of a column; "" when the file has no such column. */
  cell(column: string): string;
}

export interface HeaderedCsv {
  /** The header row's names, normalised (aliases resolved), unknown ones included. */
  headerNames: string[];
  /** Whether the header row names the column. */
  has(column: string): boolean;
  /** The rows after the header, empty ones left out. */
  rows: HeaderedCsvRow[];
}

type CsvRecord = { record: string[]; info: { lines: number } };
/** What is kept of a record: its values and the line it ends on (csv-parse's info has a dozen fields more, per row). */
type KeptRecord = { record: string[]; lines: number };

export function readHeaderedCsv(content: Buffer | string, format: HeaderedCsvFormat): HeaderedCsv {
  const filled: KeptRecord[] = [];
  try {
    parseCsv(typeof content === "string" ? content : content.toString("utf8"), {
      bom: true,
      record_delimiter: ["\r\n", "\n", "\r"],
      trim: true,
      relax_quotes: format.relaxQuotes ?? true,
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      max_record_size: format.maxRecordSize ?? 1_000_000,
      // Each record kept as it is parsed, blank ones dropped: no second list of every record (issue 28).
      on_record: (parsed: unknown) => {
        const { record, info } = parsed as CsvRecord;
        if (record.some((cell) => cell.trim() !== "")) filled.push({ record, lines: info.lines });
        return null;
      },
    });
  } catch (error) {
    throw format.refuse(`not readable as CSV: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (filled.length === 0) throw format.refuse(`the file is empty: it needs a header row (${format.expectedHeader})`);

  const [header, ...body] = filled;
  const headerNames = header.record.map((name) => {
    const normalised = normaliseHeaderName(name);
    return format.aliases?.[normalised] ?? normalised;
  });
  const known = new Set<string>(format.columns);
  const index = new Map<string, number>();
  for (const [position, name] of headerNames.entries()) {
    if (!known.has(name)) continue;
    if (index.has(name)) throw format.refuse(`line ${header.lines}: the column ${name} is named twice`);
    index.set(name, position);
  }
  const missing = format.required.filter((name) => !index.has(name));
  if (missing.length) {
    throw format.refuse(
      `line ${header.lines}: ${format.notThisKind}: missing required column${missing.length > 1 ? "s" : ""} ` +
        `${missing.join(", ")} (the header row has: ${headerNames.join(", ")})`,
    );
  }

  const rows = body.map(({ record, lines }): HeaderedCsvRow => {
    // `lines` is where the record ends; a quoted value may span lines.
    const breaks = record.reduce((count, value) => count + (value.match(/\r\n|\r|\n/g)?.length ?? 0), 0);
    return {
      line: lines - breaks,
      lastLine: lines,
      valueCount: record.length,
      cell: (column) => {
        const position = index.get(column);
        return position === undefined ? "" : (record[position] ?? "").trim();
      },
    };
  });
  return { headerNames, has: (column) => index.has(column), rows };
}

/**
 * The rows that fit the header, in file order. A row with more values than the
 * header has columns is left out, and "line 3: 3 values but the header has 2
 * columns (...)" added to `problems` in its place (between the problems the
 * caller adds for the rows before and after it).
 */
export function* rowsFittingHeader(csv: HeaderedCsv, problems: string[]): Generator<HeaderedCsvRow> {
  for (const row of csv.rows) {
    if (row.valueCount > csv.headerNames.length) {
      problems.push(`line ${row.line}: ${row.valueCount} values but the header has ${csv.headerNames.length} columns (a comma in a value that is not quoted?)`);
      continue;
    }
    yield row;
  }
}
