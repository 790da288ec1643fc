/**
 * Does the password-recovery answer time tell whether an address has an account? (issue 7, item 12). On the
 * embedded default (PGlite, in-process requests), alternates requests for an existing account and for unknown
 * addresses, and reports each side's median and p95 answer time and their difference.
 *
 *   bun scripts/bench/bench-recovery-timing.ts [--requests 300]
 */
import { createTestApp } from "../../tests/support/app.ts";

const i = process.argv.indexOf("--requests");
const N = i > 0 ? Number(process.argv[i + 1]) : 300;
const t = await createTestApp("pglite");
const known = await t.signup();
const times = { known: [] as number[], unknown: [] as number[] };
const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
for (let round = 0; round < N + 20; round++) {
  for (const side of round % 2 ? (["known", "unknown"] as const) : (["unknown", "known"] as const)) {
    const email = side === "known" ? known.user.email : `nobody-${round}@example.org`;
    const started = performance.now();
    const res = await t.app.request(`/api/v1/password-recovery/${email}`, { method: "POST" });
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`answer ${res.status}`);
    if (round >= 20) times[side].push(ms); // the first 20 rounds warm up
  }
}
for (const side of ["known", "unknown"] as const) {
  console.log(
    `${side.padEnd(7)} median ${quantile(times[side], 0.5).toFixed(2)} ms, p95 ${quantile(times[side], 0.95).toFixed(2)} ms (${times[side].length} requests)`,
  );
}
console.log(`difference of medians: ${(quantile(times.known, 0.5) - quantile(times.unknown, 0.5)).toFixed(2)} ms`);
await t.close();
