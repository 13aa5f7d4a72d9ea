// The floor of bench/order-grid: the least any HTTP service can do for a page
// of the order grid on this machine. A bare node:http server in a process of its
// own, with a `pg` pool like the app's, that runs one statement and answers its
// rows as JSON: no framework, no routing, no validation, no authentication.
// `PUT /statement` with {sql, params} sets the statement; `GET /` runs it.
// Prints its URL on stdout when listening.
import http from "node:http";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
let statement: { sql: string; params: unknown[] } = { sql: "SELECT 1", params: [] };

const server = http.createServer((request, response) => {
  if (request.method === "PUT") {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      statement = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      response.writeHead(204).end();
    });
    return;
  }
  pool.query(statement.sql, statement.params).then(
    ({ rows }) => {
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data: rows }));
    },
    (error: Error) => response.writeHead(500).end(error.message),
  );
});

server.listen(0, "127.0.0.1", () => {
  const address = server.address() as { port: number };
  console.log(`http://127.0.0.1:${address.port}`);
});
process.on("SIGTERM", () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
