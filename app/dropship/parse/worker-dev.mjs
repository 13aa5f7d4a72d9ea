// The parse worker from its TypeScript source (npm run dev, vitest, benches):
// tsx's loader is registered first, then worker.ts is imported. Given as
// execArgv (`--import tsx`), the loader can come too late for a worker's own
// entry (Node 20). Built processes start build/processes/parse-worker.js instead.
import { register } from "tsx/esm/api";

register();
await import("./worker.ts");
