// The bench's /healthz poller, in a process of its own (its timers must not
// wait on the process under test): a GET every 50 ms, each one's time taken
// from sending to the answer's end. Stops when stdin closes and prints the
// times (ms) as one line of JSON.
const url = process.argv[2];
const times: number[] = [];
let failures = 0;
const timer = setInterval(() => {
  const start = performance.now();
  fetch(url).then(
    async (response) => {
      await response.arrayBuffer();
      times.push(performance.now() - start);
    },
    () => failures++,
  );
}, 50);
process.stdin.resume();
process.stdin.on("end", () => {
  clearInterval(timer);
  // Answers still under way are waited for: a stalled process shows as its longest wait.
  setTimeout(() => {
    process.stdout.write(`${JSON.stringify({ times, failures })}\n`);
    process.exit(0);
  }, 2000);
});
