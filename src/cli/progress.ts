/** A one-line progress bar on stderr, for TTYs only (callers check process.stderr.isTTY). */
export class Progress {
  private last = 0;

  constructor(private readonly label: string, private readonly total?: number) {}

  update(bytes: number): void {
    const now = Date.now();
    if (now - this.last < 100) return;
    this.last = now;
    const mb = `${(bytes / 1e6).toFixed(1)} MB`;
    if (!this.total) {
      process.stderr.write(`\r${this.label}: ${mb}`);
      return;
    }
    const frac = Math.min(1, bytes / this.total);
    const width = 30;
    const done = Math.round(frac * width);
    process.stderr.write(`\r${this.label} [${'#'.repeat(done)}${'.'.repeat(width - done)}] ${Math.floor(frac * 100)}% ${mb}`);
  }

  clear(): void {
    if (this.last) process.stderr.write('\r\x1b[K');
  }
}
