/**
 * What a bench script started (servers, clusters, temporary directories), undone in reverse order when
 * it ends or is interrupted.
 */
export const cleanups: (() => void)[] = [];

export function cleanup(): void {
  for (const f of cleanups.splice(0).reverse()) {
    try {
      f();
    } catch {
      // best effort
    }
  }
}

process.once('SIGINT', () => (cleanup(), process.exit(130)));
process.once('SIGTERM', () => (cleanup(), process.exit(143)));
