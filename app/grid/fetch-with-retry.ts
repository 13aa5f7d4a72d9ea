// Failed data loads are retried 3 times with a backoff doubling from 1 s up to
// 30 s (spec 000 §9). Network failures, 5xx, 408, 429 and unreadable bodies are
// retried; other 4xx answers (a bad filter, say) will not change and are not.

export class LoadError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly body?: unknown,
    /** The server answered, but not with JSON. */
    readonly unreadable = false,
  ) {
    super(message);
  }
}

export interface RetryOptions {
  retries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  signal?: AbortSignal;
  fetchImpl?: typeof fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const retryDelayMs = (attempt: number, baseDelayMs = 1000, maxDelayMs = 30_000) => Math.min(baseDelayMs * 2 ** attempt, maxDelayMs);

function abortableSleep(ms: number, signal?: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

const retryable = (status: number) => status >= 500 || status === 408 || status === 429;

export async function fetchJsonWithRetry<T>(url: string, options: RetryOptions = {}): Promise<T> {
  const { retries = 3, baseDelayMs = 1000, maxDelayMs = 30_000, signal } = options;
  const doFetch = options.fetchImpl ?? fetch;
  const sleep = options.sleep ?? abortableSleep;
  let lastError: LoadError = new LoadError("not attempted");
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) await sleep(retryDelayMs(attempt - 1, baseDelayMs, maxDelayMs), signal);
    let response: Response;
    try {
      response = await doFetch(url, { signal, headers: { accept: "application/json" } });
    } catch (error) {
      if (signal?.aborted) throw error;
      lastError = new LoadError(`Network error: ${(error as Error).message}`);
      continue;
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      lastError = new LoadError(`Unreadable answer (HTTP ${response.status})`, response.status, undefined, response.ok);
      continue;
    }
    if (response.ok) return body as T;
    lastError = new LoadError(`HTTP ${response.status}`, response.status, body);
    if (!retryable(response.status)) break;
  }
  throw lastError;
}
