// What the app logs, read by a test: the process's logger is replaced by a
// real one (JSON, every level) writing into memory, until restore().
import { Writable } from "node:stream";
import { createLogger, replaceRootLogger } from "../../app/observability/logger.server";

export type LogLine = Record<string, unknown> & { level: string; msg?: string };

export function captureLogs(): { lines: LogLine[]; restore(): void } {
  const lines: LogLine[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  const previous = replaceRootLogger(createLogger({ level: "trace", format: "json", destination }));
  return {
    lines,
    restore: () => {
      if (previous) replaceRootLogger(previous);
    },
  };
}
