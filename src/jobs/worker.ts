import { sql } from "kysely";
import { hostname } from "node:os";
import type { AppDeps } from "../deps.ts";
import type { Database } from "../db/database.ts";
import {
  InvalidJobPayloadError,
  type Job,
  type JobContext,
  type JobHandler,
  type JobHandlers,
  type JobRunner,
  payloadSchemaOf,
  readPayload,
} from "./kinds.ts";

/** Tuning of startWorker; every field has a default. */
export interface WorkerOptions {
  /** Jobs run at the same time (default 1). */
  concurrency?: number;
  /** How long an idle worker waits before looking for due jobs again (default 1000 ms). */
  pollIntervalMs?: number;
  /** Name written to jobs.locked_by (default host:pid:random). */
  workerId?: string;
  /**
   * A running job whose lock was not renewed for this long is taken to belong to a dead worker and is queued
   * again (default 10 s). Live workers renew their locks (a heartbeat) every quarter of it, so a job whose worker
   * was killed is taken back by another worker, or by the restarted one, within about `leaseMs`.
   */
  leaseMs?: number;
  /**
   * Re-queue every job left 'running' when the worker starts, whatever its lock age. Right only when this is
   * the one process that runs jobs (embedded PGlite, which a single process owns). Default: true on PGlite
   * (no DATABASE_URL), false on a PostgreSQL server, where other workers may be alive.
   */
  recoverAllRunning?: boolean;
  /** Delay before retry number `attempt + 1` after attempt `attempt` failed (default 5 s doubling, at most 5 min). */
  backoffMs?: (attempt: number) => number;
  /**
   * Ask the JavaScript engine to collect garbage after each job (default: on the embedded database). With PGlite,
   * queries run synchronously on this thread, and a burst of reviews kept the engine so busy that it grew its heap
   * instead of collecting: 200 reviews took the process from 0.65 to 2.6 GB. An asynchronous collection hint after
   * each job keeps it at about 0.7 GB at no measurable cost in throughput (docs/benchmarks.md, "Embedded default").
   */
  collectGarbageAfterJob?: boolean;
}

/** A started worker. */
export interface Worker {
  /** Resolves once start-up recovery of abandoned jobs is done. */
  ready: Promise<void>;
  /** Stops claiming jobs and resolves when the jobs already running have finished. */
  stop(): Promise<void>;
}

/**
 * Default lease. Short, so that a killed worker's jobs are not stuck for long; safe, because renewal runs on a
 * timer while a job runs and no step of a job blocks the event loop for seconds (a review's longest step, the
 * summary, takes milliseconds).
 */
export const DEFAULT_LEASE_MS = 10_000;
/** How often finished jobs older than DONE_RETENTION_DAYS are deleted. */
const CLEANUP_INTERVAL_MS = 60_000;
/** Finished jobs are kept this long for inspection, then deleted by the periodic sweep. */
const DONE_RETENTION_DAYS = 7;

/** Default retry delay: 5 s, 10 s, 20 s … capped at 5 minutes. */
export function defaultBackoffMs(attempt: number): number {
  return Math.min(5 * 60_000, 5_000 * 2 ** Math.max(0, attempt - 1));
}

function defaultWorkerId(): string {
  return `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
}

type JobRow = { id: unknown; kind: string; payload: unknown; attempts: number; max_attempts: number };

/**
 * The stored payload as a value. A driver that hands jsonb over as text gives a string to decode; a string that is no
 * JSON text is a JSON string value already decoded, kept as it is for the kind's schema to refuse (it used to throw
 * here, inside the claim, and so leave the job running until its lease ran out, again and again).
 */
function payloadValue(raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function toJob(row: JobRow): Job {
  const payload = payloadValue(row.payload);
  return {
    id: String(row.id),
    kind: row.kind,
    payload: (payload ?? {}) as Record<string, unknown>,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
  };
}

function describeError(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return String(err);
}

function runnerOf(handler: JobHandler): JobRunner {
  return typeof handler === "function" ? handler : handler.run;
}

/**
 * Atomically claims a due queued job of one of `kinds`: marks it running, locked by `workerId`, and counts the
 * attempt. Fair across users: due jobs are taken in `fair_at` order, a job's run_at pushed back by one step
 * (FAIR_STEP_SECONDS, queue-pg.ts) per job its user already had queued or running when it was enqueued. So each
 * user's first job comes before anyone's second, each second before anyone's third, and a newcomer's first review
 * waits for the jobs that were first in their users' queues, not for the heavy users' whole queues (issue 22, item 5:
 * with 60 users × 3 reviews queued, a newcomer waited 10.6 s; see docs/decisions/0034-fair-claims-and-stream-push.md).
 * A job re-queued for a retry or after a crash keeps its place. SKIP LOCKED lets concurrent workers on a PostgreSQL
 * server pass over each other's candidates instead of waiting; on PGlite the single connection serialises claims.
 *
 * One statement, walking the index jobs_fair_due_idx (fair_at, id) of queued jobs to the first due one of `kinds`.
 * @returns the job, or null when none is due.
 */
export async function claimJob(db: Database, workerId: string, kinds: string[]): Promise<Job | null> {
  if (kinds.length === 0) return null;
  const row = await db
    .updateTable("jobs")
    .set({
      status: "running",
      locked_at: sql`now()`,
      locked_by: workerId,
      attempts: sql`attempts + 1`,
      updated_at: sql`now()`,
    })
    .where("id", "=", () =>
      dueJobs(db, kinds).select("id").orderBy("fair_at").orderBy("id").limit(1).forUpdate().skipLocked(),
    )
    .returning(["id", "kind", "payload", "attempts", "max_attempts"])
    .executeTakeFirst();
  return row ? toJob(row) : null;
}

/** The due queued jobs of `kinds` (a query to select from). */
function dueJobs(db: Database, kinds: string[]) {
  return db
    .selectFrom("jobs")
    .where("status", "=", "queued")
    .where(sql<boolean>`run_at <= now()`)
    .where("kind", "in", kinds);
}

/**
 * Puts jobs abandoned by dead workers back in the queue: 'running' jobs whose lock is older than `leaseMs`,
 * or every 'running' job when `all` is set. A job that had already used all its attempts is marked failed
 * instead, so a job that kills its process cannot loop forever.
 * @returns how many were re-queued, and the jobs given up (their handlers' onGiveUp is the caller's to call).
 */
export async function recoverStaleJobs(
  db: Database,
  opts: { leaseMs: number; all?: boolean },
): Promise<{ requeued: number; failed: Job[] }> {
  const stale = () =>
    db
      .updateTable("jobs")
      .where("status", "=", "running")
      .$if(!opts.all, (qb) =>
        qb.where(sql<boolean>`locked_at < now() - make_interval(secs => ${opts.leaseMs / 1000})`),
      );
  const reason = "abandoned: the worker running it stopped before finishing";
  const failed = await stale()
    .where(sql<boolean>`attempts >= max_attempts`)
    .set({ status: "failed", locked_at: null, locked_by: null, last_error: reason, updated_at: sql`now()` })
    .returning(["id", "kind", "payload", "attempts", "max_attempts"])
    .execute();
  const requeued = await stale()
    .set({
      status: "queued",
      locked_at: null,
      locked_by: null,
      last_error: reason,
      run_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .executeTakeFirst();
  return { requeued: Number(requeued.numUpdatedRows), failed: failed.map(toJob) };
}

/**
 * Runs one claimed job and records the outcome: done; queued again after a backoff while attempts remain;
 * else failed (and the handler's onGiveUp is called). Outcome writes are conditional on this worker still
 * holding the lock, so a job re-queued meanwhile as stale is not overwritten.
 */
async function executeJob(
  deps: AppDeps,
  handlers: JobHandlers,
  job: Job,
  workerId: string,
  backoffMs: (attempt: number) => number,
): Promise<void> {
  const ownRow = () =>
    deps.db
      .updateTable("jobs")
      .where("id", "=", job.id)
      .where("status", "=", "running")
      .where("locked_by", "=", workerId);
  const handler = handlers[job.kind];
  const ctx: JobContext = { deps, job };
  try {
    if (!handler) throw new Error(`no handler for job kind "${job.kind}"`);
    await runnerOf(handler)(readPayload(job.kind, payloadSchemaOf(handler), job.payload), ctx);
    await ownRow()
      .set({ status: "done", locked_at: null, locked_by: null, last_error: null, updated_at: sql`now()` })
      .execute();
  } catch (err) {
    // A payload its schema refuses fails the same way on every attempt: the job fails now, with the schema's message
    // (no stack: the message says all), and the worker goes on with the next job.
    const malformed = err instanceof InvalidJobPayloadError;
    const reason = malformed ? err.message : describeError(err);
    if (job.attempts < job.maxAttempts && !malformed) {
      const delaySeconds = backoffMs(job.attempts) / 1000;
      console.error(
        `job ${job.id} (${job.kind}) attempt ${job.attempts}/${job.maxAttempts} failed; retrying in ${delaySeconds} s:`,
        err,
      );
      await ownRow()
        .set({
          status: "queued",
          locked_at: null,
          locked_by: null,
          last_error: reason,
          run_at: sql`now() + make_interval(secs => ${delaySeconds})`,
          updated_at: sql`now()`,
        })
        .execute();
    } else {
      if (malformed) console.error(`job ${job.id} (${job.kind}) failed: ${reason}`);
      else console.error(`job ${job.id} (${job.kind}) failed after ${job.attempts} attempts:`, err);
      await ownRow()
        .set({ status: "failed", locked_at: null, locked_by: null, last_error: reason, updated_at: sql`now()` })
        .execute();
      if (!malformed) await giveUp(deps, handlers, job, reason);
    }
  }
}

async function giveUp(deps: AppDeps, handlers: JobHandlers, job: Job, reason: string): Promise<void> {
  const handler = handlers[job.kind];
  if (!handler || typeof handler === "function" || !handler.onGiveUp) return;
  try {
    // onGiveUp gets the payload as its schema parsed it; a malformed one has nothing it could record (logged below).
    await handler.onGiveUp(readPayload(job.kind, handler.payload, job.payload), reason, { deps, job });
  } catch (err) {
    console.error(`job ${job.id} (${job.kind}): recording the failure failed:`, err);
  }
}

async function recoverAndReport(
  deps: AppDeps,
  handlers: JobHandlers,
  opts: { leaseMs: number; all?: boolean },
): Promise<void> {
  const { requeued, failed } = await recoverStaleJobs(deps.db, opts);
  if (requeued > 0) console.warn(`re-queued ${requeued} job(s) abandoned by a stopped worker`);
  for (const job of failed) await giveUp(deps, handlers, job, "abandoned on its last attempt");
}

/**
 * The idle loops' sleep: `sleep()` waits `pollIntervalMs`, or less when `wake()` is called (a job enqueued in this
 * process, or the worker stopping). A wake-up that arrives while every loop is busy is remembered, so the next idle
 * loop looks again at once.
 */
function idleSleep(pollIntervalMs: number, stopping: () => boolean): { sleep(): Promise<void>; wake(): void } {
  const sleepers = new Set<() => void>();
  let wakePending = false;
  const wake = () => {
    if (sleepers.size === 0) wakePending = true;
    for (const resolve of sleepers) resolve();
    sleepers.clear();
  };
  const sleep = () =>
    new Promise<void>((resolve) => {
      if (wakePending || stopping()) {
        wakePending = false;
        return resolve();
      }
      const timer = setTimeout(() => {
        sleepers.delete(done);
        resolve();
      }, pollIntervalMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      sleepers.add(done);
    });
  return { sleep, wake };
}

/**
 * The worker's heartbeat, every quarter of `leaseMs`: renews this worker's locks so its live jobs never look
 * abandoned, hands back other workers' abandoned ones, and now and then deletes old finished jobs.
 * @returns stop(): no round starts after it; resolves when the round under way (if any) has finished.
 */
function startMaintenance(
  deps: AppDeps,
  handlers: JobHandlers,
  workerId: string,
  leaseMs: number,
): { stop(): Promise<void> } {
  let maintaining: Promise<void> = Promise.resolve();
  let lastCleanup = Date.now();
  const timer = setInterval(
    () => {
      // One round at a time: a slow database must not pile rounds up.
      maintaining = maintaining.then(async () => {
        try {
          await deps.db
            .updateTable("jobs")
            .set({ locked_at: sql`now()` })
            .where("status", "=", "running")
            .where("locked_by", "=", workerId)
            .execute();
          await recoverAndReport(deps, handlers, { leaseMs });
          if (Date.now() - lastCleanup >= CLEANUP_INTERVAL_MS) {
            lastCleanup = Date.now();
            await deps.db
              .deleteFrom("jobs")
              .where("status", "=", "done")
              .where(sql<boolean>`updated_at < now() - make_interval(days => ${DONE_RETENTION_DAYS})`)
              .execute();
          }
        } catch (err) {
          console.error("job worker: maintenance failed:", err);
        }
      });
    },
    Math.max(10, Math.floor(leaseMs / 4)),
  );
  return {
    stop() {
      clearInterval(timer);
      return maintaining;
    },
  };
}

/**
 * Starts a worker in this process: `concurrency` loops that each claim a due job, run its handler and record
 * the outcome, sleeping `pollIntervalMs` when the queue is empty (or until a job is enqueued in this process).
 * On start it re-queues jobs abandoned by dead workers; while running it renews its own locks and sweeps
 * stale ones. Errors talking to the database are logged and retried at the next poll, never fatal.
 */
export function startWorker(deps: AppDeps, handlers: JobHandlers, opts: WorkerOptions = {}): Worker {
  const concurrency = Math.max(1, opts.concurrency ?? 1);
  const pollIntervalMs = opts.pollIntervalMs ?? 1000;
  const workerId = opts.workerId ?? defaultWorkerId();
  const leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
  const recoverAll = opts.recoverAllRunning ?? !deps.config.DATABASE_URL;
  const backoffMs = opts.backoffMs ?? defaultBackoffMs;
  const collectGarbage = opts.collectGarbageAfterJob ?? !deps.config.DATABASE_URL;
  const kinds = Object.keys(handlers);

  let stopping = false;
  const { sleep, wake } = idleSleep(pollIntervalMs, () => stopping);
  const unsubscribe = deps.jobs.onEnqueued?.(wake);

  const ready = recoverAndReport(deps, handlers, { leaseMs, all: recoverAll }).catch((err) => {
    console.error("job worker: start-up recovery failed:", err);
  });
  const maintenance = startMaintenance(deps, handlers, workerId, leaseMs);

  const loop = async () => {
    await ready;
    while (!stopping) {
      let job: Job | null = null;
      try {
        job = await claimJob(deps.db, workerId, kinds);
      } catch (err) {
        console.error("job worker: claiming a job failed:", err);
      }
      if (job) {
        // An outcome that cannot be written (database gone) leaves the job running; its lease then expires.
        await executeJob(deps, handlers, job, workerId, backoffMs).catch((err) =>
          console.error(`job ${job.id}: recording the outcome failed:`, err),
        );
        if (collectGarbage) Bun.gc(false);
      } else if (!stopping) await sleep();
    }
  };
  const loops = Array.from({ length: concurrency }, () => loop());

  return {
    ready,
    async stop() {
      stopping = true;
      unsubscribe?.();
      const maintained = maintenance.stop();
      wake();
      await Promise.all([...loops, maintained]);
    },
  };
}

/**
 * Runs due jobs one after another until none is due, then returns how many ran. For tests and scripts: the
 * same claim and outcome rules as the worker, with no timers. Jobs queued for a later retry are not waited for.
 */
export async function runJobsUntilIdle(
  deps: AppDeps,
  handlers: JobHandlers,
  opts: { workerId?: string; backoffMs?: (attempt: number) => number } = {},
): Promise<number> {
  const workerId = opts.workerId ?? defaultWorkerId();
  const kinds = Object.keys(handlers);
  let ran = 0;
  for (let job = await claimJob(deps.db, workerId, kinds); job; job = await claimJob(deps.db, workerId, kinds)) {
    await executeJob(deps, handlers, job, workerId, opts.backoffMs ?? defaultBackoffMs);
    ran++;
  }
  return ran;
}
