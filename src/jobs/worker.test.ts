import { afterAll, beforeAll, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { sql } from "kysely";
import { LAYER_BACKENDS, createTestDatabase } from "../../tests/support/database.ts";
import type { DatabaseHandle } from "../db/database.ts";
import { loadConfig } from "../config.ts";
import type { AppDeps } from "../deps.ts";
import type { SearchIndex } from "../../search/search-index.ts";
import { PgJobQueue } from "./queue-pg.ts";
import { DEFAULT_LEASE_MS, claimJob, recoverStaleJobs, runJobsUntilIdle, startWorker } from "./worker.ts";
import type { JobHandlers } from "./kinds.ts";

/** A search index the job tests never reach. */
const unusedSearch: SearchIndex = {
  index: async () => {},
  delete: async () => {},
  refresh: async () => {},
  search: async () => ({ hits: [], total: 0, totalIsLowerBound: false }),
  similar: async () => ({ hits: [], total: 0, totalIsLowerBound: false }),
};

/** A promise with its resolve function, to let a test decide when a handler may finish. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

for (const backend of LAYER_BACKENDS) {
  describe(`job queue on ${backend}`, () => {
    let handle: DatabaseHandle;
    let deps: AppDeps;
    let queue: PgJobQueue;

    beforeAll(async () => {
      handle = await createTestDatabase(backend);
      queue = new PgJobQueue(handle.db);
      deps = {
        config: loadConfig({}),
        db: handle.db,
        search: unusedSearch,
        jobs: queue,
        secretKey: new Uint8Array(32),
      };
    });
    afterAll(async () => {
      await handle.close();
    });
    beforeEach(async () => {
      await handle.db.deleteFrom("jobs").execute();
    });

    const jobRow = (id: string) =>
      handle.db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

    test("an enqueued job runs once with its payload and is marked done", async () => {
      const seen: unknown[] = [];
      const id = await queue.enqueue("test.echo", { reviewId: "abc", n: 3, nested: { ok: true } });
      expect((await jobRow(id)).status).toBe("queued");
      // Stored as a JSON object, queryable in SQL, not as an encoded string.
      const stored = await handle.db
        .selectFrom("jobs")
        .select(sql<string>`payload->>'reviewId'`.as("reviewId"))
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      expect(stored.reviewId).toBe("abc");

      const ran = await runJobsUntilIdle(deps, { "test.echo": async (payload) => void seen.push(payload) });

      expect(ran).toBe(1);
      expect(seen).toEqual([{ reviewId: "abc", n: 3, nested: { ok: true } }]);
      const row = await jobRow(id);
      expect(row.status).toBe("done");
      expect(row.attempts).toBe(1);
      expect(row.locked_by).toBeNull();
      expect(await runJobsUntilIdle(deps, { "test.echo": async (payload) => void seen.push(payload) })).toBe(0);
    });

    test("a job enqueued in a transaction that rolls back never exists", async () => {
      await handle.db
        .transaction()
        .execute(async (trx) => {
          await queue.enqueue("test.echo", {}, { db: trx });
          throw new Error("abort");
        })
        .catch(() => {});
      const count = await handle.db
        .selectFrom("jobs")
        .select(sql<number>`count(*)::int`.as("n"))
        .executeTakeFirstOrThrow();
      expect(count.n).toBe(0);
    });

    test("only due jobs of known kinds are claimed, oldest first", async () => {
      const later = await queue.enqueue("test.a", { which: "later" }, { runAt: new Date(Date.now() + 3_600_000) });
      const first = await queue.enqueue("test.a", { which: "first" }, { runAt: new Date(Date.now() - 2_000) });
      const second = await queue.enqueue("test.a", { which: "second" });
      await queue.enqueue("test.other", {});

      expect((await claimJob(handle.db, "w1", ["test.a"]))?.id).toBe(first);
      expect((await claimJob(handle.db, "w1", ["test.a"]))?.id).toBe(second);
      expect(await claimJob(handle.db, "w1", ["test.a"])).toBeNull();
      expect((await jobRow(later)).status).toBe("queued");
    });

    test("concurrent claims never hand the same job to two workers", async () => {
      for (let i = 0; i < 5; i++) await queue.enqueue("test.a", { i });
      const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => claimJob(handle.db, `w${i}`, ["test.a"])));
      const ids = claims.filter((j) => j !== null).map((j) => j!.id);
      expect(ids.length).toBe(5);
      expect(new Set(ids).size).toBe(5);
    });

    test("a failing job is retried later with its error kept, then failed and given up after its last attempt", async () => {
      const errors = spyOn(console, "error").mockImplementation(() => {});
      try {
        const givenUp: string[] = [];
        let runs = 0;
        const handlers: JobHandlers = {
          "test.flaky": {
            run: async () => {
              runs++;
              throw new Error(`boom ${runs}`);
            },
            onGiveUp: async (payload, reason) => void givenUp.push(`${payload.name}: ${reason.split("\n")[0]}`),
          },
        };
        const id = await queue.enqueue("test.flaky", { name: "flaky" }, { maxAttempts: 2 });

        expect(await runJobsUntilIdle(deps, handlers)).toBe(1);
        let row = await jobRow(id);
        expect(row.status).toBe("queued");
        expect(row.attempts).toBe(1);
        expect(row.last_error).toContain("boom 1");
        // The retry waits for its backoff: running the queue again does nothing yet.
        expect((row.run_at as unknown as Date).getTime()).toBeGreaterThan(Date.now());
        expect(await runJobsUntilIdle(deps, handlers)).toBe(0);

        await handle.db.updateTable("jobs").set({ run_at: sql`now()` }).where("id", "=", id).execute();
        expect(await runJobsUntilIdle(deps, handlers)).toBe(1);
        row = await jobRow(id);
        expect(row.status).toBe("failed");
        expect(row.attempts).toBe(2);
        expect(row.last_error).toContain("boom 2");
        expect(givenUp).toEqual(["flaky: Error: boom 2"]);
        expect(errors).toHaveBeenCalled();
      } finally {
        errors.mockRestore();
      }
    });

    test("stale locks are re-queued, fresh ones are left to their live worker, exhausted ones fail", async () => {
      const fresh = await queue.enqueue("test.a", { which: "fresh" });
      const stale = await queue.enqueue("test.a", { which: "stale" });
      const exhausted = await queue.enqueue("test.a", { which: "exhausted" }, { maxAttempts: 1 });
      while (await claimJob(handle.db, "dead-worker", ["test.a"]));
      await handle.db
        .updateTable("jobs")
        .set({ locked_at: sql`now() - interval '1 hour'` })
        .where("id", "in", [stale, exhausted])
        .execute();

      const result = await recoverStaleJobs(handle.db, { leaseMs: 60_000 });

      expect(result.requeued).toBe(1);
      expect(result.failed.map((j) => j.id)).toEqual([exhausted]);
      expect((await jobRow(fresh)).status).toBe("running");
      expect((await jobRow(stale)).status).toBe("queued");
      expect((await jobRow(exhausted)).status).toBe("failed");

      // In single-process mode every running job at start-up is abandoned, however fresh its lock.
      expect((await recoverStaleJobs(handle.db, { leaseMs: 60_000, all: true })).requeued).toBe(1);
      expect((await jobRow(fresh)).status).toBe("queued");
    });

    test("a started worker runs jobs as they are enqueued, several at once up to its concurrency", async () => {
      const started = [deferred(), deferred()];
      const release = deferred();
      const finished: number[] = [];
      const worker = startWorker(
        deps,
        {
          "test.parallel": async (payload) => {
            const i = payload.i as number;
            started[i]!.resolve();
            await release.promise;
            finished.push(i);
          },
        },
        { concurrency: 2, pollIntervalMs: 50, workerId: "w-parallel", recoverAllRunning: false },
      );
      try {
        await worker.ready;
        const ids = [await queue.enqueue("test.parallel", { i: 0 }), await queue.enqueue("test.parallel", { i: 1 })];
        // Both handlers are inside their run before either is allowed to finish.
        await Promise.all(started.map((d) => d.promise));
        expect((await jobRow(ids[0]!)).status).toBe("running");
        release.resolve();
      } finally {
        await worker.stop();
      }
      expect(finished.sort()).toEqual([0, 1]);
    });

    test("stopping a worker waits for its running job to finish and records it done", async () => {
      const started = deferred();
      const release = deferred();
      const worker = startWorker(
        deps,
        {
          "test.slow": async () => {
            started.resolve();
            await release.promise;
          },
        },
        { pollIntervalMs: 50, workerId: "w-stop", recoverAllRunning: false },
      );
      const id = await queue.enqueue("test.slow", {});
      await started.promise;
      let stopped = false;
      const stopping = worker.stop().then(() => (stopped = true));
      await new Promise((r) => setTimeout(r, 30));
      expect(stopped).toBe(false);
      release.resolve();
      await stopping;
      expect((await jobRow(id)).status).toBe("done");
    });

    test("a running worker takes over jobs whose worker stopped renewing their lock, and keeps its own", async () => {
      const warn = spyOn(console, "warn").mockImplementation(() => {});
      const ownStarted = deferred();
      const release = deferred();
      const orphanRan = deferred();
      const worker = startWorker(
        deps,
        {
          "test.lease": async (payload) => {
            if (payload.which === "orphan") return orphanRan.resolve();
            ownStarted.resolve();
            await release.promise;
          },
        },
        { concurrency: 2, pollIntervalMs: 20, leaseMs: 300, workerId: "w-lease", recoverAllRunning: false },
      );
      try {
        const own = await queue.enqueue("test.lease", { which: "own" });
        await ownStarted.promise;
        const orphan = await queue.enqueue(
          "test.lease",
          { which: "orphan" },
          { runAt: new Date(Date.now() + 3_600_000) },
        );
        await handle.db
          .updateTable("jobs")
          .set({ status: "running", locked_by: "dead-worker", locked_at: sql`now() - interval '1 hour'`, attempts: 1 })
          .where("id", "=", orphan)
          .execute();

        await orphanRan.promise;
        const ownRow = await jobRow(own);
        expect(ownRow.status).toBe("running");
        expect(ownRow.locked_by).toBe("w-lease");
        expect(ownRow.attempts).toBe(1);
        release.resolve();
        await worker.stop();
        expect((await jobRow(orphan)).status).toBe("done");
        expect((await jobRow(own)).status).toBe("done");
      } finally {
        release.resolve();
        await worker.stop();
        warn.mockRestore();
      }
    });

    test("a worker started after a crash finishes the job the dead worker left running", async () => {
      const warn = spyOn(console, "warn").mockImplementation(() => {});
      try {
        const id = await queue.enqueue("test.resume", { step: "all" });
        const claimed = await claimJob(handle.db, "crashed-worker", ["test.resume"]);
        expect(claimed?.id).toBe(id);

        const done = deferred<Record<string, unknown>>();
        const worker = startWorker(
          deps,
          { "test.resume": async (payload) => done.resolve(payload) },
          { pollIntervalMs: 50, recoverAllRunning: true },
        );
        try {
          expect(await done.promise).toEqual({ step: "all" });
        } finally {
          await worker.stop();
        }
        const row = await jobRow(id);
        expect(row.status).toBe("done");
        expect(row.attempts).toBe(2);
      } finally {
        warn.mockRestore();
      }
    });

    test("claims are fair across users: one user's burst does not hold up another user's single job", async () => {
      for (let i = 0; i < 5; i++) await queue.enqueue("test.fair", { who: "greedy", i }, { fairnessKey: "greedy" });
      await queue.enqueue("test.fair", { who: "modest" }, { fairnessKey: "modest" });
      // A worker is running the greedy user's first job…
      const first = await claimJob(handle.db, "w-1", ["test.fair"]);
      expect(first?.payload).toMatchObject({ who: "greedy", i: 0 });
      // …so the next claim takes the modest user's job, although it was queued last.
      const second = await claimJob(handle.db, "w-2", ["test.fair"]);
      expect(second?.payload).toEqual({ who: "modest" });
      // Then the greedy user's jobs in order.
      const third = await claimJob(handle.db, "w-3", ["test.fair"]);
      expect(third?.payload).toMatchObject({ who: "greedy", i: 1 });
    });

    test("when every waiting user already has a job running, the user with the fewest running goes first", async () => {
      for (let i = 0; i < 4; i++) await queue.enqueue("test.fewest", { who: "busy", i }, { fairnessKey: "busy" });
      for (let i = 0; i < 2; i++) await queue.enqueue("test.fewest", { who: "calm", i }, { fairnessKey: "calm" });
      const claims = [];
      for (let w = 1; w <= 4; w++) claims.push((await claimJob(handle.db, `w-${w}`, ["test.fewest"]))?.payload);
      // busy 0 (nobody running), calm 0 (calm had none running), busy 1 (both have one: the oldest), then calm 1:
      // busy has two running, calm one.
      expect(claims).toEqual([
        { who: "busy", i: 0 },
        { who: "calm", i: 0 },
        { who: "busy", i: 1 },
        { who: "calm", i: 1 },
      ]);
      // Then only busy's jobs are left, oldest first.
      expect((await claimJob(handle.db, "w-5", ["test.fewest"]))?.payload).toEqual({ who: "busy", i: 2 });
    });

    // The lease is an option (WorkerOptions.leaseMs): the take-over is shown with a 1 s lease instead of waiting out
    // the default 10 s twice, and the default itself is shown by the age at which a lock counts as abandoned.
    test("a killed worker's job is taken back within about a lease, a live one's never (heartbeat)", async () => {
      const leaseMs = 1000;
      const warn = spyOn(console, "warn").mockImplementation(() => {});
      const ran = deferred();
      const slowStarted = deferred();
      const release = deferred();
      // The live worker holds a job for longer than a lease; its heartbeat must keep it.
      const live = startWorker(
        deps,
        {
          "test.slow": async () => {
            slowStarted.resolve();
            await release.promise;
          },
        },
        { pollIntervalMs: 20, leaseMs, workerId: "w-live", recoverAllRunning: false },
      );
      const taker = startWorker(
        deps,
        { "test.killed": async () => ran.resolve() },
        { pollIntervalMs: 20, leaseMs, workerId: "w-taker", recoverAllRunning: false },
      );
      try {
        const slow = await queue.enqueue("test.slow", {});
        await slowStarted.promise;
        // A job a killed worker was running: its lock was last renewed just now, then never again.
        const killed = await queue.enqueue("test.killed", {}, { runAt: new Date(Date.now() + 3_600_000) });
        await handle.db
          .updateTable("jobs")
          .set({ status: "running", locked_by: "w-killed", locked_at: sql`now()`, attempts: 1 })
          .where("id", "=", killed)
          .execute();
        const started = performance.now();
        await ran.promise;
        const took = performance.now() - started;
        // Not before the lease ran out (less the database round trip that set the lock), and soon after it: the
        // sweep runs every quarter lease; the rest is slack for a busy machine.
        expect(took).toBeGreaterThanOrEqual(leaseMs - 100);
        expect(took).toBeLessThan(leaseMs + 3_000);
        const slowRow = await jobRow(slow);
        expect(slowRow.status).toBe("running");
        expect(slowRow.locked_by).toBe("w-live");
        expect(slowRow.attempts).toBe(1);
      } finally {
        release.resolve();
        await live.stop();
        await taker.stop();
        warn.mockRestore();
      }
    });

    test(`the default lease is ${DEFAULT_LEASE_MS / 1000} s: a lock 11 s old is taken back at start, one 6 s old is left to its worker`, async () => {
      expect(DEFAULT_LEASE_MS).toBe(10_000);
      const warn = spyOn(console, "warn").mockImplementation(() => {});
      const ran = deferred();
      const lockedAgo = async (seconds: number, owner: string) => {
        const id = await queue.enqueue("test.aged", { owner }, { runAt: new Date(Date.now() + 3_600_000) });
        await handle.db
          .updateTable("jobs")
          .set({
            status: "running",
            locked_by: owner,
            locked_at: sql`now() - make_interval(secs => ${seconds})`,
            attempts: 1,
          })
          .where("id", "=", id)
          .execute();
        return id;
      };
      const dead = await lockedAgo(11, "w-dead");
      // 6 s rather than 9: the worker's sweep every quarter lease would take it back once it is 10 s old, and a busy
      // machine may take a few seconds to get this far.
      const alive = await lockedAgo(6, "w-alive");
      const worker = startWorker(
        deps,
        { "test.aged": async () => ran.resolve() },
        { pollIntervalMs: 20, workerId: "w-default", recoverAllRunning: false },
      );
      try {
        await worker.ready;
        await ran.promise;
        expect((await jobRow(alive)).locked_by).toBe("w-alive");
        expect((await jobRow(alive)).status).toBe("running");
      } finally {
        await worker.stop();
        warn.mockRestore();
      }
      const deadRow = await jobRow(dead);
      expect(deadRow.status).toBe("done");
      expect(deadRow.attempts).toBe(2);
    });
  });
}
