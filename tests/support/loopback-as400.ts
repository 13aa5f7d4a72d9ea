// A loopback SFTP server standing in for the AS400, and the app's AS400_*
// environment pointed at it (SFTP, its host key pinned), for the tests that
// run the AS400's feeds for real.
import { startSftpServer } from "@edi/transport/loopback";

export async function startLoopbackAs400(root: string) {
  const sftp = await startSftpServer({ root, users: { as400: "as400-secret" } });
  Object.assign(process.env, {
    AS400_TRANSFER_MECHANISM: "1",
    AS400_HOST: "127.0.0.1",
    AS400_PORT: String(sftp.port),
    AS400_USER: "as400",
    AS400_PASSWORD: "as400-secret",
    AS400_HOST_KEY: sftp.hostKey,
  });
  (await import("../../app/env.server")).reloadEnv();
  return sftp;
}
