// Starts the app on the Remix build (`server/main.ts` through tsx, so a test of
// the launcher needs no rebuild of it; `npm start` runs its compiled copy,
// build/processes/web.js) in a child process on a free loopback port, and stops it.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export interface RunningApp {
  url: string;
  output: () => string;
  stop(): Promise<void>;
  /** Sends a signal to the app's process (SIGTERM to test its shutdown). */
  kill(signal: NodeJS.Signals): void;
  /** The process's exit code once it has exited (null when killed by a signal). */
  exited: Promise<number | null>;
}

/** The Shopify stand-in the app started for itself in local mode (it says where in its output). */
export const standInUrlOf = (app: RunningApp) => app.output().match(/Shopify stand-in answering at (\S+)/)![1];

export async function startAppServer(env: Record<string, string>, options: { nodeArgs?: string[] } = {}): Promise<RunningApp> {
  let output = "";
  // PORT=0: the app binds any free port and tells it. A port picked here and
  // handed over could be taken meanwhile (by the app's own stand-in, or another run).
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), "--import", "tsx", "server/main.ts"], {
    // No schedules and no demo vendor unless a test asks: background work would race its assertions.
    // The test servers listen on loopback, which the outbound policy refuses unless allowed (D195).
    env: { ...process.env, NODE_ENV: "test", PORT: "0", SCHEDULER: "0", DEMO_VENDOR: "0", OUTBOUND_ALLOW: process.env.OUTBOUND_ALLOW ?? "loopback", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const deadline = Date.now() + 150_000; // a shared, loaded machine can take over a minute (seeding, location sync)
  let url = "";
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The app exited (${child.exitCode}):\n${output}`);
    const serving = /mode: serving http:\/\/[^:\s]+:(\d+)/.exec(output);
    if (serving) {
      url = `http://127.0.0.1:${serving[1]}`;
      const response = await fetch(`${url}/healthz`).catch(() => null);
      if (response?.ok) break;
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`The app did not answer /healthz within 150 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    output: () => output,
    kill: (signal) => child.kill(signal),
    exited,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
      }),
  };
}
