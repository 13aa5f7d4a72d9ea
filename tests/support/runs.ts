// Following a background run over HTTP as a page does (D93): the POST answers
// 202 with the run at once, GET /api/run/{id} tells how it goes. Answers that
// start nothing (422, 404, 405, 409 already running) come back as they are.
export interface FollowedRun {
  /** The POST's status: 202 when the run started. */
  startStatus: number;
  /** The run's end as GET /api/run/{id} answers it, or the POST's answer when nothing started. */
  body: Record<string, unknown> & { error?: boolean; message?: string; detail?: string | null; status?: string };
}

export async function followRun(baseUrl: string, started: Response, init: RequestInit = {}, timeoutMs = 60_000): Promise<FollowedRun> {
  const answer = (await started.json()) as FollowedRun["body"] & { run_id?: number };
  if (started.status !== 202) return { startStatus: started.status, body: answer };
  const locale = new URL(started.url).searchParams.get("locale");
  return { startStatus: started.status, body: await runEnd(baseUrl, answer.run_id!, { init, locale, timeoutMs }) };
}

/** GET /api/run/{id} until the run has ended. */
export async function runEnd(
  baseUrl: string,
  id: number,
  options: { init?: RequestInit; locale?: string | null; timeoutMs?: number } = {},
): Promise<FollowedRun["body"]> {
  const { init = {}, locale, timeoutMs = 60_000 } = options;
  const url = `${baseUrl}/api/run/${id}${locale ? `?locale=${locale}` : ""}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(url, {
      ...init,
      method: "GET",
      headers: { accept: "application/json", ...(init.headers as Record<string, string> | undefined) },
    });
    if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`);
    const run = (await response.json()) as FollowedRun["body"];
    if (run.status !== "running") return run;
    if (Date.now() > deadline) throw new Error(`run ${id} still running after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
