// A background run as the browser sees it (shared by server and pages).

export interface RunProgress {
  /** Items done of `total` (the progress bar); without a total the page shows a spinner. */
  done?: number;
  total?: number;
  /** What `done` and `total` count: requests, files, records, rows. */
  unit?: string;
  [count: string]: unknown;
}

export type RunStatus = "running" | "finished" | "failed" | "interrupted";

/** A run as a page and GET /api/run/{id} show it, its texts in the reader's language. */
export interface RunView {
  id: number;
  kind: string;
  action: string;
  status: RunStatus;
  /** Set once ended. */
  error: boolean | null;
  message: string | null;
  detail: string | null;
  progress: RunProgress;
  data: Record<string, unknown>;
  params: Record<string, unknown>;
  started_at: string;
  finished_at: string | null;
}
