import { afterAll, beforeAll, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { sql } from "kysely";
import { LAYER_BACKENDS, createTestDatabase } from "../../tests/support/database.ts";
import type { DatabaseHandle } from "../db/database.ts";
import { loadConfig } from "../config.ts";
import type { AppDeps } from "../deps.ts";
import type { SearchIndex } from "../../search/search-index.ts";
import { PgJobQueue } from "./queue-pg.ts";
import { runJobsUntilIdle } from "./worker.ts";
import { jobHandlers } from "../job-registry.ts";
import { enqueueJob, InvalidJobPayloadError, payloadSchemaOf } from "./kinds.ts";
import { REVIEW_JOB } from "../reviews/pipeline.ts";

// Job payloads checked where they are read (issue 25, item 9): each kind's schema sits next to its handler; a job
// whose stored payload its schema refuses fails at once with the schema's complaint, and the worker goes on.

const unusedSearch: SearchIndex = {
  index: async () => {},
  delete: async () => {},
  refresh: async () => {},
  search: async () => ({ hits: [], total: 0, totalIsLowerBound: false }),
  similar: async () => ({ hits: [], total: 0, totalIsLowerBound: false }),
};

/**
 * A malformed payload of every kind the application runs (a JSON value stored as is), and what the failed job's
 * last_error must say besides the kind: the field at fault.
 */
const MALFORMED: Record<string, { payload: unknown; says: RegExp }> = {
  "review.run": {
    payload: { review_id: "a" },
    says: /: reviewId: Invalid input: expected string, received undefined$/,
  },
  "subscriptions.trial-sweep": { payload: [1], says: /: payload: Invalid input: expected object, received array$/ },
  "subscriptions.trial-email": {
    payload: { userId: "u1", kind: "soon", trialEndsAt: "2026-12-01T00:00:00Z" },
    says: /: kind: Invalid option: expected one of "ending"\|"ended"$/,
  },
  "subscriptions.prune-stripe-events": { payload: "now", says: /: payload: Invalid input: expected object/ },
  "email.send": {
    payload: { to: "a@litreview.test", subject: "Hello", text: "Hi" },
    says: /: html: Invalid input: expected string, received undefined$/,
  },
  "email.password-recovery": {
    payload: { email: 42 },
    says: /: email: Invalid input: expected string, received number$/,
  },
  "maintenance.embedded": { payload: 7, says: /: payload: Invalid input: expected object, received number$/ },
  "suggestions.weekly-run": { payload: { week: "2026-48" }, says: /: week: must be an ISO week such as 2026-W48$/ },
  "suggestions.user": { payload: { week: "2026-W48" }, says: /: userId: Invalid input: expected string/ },
  "suggestions.prepare-run": { payload: [], says: /: payload: Invalid input: expected object, received array$/ },
  "suggestions.prepare-user": { payload: { userId: "" }, says: /: userId: Too small/ },
  "pubmed.sync": { payload: "daily", says: /: payload: Invalid input: expected object, received string$/ },
  "pubmed.prune": { payload: [null], says: /: payload: Invalid input: expected object, received array$/ },
  "privacy.retention": { payload: true, says: /: payload: Invalid input: expected object, received boolean$/ },
  "privacy.data-export": {
    payload: { exportId: 12 },
    says: /: exportId: Invalid input: expected string, received number$/,
  },
  // Neither a share nor an invitation: it used to be dropped without a trace.
  "shares.notify": {
    payload: { to: "someone@litreview.test" },
    says: /^invalid payload of job kind "shares\.notify": /,
  },
};

for (const backend of LAYER_BACKENDS) {
  describe(`job payloads on ${backend}`, () => {
    let handle: DatabaseHandle;
    let deps: AppDeps;
    let queue: PgJobQueue;

    beforeAll(async () => {
      handle = await createTestDatabase(backend);
      queue = new PgJobQueue(handle.db);
      deps = {
        config: loadConfig({ PUBMED_ON_DEMAND: "off" }),
        db: handle.db,
        search: unusedSearch,
        jobs: queue,
        secretKey: new Uint8Array(32),
      };
      // A migrated database: the first one of a run is built from the migrations (seconds on a busy machine).
    }, 60_000);
    afterAll(async () => {
      await handle.close();
    });
    beforeEach(async () => {
      await handle.db.deleteFrom("jobs").execute();
    });

    const jobRow = (id: string) =>
      handle.db
        .selectFrom("jobs")
        .select(["status", "attempts", "last_error"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();

    test("every kind the worker runs declares a payload schema", () => {
      const handlers = jobHandlers(deps);
      const without = Object.entries(handlers).filter(([, h]) => payloadSchemaOf(h) === undefined);
      expect(without.map(([kind]) => kind)).toEqual([]);
      // …and this file has a malformed payload for each, so a new kind cannot skip the test below.
      expect(Object.keys(MALFORMED).sort()).toEqual(Object.keys(handlers).sort());
    });

    test("a malformed payload of each kind fails that job at once with its message; the worker goes on with the next", async () => {
      const errors = spyOn(console, "error").mockImplementation(() => {});
      try {
        const malformed: [string, string][] = [];
        for (const [kind, { payload }] of Object.entries(MALFORMED)) {
          // Stored as a producer of another release, or a hand-made row, would have it: past enqueueJob's check.
          const id = await queue.enqueue(kind, {});
          await sql`UPDATE jobs SET payload = cast(${JSON.stringify(payload)} as text)::jsonb WHERE id = ${id}`.execute(
            handle.db,
          );
          malformed.push([kind, id]);
        }
        const ran: unknown[] = [];
        const next = await queue.enqueue("test.next", { n: 1 });

        const count = await runJobsUntilIdle(deps, {
          ...jobHandlers(deps),
          "test.next": async (payload) => void ran.push(payload),
        });

        expect(count).toBe(malformed.length + 1);
        for (const [kind, id] of malformed) {
          const row = await jobRow(id);
          // Failed on its first attempt (of 3 or 5): no retry can mend a payload.
          expect({ kind, status: row.status, attempts: row.attempts }).toEqual({ kind, status: "failed", attempts: 1 });
          expect(row.last_error).toStartWith(`invalid payload of job kind "${kind}": `);
          expect(row.last_error).toMatch(MALFORMED[kind]!.says);
        }
        expect(ran).toEqual([{ n: 1 }]);
        expect((await jobRow(next)).status).toBe("done");
        expect(errors).toHaveBeenCalledWith(
          expect.stringContaining('(review.run) failed: invalid payload of job kind "review.run"'),
        );
      } finally {
        errors.mockRestore();
      }
    });

    test("a well-formed payload reaches its handler as the schema parsed it", async () => {
      const seen: unknown[] = [];
      const id = await enqueueJob(queue, REVIEW_JOB, { reviewId: "r-1" });
      await runJobsUntilIdle(deps, {
        [REVIEW_JOB.name]: { payload: REVIEW_JOB.payload, run: async (payload) => void seen.push(payload) },
      });
      expect(seen).toEqual([{ reviewId: "r-1" }]);
      expect((await jobRow(id)).status).toBe("done");
    });

    test("a producer cannot enqueue a malformed payload: the error is thrown where it is made, nothing is stored", async () => {
      const bad = { reviewId: 5 } as unknown as { reviewId: string };
      await expect(enqueueJob(queue, REVIEW_JOB, bad)).rejects.toThrow(InvalidJobPayloadError);
      await expect(enqueueJob(queue, REVIEW_JOB, bad)).rejects.toThrow(
        'invalid payload of job kind "review.run": reviewId: Invalid input: expected string, received number',
      );
      const stored = await handle.db.selectFrom("jobs").select("id").execute();
      expect(stored).toEqual([]);
    });
  });
}
