/**
 * One progress line for the long tools (`files copy`, `db move`): redrawn in place on a terminal, a
 * plain line every 10 % otherwise (logs, CI), always a final line.
 */
export class Progress {
  private shownTenth = -1;
  private readonly started = performance.now();

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {}

  update(done: number, detail = ''): void {
    const share = this.total === 0 ? 1 : Math.min(1, done / this.total);
    const line = `${this.label} ${bar(share)} ${done.toLocaleString('en')}/${this.total.toLocaleString('en')}${
      detail ? ` ${detail}` : ''
    }`;
    if (this.out.isTTY) this.out.write(`\r${line}\x1b[K`);
    else if (Math.floor(share * 10) > this.shownTenth) {
      this.shownTenth = Math.floor(share * 10);
      this.out.write(`${line}\n`);
    }
  }

  /** Seconds since the start. */
  elapsed(): number {
    return (performance.now() - this.started) / 1000;
  }

  done(summary: string): void {
    this.out.write(`${this.out.isTTY ? '\r\x1b[K' : ''}${this.label} ${summary}\n`);
  }
}

function bar(share: number, width = 24): string {
  const full = Math.round(share * width);
  return `[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${Math.floor(share * 100)
    .toString()
    .padStart(3)}%`;
}

export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
