/**
 * The request budget of NCBI's E-utilities, shared by every process of a deployment.
 *
 * NCBI's rule (https://www.ncbi.nlm.nih.gov/books/NBK25497/, "Usage Guidelines and Requirements"): no more than 3
 * requests a second from one site without an API key, 10 with one; past it NCBI answers HTTP 429
 * `{"error":"API rate limit exceeded",…}`. The budget belongs to the site, not to a process: the web server, each job
 * worker and a `npm run pubmed:fetch` all draw on the same 3 (or 10). So the gate lives in the database every one of
 * them already shares: the table `ncbi_rate_gate` (migrations/2026_11_26_0101_pubmed_on_demand.ts) holds, per budget,
 * the earliest time the next request may go. Taking a slot is ONE atomic statement,
 *
 *   INSERT … ON CONFLICT (name) DO UPDATE SET next_slot_at = greatest(next_slot_at, clock_timestamp()) + spacing
 *   RETURNING next_slot_at - spacing AS slot, clock_timestamp() AS now
 *
 * (the INSERT only creates the row on first use): concurrent callers serialise on the row lock, each gets its own slot
 * `spacing` after the previous one, and then sleeps until it. Waiters queue in slot order across processes, so
 * concurrent reviews share the budget fairly. The wait is computed from the database's clock alone (slot − now, in one
 * statement), so the processes' own clocks never need to agree.
 *
 * Why not a library: in-memory limiters (bottleneck, p-limit, p-throttle) keep their state in one process, which is
 * exactly what the deployment-wide budget rules out. rate-limiter-flexible can keep its counters in PostgreSQL, but
 * only through the `pg`, knex, Sequelize or TypeORM clients (this project speaks postgres.js and embedded PGlite,
 * neither supported), it creates its own table at run time rather than through our migrations, and it counts requests
 * per fixed window and rejects past the count rather than queueing: two fixed windows back to back let 2 × 3 requests
 * through within one second, which NCBI's sliding count (and our stand-in's) rejects. A slot schedule is the small
 * thing that fits; it is one statement.
 *
 * Fair share between users (issue 34): one user's concurrent reviews must not take the whole budget from the others.
 * A caller may name a fairness key (the user: "user:<id>"); the key then holds at most one slot not yet reached. A
 * second request of the same key waits until the first one's slot has come, then takes the next free slot, behind any
 * slot other keys took meanwhile. So with n keys waiting, each gets every n-th slot, as a round robin (the same rule as
 * the job queue's claims, docs/decisions/0034-fair-claims-and-stream-push.md), and a key alone still gets every slot.
 * The key's row in `ncbi_rate_gate` ("<name> <key>") holds its pending slot; the key's row and then the budget's row
 * are locked in one short transaction, always in that order.
 *
 * Margins: slots are spaced 10 % wider than 1/rate (SPACING_MARGIN), so any rate + 1 consecutive slots span 1.1 s and
 * a request may start up to ~100 ms late (timer lateness, a busy event loop, the database's reply) without a sliding
 * one-second window ever seeing more than `rate` of them. A waiter that wakes more than LATE_MS after its slot gives
 * the slot up and takes a new one, so one stalled process cannot squeeze its request against the next on-time ones.
 */
import { sql } from "kysely";
import type { Database } from "../../src/db/database.ts";

/** Something that says when this process may send its next request. */
export interface RateGate {
  /**
   * Resolves when this caller may send one request (the slot is then used up, whether the request is sent or not).
   * @throws the signal's reason (an AbortError/TimeoutError DOMException) when `signal` aborts first.
   */
  acquire(signal?: AbortSignal): Promise<void>;
}

/**
 * NCBI's request budget for a deployment: 3 requests a second without an API key, 10 with one
 * (https://www.ncbi.nlm.nih.gov/books/NBK25497/).
 */
export function ncbiRateLimit(apiKey?: string | null): number {
  return apiKey && apiKey.trim() !== "" ? 10 : 3;
}

/** Slots are this much wider than 1/rate (see the module comment). */
export const SPACING_MARGIN = 0.1;
/** A waiter waking later than this after its slot takes a new slot instead of sending late. */
const LATE_MS = 50;
/** How many times one acquire gives a late slot up before it sends anyway (a process that is always late). */
const MAX_RESLOTS = 3;

/** Options of DatabaseRateGate. */
export interface DatabaseRateGateOptions {
  /** The budget's row in `ncbi_rate_gate` (default "eutils"): every gate of one name shares one budget. */
  name?: string;
  /** Requests a second allowed for the whole deployment (e.g. `ncbiRateLimit(apiKey)`); > 0. */
  requestsPerSecond: number;
  /** Waits `ms` or until `signal` aborts (default: a timer); tests may replace it. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * The requester whose share of the budget this gate draws on (e.g. "user:<id>"): at most one slot of the key is
   * pending at a time (see the module comment). Unset: no share, as the operator's command-line tools.
   */
  fairnessKey?: string;
}

/**
 * A RateGate whose schedule is a row of `ncbi_rate_gate`: every process opening the same database and name shares it.
 * Works the same on PostgreSQL and PGlite (where only one process can open the database anyway). Give it the
 * database handle, not a transaction: the row stays locked until the statement's transaction ends.
 */
export class DatabaseRateGate implements RateGate {
  readonly name: string;
  readonly requestsPerSecond: number;
  /** Milliseconds between two slots. */
  readonly spacingMs: number;
  /** The key's row in `ncbi_rate_gate`, or null without a fairness key. */
  readonly keyRow: string | null;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  /** @throws RangeError when requestsPerSecond is not a positive finite number. */
  constructor(
    private readonly db: Database,
    opts: DatabaseRateGateOptions,
  ) {
    if (!(opts.requestsPerSecond > 0) || !Number.isFinite(opts.requestsPerSecond)) {
      throw new RangeError(`requestsPerSecond must be a positive number, not ${opts.requestsPerSecond}`);
    }
    this.name = opts.name ?? "eutils";
    this.requestsPerSecond = opts.requestsPerSecond;
    this.spacingMs = (1000 / opts.requestsPerSecond) * (1 + SPACING_MARGIN);
    this.keyRow = opts.fairnessKey ? `${this.name} ${opts.fairnessKey}` : null;
    this.sleep = opts.sleep ?? abortableSleep;
  }

  /**
   * Takes the next slot of the shared schedule and waits for it; with a fairness key, first waits until the key's
   * pending slot (if any) has come. @throws the signal's reason on abort.
   */
  async acquire(signal?: AbortSignal): Promise<void> {
    let reslots = 0;
    for (;;) {
      signal?.throwIfAborted();
      const taken =
        this.keyRow === null ? { waitMs: await this.takeSlot(this.db) } : await this.takeKeySlot(this.keyRow);
      if ("keyWaitMs" in taken) {
        // Another request of this key holds a slot still to come: after it, this one takes the next free slot.
        await this.sleep(taken.keyWaitMs, signal);
        continue;
      }
      const due = performance.now() + taken.waitMs;
      if (taken.waitMs > 0) await this.sleep(taken.waitMs, signal);
      signal?.throwIfAborted();
      if (performance.now() - due <= LATE_MS || reslots >= MAX_RESLOTS) return;
      reslots++;
    }
  }

  /**
   * With a fairness key: in one transaction, locks the key's row; if its pending slot is still to come, @returns how
   * long until it (keyWaitMs); else reserves the next slot, records it as the key's pending one and @returns the wait.
   */
  private takeKeySlot(keyRow: string): Promise<{ waitMs: number } | { keyWaitMs: number }> {
    return this.db.transaction().execute(async (trx) => {
      await sql`INSERT INTO ncbi_rate_gate (name, next_slot_at) VALUES (${keyRow}, 'epoch') ON CONFLICT (name) DO NOTHING`.execute(
        trx,
      );
      const { rows } = await sql<{ wait_ms: number | string }>`
        SELECT (extract(epoch FROM (next_slot_at - clock_timestamp())) * 1000)::float8 AS wait_ms
        FROM ncbi_rate_gate WHERE name = ${keyRow} FOR UPDATE`.execute(trx);
      const keyWaitMs = Number(rows[0]?.wait_ms ?? Number.NEGATIVE_INFINITY);
      if (keyWaitMs > 0) return { keyWaitMs };
      const waitMs = await this.takeSlot(trx);
      await sql`UPDATE ncbi_rate_gate SET next_slot_at = clock_timestamp() + make_interval(secs => ${waitMs / 1000}::float8)
        WHERE name = ${keyRow}`.execute(trx);
      return { waitMs };
    });
  }

  /** Reserves the next slot; @returns milliseconds from now (the database's now) until it, ≥ 0. */
  private async takeSlot(db: Database): Promise<number> {
    const spacing = this.spacingMs / 1000;
    const { rows } = await sql<{ wait_ms: number | string }>`
      INSERT INTO ncbi_rate_gate AS g (name, next_slot_at)
      VALUES (${this.name}, clock_timestamp() + make_interval(secs => ${spacing}::float8))
      ON CONFLICT (name) DO UPDATE
        SET next_slot_at = greatest(g.next_slot_at, clock_timestamp()) + make_interval(secs => ${spacing}::float8)
      RETURNING (extract(epoch FROM (g.next_slot_at - make_interval(secs => ${spacing}::float8) - clock_timestamp())) * 1000)::float8 AS wait_ms`.execute(
      db,
    );
    return Math.max(0, Number(rows[0]?.wait_ms ?? 0));
  }
}

/**
 * Removes the rows of fairness keys (rows named "<budget> <key>") whose pending slot passed more than an hour ago:
 * such a row only says "no slot pending", which its absence says too.
 * @returns rows removed.
 */
export async function pruneRateGateKeys(db: Database): Promise<number> {
  const result = await sql`
    DELETE FROM ncbi_rate_gate WHERE name LIKE '% %' AND next_slot_at < now() - interval '1 hour'`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Resolves after `ms`, or rejects with the signal's reason as soon as `signal` aborts (the timer is cleared).
 */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
