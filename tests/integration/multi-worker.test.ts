import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { sql } from "kysely";
import { LAYER_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { ingestFiles } from "../../search/ingest.ts";
import { REVIEW_JOB_KIND } from "../../src/reviews/pipeline.ts";
import { createReview } from "../../src/reviews/service.ts";
import { startUserReview } from "../../src/reviews/repository.ts";

// A deployment past one process (issue 12): two `WORKER=only` processes on one PostgreSQL database work 200 reviews
// of 20 users; one is killed with SIGKILL midway; every review still reaches a terminal state, each job ran to
// completion exactly once (one job per review, done), and no review's article list was written twice.

const SAMPLES = [
  "pubmedxml_solitude6060_fulltext_search_pubmed_result.xml.gz",
  "pubmedxml_seedtk_ncbi-utils_pubmed.xml.gz",
].map((f) => join(import.meta.dir, "..", "..", "sample", "pubmed", f));
const TOPICS = [
  "nasopharyngeal carcinoma radiotherapy",
  "nasopharyngeal carcinoma survival",
  "Epstein-Barr virus nasopharyngeal",
  "induction chemotherapy nasopharyngeal carcinoma",
  "xyzzy frobnicate",
];
const TERMINAL = ["complete", "no_articles_found", "error", "canceled"];

for (const backend of LAYER_BACKENDS.filter((b) => b === "postgres")) {
  describe("two worker processes on one PostgreSQL database", () => {
    let t: TestApp;
    const workers: ReturnType<typeof Bun.spawn>[] = [];

    const startWorkerProcess = (n: number) =>
      Bun.spawn([process.execPath, "src/server.ts"], {
        cwd: join(import.meta.dir, "..", ".."),
        env: {
          ...process.env,
          DATABASE_URL: t.databaseUrl!,
          SECRET_KEY: "w".repeat(40),
          WORKER: "only",
          SEED_SAMPLE: "false",
          PUBMED_ON_DEMAND: "off",
          LOG_LEVEL: "warn",
          WORKER_ID: `test-worker-${n}`,
        },
        stdout: "ignore",
        stderr: "ignore",
      });

    beforeAll(async () => {
      t = await createTestApp(backend);
      await ingestFiles(t.deps, SAMPLES);
    });
    afterAll(async () => {
      for (const w of workers) w.kill("SIGKILL");
      await t.close();
    });

    test("200 reviews of 20 users end exactly once, though one worker is killed midway", async () => {
      const users = await Promise.all(Array.from({ length: 20 }, () => t.signup()));
      const ids: string[] = [];
      for (const [u, user] of users.entries()) {
        for (let i = 0; i < 10; i++) {
          const review = await createReview(t.deps, user.user.id);
          // Queued as POST /start does (its 3-in-progress cap per user is tested elsewhere; here the queue is).
          await t.db.transaction().execute(async (trx) => {
            const row = await startUserReview(trx, user.user.id, review.id, TOPICS[(u + i) % TOPICS.length]!);
            await t.deps.jobs.enqueue(REVIEW_JOB_KIND, { reviewId: row!.id }, { db: trx, fairnessKey: user.user.id });
          });
          ids.push(review.id);
        }
      }
      const terminalCount = async () =>
        Number(
          (
            await sql<{
              n: number;
            }>`SELECT count(*)::integer AS n FROM literature_reviews WHERE id = ANY(${ids}::uuid[]) AND status = ANY(${TERMINAL})`.execute(
              t.db,
            )
          ).rows[0]!.n,
        );

      workers.push(startWorkerProcess(1), startWorkerProcess(2));
      // Kill the first worker once the work is well under way, jobs in its hands.
      const deadline = Date.now() + 120_000;
      while ((await terminalCount()) < 40 && Date.now() < deadline) await Bun.sleep(100);
      workers[0]!.kill("SIGKILL");
      await workers[0]!.exited;
      while ((await terminalCount()) < ids.length && Date.now() < deadline) await Bun.sleep(250);

      expect(await terminalCount()).toBe(ids.length);
      const jobs = await t.db
        .selectFrom("jobs")
        .select(["status", "payload"])
        .where("kind", "=", REVIEW_JOB_KIND)
        .execute();
      expect(jobs).toHaveLength(ids.length);
      expect(jobs.every((j) => j.status === "done")).toBe(true);
      const statuses = await t.db.selectFrom("literature_reviews").select(["status"]).where("id", "in", ids).execute();
      expect(statuses.filter((s) => s.status === "error")).toEqual([]);
      // One article list per review: ranks are unique per review (the primary key), and cited numbers too.
      const dupes = await sql<{ n: number }>`
        SELECT count(*)::integer AS n FROM (
          SELECT review_id, citation_number FROM literature_review_articles
          WHERE review_id = ANY(${ids}::uuid[]) AND citation_number IS NOT NULL
          GROUP BY review_id, citation_number HAVING count(*) > 1) d`.execute(t.db);
      expect(dupes.rows[0]!.n).toBe(0);
    }, 180_000);
  });
}
