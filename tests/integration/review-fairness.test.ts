import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "kysely";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { MAX_REVIEWS_IN_PROGRESS, TOO_MANY_IN_PROGRESS } from "../../src/reviews/service.ts";
import { claimJob } from "../../src/jobs/worker.ts";
import { REVIEW_JOB_KIND } from "../../src/reviews/pipeline.ts";

// One user cannot starve everyone (issue 7, item 11): a cap on reviews in progress per user, and review jobs
// claimed fairly across users.

for (const backend of APP_BACKENDS) {
  describe(`reviews in progress per user (${backend})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(backend);
    });
    afterAll(async () => {
      await t?.close();
    });

    async function newReview(u: TestUser): Promise<string> {
      return (
        (await (
          await t.app.request("/api/v1/literature_review/create", { method: "POST", headers: u.headers })
        ).json()) as { id: string }
      ).id;
    }
    const start = (u: TestUser, id: string, topic = "spinal fusion") =>
      t.app.request(`/api/v1/literature_review/start/${id}?user_query=${encodeURIComponent(topic)}`, {
        method: "POST",
        headers: u.headers,
      });

    test(`a user may have ${MAX_REVIEWS_IN_PROGRESS} reviews in progress; the next start is 429 with a clear detail and leaves the review as it was`, async () => {
      const greedy = await t.signup();
      for (let i = 0; i < MAX_REVIEWS_IN_PROGRESS; i++)
        expect((await start(greedy, await newReview(greedy))).status).toBe(200);
      const extra = await newReview(greedy);
      const res = await start(greedy, extra);
      expect(res.status).toBe(429);
      expect(await res.json()).toEqual({ detail: TOO_MANY_IN_PROGRESS });
      expect(res.headers.get("retry-after")).toBe("5");
      const row = await t.db
        .selectFrom("literature_reviews")
        .select(["status", "user_query"])
        .where("id", "=", extra)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: "initial", user_query: null });
      // Another user is not affected.
      const other = await t.signup();
      expect((await start(other, await newReview(other))).status).toBe(200);
      // Once one finishes, the user may start again.
      await t.db
        .updateTable("literature_reviews")
        .set({ status: "complete" })
        .where("user_id", "=", greedy.user.id)
        .where("status", "=", "searching")
        .where("id", "!=", extra)
        .execute();
      expect((await start(greedy, extra)).status).toBe(200);
    });

    test("concurrent starts by one user respect the cap exactly", async () => {
      const u = await t.signup();
      const ids = await Promise.all(Array.from({ length: 8 }, () => newReview(u)));
      const statuses = (await Promise.all(ids.map((id) => start(u, id)))).map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(MAX_REVIEWS_IN_PROGRESS);
      expect(statuses.filter((s) => s === 429)).toHaveLength(8 - MAX_REVIEWS_IN_PROGRESS);
    });

    test("review jobs carry their user, so a worker serves each user's first review before anyone's next", async () => {
      await t.db.deleteFrom("jobs").execute();
      const a = await t.signup();
      const b = await t.signup();
      for (let i = 0; i < MAX_REVIEWS_IN_PROGRESS; i++) await start(a, await newReview(a));
      await start(b, await newReview(b));
      const first = await claimJob(t.db, "w1", [REVIEW_JOB_KIND]);
      const second = await claimJob(t.db, "w2", [REVIEW_JOB_KIND]);
      const owner = async (reviewId: unknown) =>
        (
          await t.db
            .selectFrom("literature_reviews")
            .select("user_id")
            .where("id", "=", String(reviewId))
            .executeTakeFirstOrThrow()
        ).user_id;
      expect(await owner(first!.payload.reviewId)).toBe(a.user.id);
      expect(await owner(second!.payload.reviewId)).toBe(b.user.id);
    });

    // Issue 22, item 5: with 60 users x 3 reviews queued, a newcomer waited 10.6 s, because a user's next job was
    // claimed as soon as her previous one finished. Claims now go round the users: each user's first job before
    // anyone's second, each second before anyone's third, and a newcomer's first before anyone's next.
    test("a worker finishing each job before the next claim serves each user's first review first", async () => {
      await t.db.deleteFrom("jobs").execute();
      const users = [await t.signup(), await t.signup(), await t.signup()];
      for (const u of users) {
        for (let i = 0; i < MAX_REVIEWS_IN_PROGRESS; i++) expect((await start(u, await newReview(u))).status).toBe(200);
      }
      const owner = async (reviewId: unknown) => {
        const review = t.db.selectFrom("literature_reviews").select("user_id").where("id", "=", String(reviewId));
        return (await review.executeTakeFirstOrThrow()).user_id;
      };
      const order: string[] = [];
      let newcomer: TestUser | null = null;
      for (let claimed = 0; ; claimed++) {
        // A newcomer arrives once two jobs have run: her only review goes after the first reviews already waiting and
        // before any user's second.
        if (claimed === 2) {
          newcomer = await t.signup();
          expect((await start(newcomer, await newReview(newcomer))).status).toBe(200);
        }
        const job = await claimJob(t.db, "w1", [REVIEW_JOB_KIND]);
        if (!job) break;
        order.push(await owner(job.payload.reviewId));
        // The job finishes before the next claim: nothing is running when the next one is chosen.
        await t.db.updateTable("jobs").set({ status: "done" }).where("id", "=", job.id).execute();
      }
      const [a, b, c] = users.map((u) => u.user.id) as [string, string, string];
      expect(order).toEqual([a, b, c, newcomer!.user.id, a, b, c, a, b, c]);
    });

    test("deleting a running review does not free its place: the cap counts the job still running for it", async () => {
      await t.db.deleteFrom("jobs").execute();
      const u = await t.signup();
      const ids: string[] = [];
      for (let i = 0; i < MAX_REVIEWS_IN_PROGRESS; i++) {
        ids.push(await newReview(u));
        expect((await start(u, ids.at(-1)!)).status).toBe(200);
      }
      // A worker is running the first review when the user deletes it; its job runs on until the pipeline notices.
      const running = await claimJob(t.db, "w1", [REVIEW_JOB_KIND]);
      expect(running!.payload.reviewId).toBe(ids[0]);
      const del = await t.app.request(`/api/v1/literature_review/delete/${ids[0]}`, {
        method: "DELETE",
        headers: u.headers,
      });
      expect(del.status).toBe(200);
      const res = await start(u, await newReview(u));
      expect(res.status).toBe(429);
      expect(await res.json()).toEqual({ detail: TOO_MANY_IN_PROGRESS });
      // Repeating it cannot pile jobs up either.
      for (let i = 0; i < 5; i++) {
        const id = await newReview(u);
        expect((await start(u, id)).status).toBe(429);
      }
      const active = await t.db
        .selectFrom("jobs")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("fairness_key", "=", u.user.id)
        .where("status", "in", ["queued", "running"])
        .executeTakeFirstOrThrow();
      expect(Number(active.n)).toBe(MAX_REVIEWS_IN_PROGRESS);
      // Once the running job ends, the place is free again.
      await t.db.updateTable("jobs").set({ status: "done" }).where("id", "=", running!.id).execute();
      expect((await start(u, await newReview(u))).status).toBe(200);
    });

    test("deleting a review still waiting in the queue removes its job, so the place is free at once", async () => {
      await t.db.deleteFrom("jobs").execute();
      const u = await t.signup();
      const ids: string[] = [];
      for (let i = 0; i < MAX_REVIEWS_IN_PROGRESS; i++) {
        ids.push(await newReview(u));
        expect((await start(u, ids.at(-1)!)).status).toBe(200);
      }
      const del = await t.app.request(`/api/v1/literature_review/delete/${ids[2]}`, {
        method: "DELETE",
        headers: u.headers,
      });
      expect(del.status).toBe(200);
      const left = await t.db
        .selectFrom("jobs")
        .select(sql<string>`payload->>'reviewId'`.as("reviewId"))
        .where("fairness_key", "=", u.user.id)
        .execute();
      expect(left.map((r) => r.reviewId).sort()).toEqual([ids[0]!, ids[1]!].sort());
      expect((await start(u, await newReview(u))).status).toBe(200);
    });
  });
}
