// The app's one logger (D85): pino, JSON lines in production and embedded
// mode (for the log collector), pino-pretty lines in local mode (for the
// person at the terminal), LOG_LEVEL and LOG_FORMAT from the environment.
// Every line carries the request or run it belongs to (./context.server.ts)
// and never a secret (./redaction.ts).
//
//   const log = logger("stores");
//   log.warn({ shop }, "location sync failed");
//   log.error({ err: error }, "could not record the call");
//
// On globalThis: the launcher and the Remix build each load this module, and
// one process writes through one logger.
import { createRequire } from "node:module";
import path from "node:path";
import pino, { type DestinationStream, type Logger, type LoggerOptions } from "pino";
import { logSettings, type LogSettings } from "~/env.server";
import { currentLogContext } from "./context.server";
import { redactSecrets } from "./redaction";

export type { Logger };

declare global {
  var __rootLogger: Logger | undefined;
}

export interface LoggerSetup {
  level: LogSettings["LOG_LEVEL"];
  format: "json" | "pretty";
  /** Where lines go; stdout when unset. Tests pass a stream to read them. */
  destination?: DestinationStream;
}

/** A new logger; the app uses `logger()` / `rootLogger()`, tests this. */
export function createLogger(setup: LoggerSetup): Logger {
  const options: LoggerOptions = {
    level: setup.level,
    // The request's or run's ids on every line, whoever logs it.
    mixin: () => currentLogContext(),
    // No secret on any line, at any depth (D87).
    formatters: { log: redactSecrets },
  };
  if (setup.format === "pretty") {
    const stream = prettyStream(setup.destination);
    if (stream) return pino(options, stream);
  }
  const logger = pino(
    {
      ...options,
      // Level names and ISO times read better in a collector than numbers.
      formatters: { ...options.formatters, level: (label) => ({ level: label }) },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    // Synchronous: the launchers log their last line and exit at once.
    setup.destination ?? pino.destination({ dest: 1, sync: true }),
  );
  if (setup.format === "pretty") logger.warn("pino-pretty is not installed: logging JSON lines instead");
  return logger;
}

/**
 * pino-pretty, loaded only when asked for: a production install may leave it
 * out (it is for local mode), and then the lines are JSON. Synchronous and in
 * this thread, so no line is lost when a launcher exits right after logging.
 */
function prettyStream(destination?: DestinationStream): DestinationStream | null {
  for (const from of [import.meta.url, path.join(process.cwd(), "package.json")]) {
    try {
      const pretty = createRequire(from)("pino-pretty") as typeof import("pino-pretty");
      const build = (pretty as unknown as { default?: typeof pretty }).default ?? pretty;
      return build({
        sync: true,
        destination: destination ?? 1,
        colorize: destination ? false : undefined,
        ignore: "pid,hostname,component",
        translateTime: "SYS:HH:MM:ss.l",
        singleLine: true,
        messageFormat: "{if component}[{component}] {end}{msg}",
      }) as DestinationStream;
    } catch {
      // not installed here: try the next place, then JSON
    }
  }
  return null;
}

/** The process's logger, made at first use from LOG_LEVEL and LOG_FORMAT. */
export function rootLogger(): Logger {
  return (globalThis.__rootLogger ??= (() => {
    const settings = logSettings();
    return createLogger({ level: settings.LOG_LEVEL, format: settings.format });
  })());
}

/**
 * Puts `next` in place of the process's logger and answers the one it
 * replaced; tests read what the app logs this way. Loggers made by `logger()`
 * follow it at their next line.
 */
export function replaceRootLogger(next: Logger): Logger | undefined {
  const previous = globalThis.__rootLogger;
  globalThis.__rootLogger = next;
  return previous;
}

type Level = "fatal" | "error" | "warn" | "info" | "debug" | "trace";
export type ComponentLogger = Pick<Logger, Level>;

/**
 * A logger for one part of the app: its lines carry `component` (shown as
 * `[component]` in local mode). Made at import, it writes through whatever
 * logger the process has when it logs.
 */
export function logger(component: string): ComponentLogger {
  let root: Logger | undefined;
  let child: Logger | undefined;
  const current = (): Logger => {
    const now = rootLogger();
    if (now !== root) {
      root = now;
      child = now.child({ component });
    }
    return child!;
  };
  const level = (name: Level) =>
    function (...args: unknown[]) {
      const target = current();
      (target[name] as (...args: unknown[]) => void).apply(target, args);
    } as Logger[Level];
  return { fatal: level("fatal"), error: level("error"), warn: level("warn"), info: level("info"), debug: level("debug"), trace: level("trace") };
}
