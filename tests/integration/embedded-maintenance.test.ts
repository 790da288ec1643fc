import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "kysely";
import { createTestApp, type TestApp } from "../support/app.ts";
import { EMBEDDED_MAINTENANCE_JOB } from "../../src/db/maintenance.ts";
import { runJobsUntilIdle } from "../../src/jobs/worker.ts";

// The embedded default stays bounded (issue 7, item 4): PGlite has no autovacuum, so the maintenance job vacuums the
// tables that churn; without it their dead rows pile up for ever.

describe("embedded database maintenance (pglite)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("pglite");
  });
  afterAll(async () => {
    await t?.close();
  });

  const size = async (table: string) =>
    Number((await sql<{ n: string }>`SELECT pg_relation_size(${table}::regclass)::text AS n`.execute(t.db)).rows[0]!.n);

  /**
   * A burst of queue traffic: jobs enqueued, claimed, finished, then cleared away as the worker's sweep does. 150 jobs
   * a burst (300 before) show the same growth at half the time: this file was among the suite's slowest.
   */
  async function churn(): Promise<void> {
    for (let i = 0; i < 150; i++) await t.deps.jobs.enqueue("test.churn", { i });
    await runJobsUntilIdle(t.deps, { "test.churn": async () => {} });
    await t.db.deleteFrom("jobs").where("kind", "=", "test.churn").execute();
  }

  test("with the job after each burst, a constantly updated table stops growing; without it, it grows on", async () => {
    await churn();
    await t.deps.jobs.enqueue(EMBEDDED_MAINTENANCE_JOB, {});
    await t.runJobs();
    const settled = await size("jobs");
    for (let round = 0; round < 3; round++) {
      await churn();
      await t.deps.jobs.enqueue(EMBEDDED_MAINTENANCE_JOB, {});
      expect(await t.runJobs()).toBe(1);
    }
    const withMaintenance = await size("jobs");
    expect(withMaintenance).toBeLessThanOrEqual(settled * 1.5);
    for (let round = 0; round < 3; round++) await churn();
    const without = await size("jobs");
    // Measured with 150 jobs a burst: settled and with the job 24,576 bytes (3 pages), without it 73,728.
    expect(without).toBeGreaterThan(withMaintenance * 2);
  }, 60_000);
});
