// A loopback SFTP server standing in for the AS400, and the app's AS400_*
// environment pointed at it (SFTP, its host key pinned), for the tests that
// run the AS400's feeds for real.
import { startSftpServer } from "@edi/transport/loopback";

export type LoopbackAs400 = Awaited<ReturnType<typeof startSftpServer>>;

export const AS400_USERS = { as400: "as400-secret" };

/** The AS400_* variables that point at `sftp` as the user of AS400_USERS. */
export function as400EnvFor(sftp: Pick<LoopbackAs400, "port" | "hostKey">) {
  return {
    AS400_TRANSFER_MECHANISM: "1",
    AS400_HOST: "127.0.0.1",
    AS400_PORT: String(sftp.port),
    AS400_USER: "as400",
    AS400_PASSWORD: AS400_USERS.as400,
    AS400_HOST_KEY: sftp.hostKey,
  };
}

/** The server, and the AS400_* variables that point at it (for a child process's environment). */
export async function startAs400Server(root: string) {
  const sftp = await startSftpServer({ root, users: AS400_USERS });
  return { sftp, env: as400EnvFor(sftp) };
}

/** The server, with this process's environment pointed at it (and `extra` variables set with it). */
export async function startLoopbackAs400(root: string, extra: Record<string, string> = {}) {
  const { sftp, env } = await startAs400Server(root);
  Object.assign(process.env, env, extra);
  (await import("../../app/env.server")).reloadEnv();
  return sftp;
}
