export {};
// The drop-ship worker in a process of its own, for the crash test
// (tests/integration/dropship-crash.test.ts): runs the steps named on the
// command line, in order, and prints each result as a JSON line. The test
// kills it with DROPSHIP_CRASH_AT (app/dropship/flow/crash-hook.server.ts).
const { default: prisma } = await import("../../app/db.server");
const steps: Record<string, () => Promise<{ message: string; error: boolean }>> = {
  populateResponses: async () => (await import("../../app/dropship/flow/populate-responses.server")).populateShipResponses(),
  processResponses: async () => (await import("../../app/dropship/flow/process-responses.server")).processShipResponses(),
};
for (const name of process.argv.slice(2)) {
  const result = await steps[name]();
  console.log(JSON.stringify({ step: name, ...result }));
}
await prisma.$disconnect();
process.exit(0);
