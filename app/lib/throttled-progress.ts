// Progress of long work, saved where staff read it (a feed's starting log, a
// background run's row): patches are merged, written at most once per interval
// and in order, and the last one is always written by finish(). A lost write
// only loses progress: it is reported, never thrown.
export class ThrottledProgress<T extends Record<string, unknown>> {
  private lastWrite = 0;
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;
  private closed = false;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly state: T,
    private readonly save: (state: T) => Promise<unknown>,
    private readonly onError: (error: Error) => void,
    private readonly intervalMs = 1000,
  ) {}

  update(patch: Partial<T>): Promise<void> {
    if (this.closed) return Promise.resolve();
    Object.assign(this.state, patch);
    this.dirty = true;
    if (this.timer) return Promise.resolve();
    const wait = this.lastWrite + this.intervalMs - Date.now();
    if (wait <= 0) return this.write();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.write();
    }, wait);
    return Promise.resolve();
  }

  async finish(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.write();
  }

  private write(): Promise<void> {
    if (!this.dirty) return this.chain;
    this.dirty = false;
    this.lastWrite = Date.now();
    const snapshot = { ...this.state };
    this.chain = this.chain
      .then(() => this.save(snapshot))
      .then(
        () => undefined,
        (error: Error) => this.onError(error),
      );
    return this.chain;
  }
}
