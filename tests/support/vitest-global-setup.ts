// One database for the whole vitest run; test files reset what they use.
import { createTestDatabase, type TestDatabase } from "./test-database";

let database: TestDatabase | undefined;

export async function setup() {
  database = await createTestDatabase("test");
  process.env.DATABASE_URL = database.url;
  process.env.TEST_DATABASE_URL = database.url;
  // Tests that need a database of their own create it on the same server.
  process.env.TEST_DATABASE_SERVER_URL = database.serverUrl;
}

export async function teardown() {
  await database?.dispose();
}
