// A TCP relay in front of a test database, for tests of the database going
// away: shut, it refuses new connections and cuts the open ones; opened again,
// it listens on the same port, as a restarted PostgreSQL would.
import { createConnection, createServer, type Server, type Socket } from "node:net";

/** A TCP relay to the test database that can be shut (connections refused, open ones cut) and opened again on its port. */
export async function databaseRelay(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => {});
        }
        client.pipe(upstream).pipe(client);
      });
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const shut = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server!.close(() => resolve());
    });
  await open();
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return { url: url.toString(), open, shut };
}
