// Runs in every test worker before its files.
process.env.NODE_ENV = "test";
process.env.DATABASE_URL = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
// The pause between the two listings that tell a file still being written (D60): short in tests.
process.env.INCOMING_SETTLE_SECONDS ??= "0.05";
// Every test server listens on loopback, which the outbound policy refuses unless allowed (D195).
process.env.OUTBOUND_ALLOW ??= "loopback";
