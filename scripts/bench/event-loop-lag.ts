// The event loop's lateness, as the benchmarks that load the server's thread measure it (bench-export,
// bench-syntax-load): one place, so that their "longest block" figures mean the same thing.

/**
 * Starts a `tickMs` interval timer and tracks how late it fires. `take()` returns the longest lateness (ms) since
 * the previous `take()` and resets it; `stop()` clears the timer.
 */
export function lagMonitor(tickMs = 10): { take(): number; stop(): void } {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - tickMs);
    last = now;
  }, tickMs);
  return {
    take(): number {
      const w = worst;
      worst = 0;
      return w;
    },
    stop: () => clearInterval(timer),
  };
}
