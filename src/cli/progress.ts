/**
 * A one-line progress bar on stderr, for TTYs only (callers check process.stderr.isTTY).
 * Counts bytes by default (shown in MB); give `unit` to count something else, e.g.
 * `(n) => `${n} items``, and `update(done, note)` for a short status after the bar.
 */
export class ProgressBar {
  private last = 0;

  constructor(
    private readonly label: string,
    private readonly total?: number,
    private readonly unit: (n: number) => string = (n) => `${(n / 1e6).toFixed(1)} MB`,
  ) {}

  update(done: number, note = '', force = false): void {
    const now = Date.now();
    if (!force && now - this.last < 100) return;
    this.last = now;
    const amount = this.unit(done) + (note ? ` ${note}` : '');
    if (!this.total) {
      process.stderr.write(`\r\x1b[K${this.label}: ${amount}`);
      return;
    }
    const frac = Math.min(1, done / this.total);
    const width = 30;
    const filled = Math.round(frac * width);
    process.stderr.write(
      `\r\x1b[K${this.label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.floor(frac * 100)}% ${amount}`,
    );
  }

  clear(): void {
    if (this.last) process.stderr.write('\r\x1b[K');
  }
}
