import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { MAX_REVIEWS_IN_PROGRESS, TOO_MANY_IN_PROGRESS } from "../../src/reviews/service.ts";
import { claimJob } from "../../src/jobs/worker.ts";
import { REVIEW_JOB_KIND } from "../../src/reviews/pipeline.ts";

// One user cannot starve everyone (issue 7, item 11): a cap on reviews in progress per user, and review jobs
// claimed fairly across users.

for (const backend of BACKENDS) {
  describe(`reviews in progress per user (${backend})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(backend);
    });
    afterAll(async () => {
      await t?.close();
    });

    async function newReview(u: TestUser): Promise<string> {
      return ((await (await t.app.request("/api/v1/literature_review/create", { method: "POST", headers: u.headers })).json()) as { id: string }).id;
    }
    const start = (u: TestUser, id: string, topic = "spinal fusion") =>
      t.app.request(`/api/v1/literature_review/start/${id}?user_query=${encodeURIComponent(topic)}`, { method: "POST", headers: u.headers });

    test(`a user may have ${MAX_REVIEWS_IN_PROGRESS} reviews in progress; the next start is 429 with a clear detail and leaves the review as it was`, async () => {
      const greedy = await t.signup();
      for (let i = 0; i < MAX_REVIEWS_IN_PROGRESS; i++) expect((await start(greedy, await newReview(greedy))).status).toBe(200);
      const extra = await newReview(greedy);
      const res = await start(greedy, extra);
      expect(res.status).toBe(429);
      expect(await res.json()).toEqual({ detail: TOO_MANY_IN_PROGRESS });
      expect(res.headers.get("retry-after")).toBe("5");
      const row = await t.db.selectFrom("literature_reviews").select(["status", "user_query"]).where("id", "=", extra).executeTakeFirstOrThrow();
      expect(row).toEqual({ status: "initial", user_query: null });
      // Another user is not affected.
      const other = await t.signup();
      expect((await start(other, await newReview(other))).status).toBe(200);
      // Once one finishes, the user may start again.
      await t.db.updateTable("literature_reviews").set({ status: "complete" }).where("user_id", "=", greedy.user.id).where("status", "=", "searching").where("id", "!=", extra).execute();
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
        (await t.db.selectFrom("literature_reviews").select("user_id").where("id", "=", String(reviewId)).executeTakeFirstOrThrow()).user_id;
      expect(await owner(first!.payload.reviewId)).toBe(a.user.id);
      expect(await owner(second!.payload.reviewId)).toBe(b.user.id);
    });
  });
}
