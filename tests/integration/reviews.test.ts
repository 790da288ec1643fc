import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import { sql } from "kysely";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { join } from "node:path";
import { ingestFiles } from "../../search/ingest.ts";
import type { SearchIndex } from "../../search/search-index.ts";
import { jobHandlers } from "../../src/job-registry.ts";
import { claimJob, runJobsUntilIdle, startWorker } from "../../src/jobs/worker.ts";
import { REVIEW_JOB_KIND } from "../../src/reviews/pipeline.ts";

// The literature review API end to end, through app.request(), on real PubMed records: one file about
// nasopharyngeal carcinoma and one on assorted other topics, so that "relevant" is a real subset.

const SAMPLES = [
  "pubmedxml_solitude6060_fulltext_search_pubmed_result.xml.gz",
  "pubmedxml_seedtk_ncbi-utils_pubmed.xml.gz",
].map((f) => join(import.meta.dir, "..", "..", "sample", "pubmed", f));
const TOPIC = "nasopharyngeal carcinoma radiotherapy survival";
const NOT_FOUND = { detail: "Review not found" };
const TERMINAL = ["complete", "canceled", "error", "no_articles_found"];

interface Review {
  id: string;
  user_query: string | null;
  status: string;
  filters: string[];
  created_at: string;
  updated_at: string;
}
interface Article {
  pmid: number;
  title: string | null;
  authors: string | null;
  abstract: string | null;
  journal: string | null;
  publication_date: string | null;
  doi: string | null;
  full_text_link: string | null;
  pdf_free_link: string | null;
}
interface Details {
  id: string;
  status: string;
  user_query: string | null;
  summary: string | null;
  articles_refs: Article[];
  fts_articles_refs: Article[];
  fts_articles_total_count: number;
  filters: string[];
  created_at: string;
  updated_at: string;
}

for (const backend of APP_BACKENDS) {
  describe(`literature reviews (${backend})`, () => {
    let t: TestApp;
    let alice: TestUser;
    let bob: TestUser;

    beforeAll(async () => {
      t = await createTestApp(backend);
      const ingested = await ingestFiles(t.deps, SAMPLES);
      expect(ingested.failedFiles).toEqual([]);
      alice = await t.signup();
      bob = await t.signup();
    });
    afterAll(async () => {
      await t?.close();
    });

    const api = (path: string, user: TestUser, init: RequestInit = {}) =>
      t.app.request(`/api/v1/literature_review${path}`, { ...init, headers: { ...user.headers, ...init.headers } });

    async function json<T>(res: Response, status = 200): Promise<T> {
      const body = await res.json();
      if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(body)}`);
      return body as T;
    }

    const create = async (user: TestUser) => json<Review>(await api("/create", user, { method: "POST" }));
    const start = (user: TestUser, id: string, query: string) =>
      api(`/start/${id}?${new URLSearchParams({ user_query: query })}`, user, { method: "POST" });
    const details = async (user: TestUser, id: string, query = "") =>
      json<Details>(await api(`/details/${id}${query}`, user));
    const runJobs = (search?: SearchIndex) =>
      runJobsUntilIdle(search ? { ...t.deps, search } : t.deps, jobHandlers(t.deps));

    test("a review goes from creation to a summary whose citations all point to its cited articles", async () => {
      const created = await create(alice);
      expect(created).toMatchObject({ user_query: null, status: "initial" });
      expect(Date.parse(created.created_at)).not.toBeNaN();
      expect(Date.parse(created.updated_at)).not.toBeNaN();

      const started = await json<Review>(await start(alice, created.id, `  ${TOPIC}  `));
      expect(started).toMatchObject({ id: created.id, status: "searching", user_query: TOPIC });
      const polled = await json<{ id: string; status: string; user_query: string; updated_at: string }>(
        await api(`/status/${created.id}`, alice),
      );
      expect(polled).toMatchObject({ id: created.id, status: "searching", user_query: TOPIC });

      expect(await runJobs()).toBe(1);

      const review = await details(alice, created.id);
      expect(review.status).toBe("complete");
      expect(review.user_query).toBe(TOPIC);
      expect(review.summary).toBeTruthy();
      // Every [n] of the summary is a cited article, and every cited article is referred to.
      const numbers = [...review.summary!.matchAll(/\[(\d+(?:,\s*\d+)*)\]/g)].flatMap((m) =>
        m[1]!.split(",").map((n) => Number(n.trim())),
      );
      expect(numbers.length).toBeGreaterThan(0);
      expect(new Set(numbers)).toEqual(new Set(review.articles_refs.map((_, i) => i + 1)));
      for (const article of review.articles_refs) {
        expect(article.pmid).toBeGreaterThan(0);
        expect(article.title).toBeTruthy();
        expect(article.abstract).toBeTruthy();
        expect(Object.keys(article)).toEqual(
          expect.arrayContaining(["authors", "journal", "publication_date", "doi", "full_text_link", "pdf_free_link"]),
        );
      }
      // The relevant articles are about the topic, not the whole corpus.
      const all = await details(alice, created.id, "?fts_limit=1000");
      expect(all.fts_articles_total_count).toBe(all.fts_articles_refs.length);
      expect(all.fts_articles_total_count).toBeGreaterThan(6);
      expect(all.fts_articles_total_count).toBeLessThanOrEqual(100);
      const onTopic = all.fts_articles_refs.filter((a) => /nasopharyn/i.test(`${a.title} ${a.abstract}`));
      expect(onTopic.length / all.fts_articles_refs.length).toBeGreaterThan(0.8);
      expect(all.fts_articles_refs[0]!.title).toMatch(/nasopharyn/i);
      const relevantPmids = new Set(all.fts_articles_refs.map((a) => a.pmid));
      for (const cited of review.articles_refs) expect(relevantPmids.has(cited.pmid)).toBe(true);
      expect(all.fts_articles_refs[0]!.publication_date ?? "").toMatch(/^(\d{4}-\d{2}-\d{2})?$/);

      // Default page: the first 6, then pages by fts_skip/fts_limit, ranked, with the same total.
      expect(review.fts_articles_refs.map((a) => a.pmid)).toEqual(all.fts_articles_refs.slice(0, 6).map((a) => a.pmid));
      const page = await details(alice, created.id, "?fts_skip=4&fts_limit=3");
      expect(page.fts_articles_refs.map((a) => a.pmid)).toEqual(all.fts_articles_refs.slice(4, 7).map((a) => a.pmid));
      expect(page.fts_articles_total_count).toBe(all.fts_articles_total_count);
      const beyond = await details(alice, created.id, `?fts_skip=${all.fts_articles_total_count}`);
      expect(beyond.fts_articles_refs).toEqual([]);

      // The history shows it, finished.
      const history = await json<{ data: Review[]; count: number }>(await api("/history", alice));
      expect(history.data.find((r) => r.id === created.id)).toMatchObject({ status: "complete", user_query: TOPIC });

      // A started review cannot be started again.
      const again = await start(alice, created.id, "another topic");
      expect(again.status).toBe(409);
      expect(((await again.json()) as { detail: string }).detail).toMatch(/already been started/);
    });

    test("a review's filters show in its history entry and the start response: two reviews of a topic differ", async () => {
      const dana = await t.signup();
      const plain = await create(dana);
      const filtered = await create(dana);
      expect(filtered.filters).toEqual([]);
      expect((await start(dana, plain.id, TOPIC)).status).toBe(200);
      const query = new URLSearchParams({ user_query: TOPIC, year_from: "2010", year_to: "2020", humans_only: "true" });
      const started = await json<Review>(await api(`/start/${filtered.id}?${query}`, dana, { method: "POST" }));
      expect(started.filters).toEqual(["Published 2010–2020", "Humans only"]);

      const history = await json<{ data: Review[] }>(await api("/history", dana));
      const byId = new Map(history.data.map((r) => [r.id, r]));
      expect(byId.get(plain.id)).toMatchObject({ user_query: TOPIC, filters: [] });
      const shown = ["Published 2010–2020", "Humans only"];
      expect(byId.get(filtered.id)).toMatchObject({ user_query: TOPIC, filters: shown });
      // The details say the same.
      expect((await details(dana, filtered.id)).filters).toEqual(started.filters);
    });

    test("history lists the user's own reviews newest first, paged, with the total count", async () => {
      const carol = await t.signup();
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push((await create(carol)).id);
      await create(bob);

      const all = await json<{ data: Review[]; count: number }>(await api("/history", carol));
      expect(all.count).toBe(4);
      expect(all.data.map((r) => r.id)).toEqual([...ids].reverse());
      const keys = ["created_at", "filters", "id", "status", "updated_at", "user_query"];
      expect(Object.keys(all.data[0]!).sort()).toEqual(keys);
      expect(all.data.map((r) => r.filters)).toEqual([[], [], [], []]);

      const page = await json<{ data: Review[]; count: number }>(await api("/history?skip=1&limit=2", carol));
      expect(page.count).toBe(4);
      expect(page.data.map((r) => r.id)).toEqual([ids[2]!, ids[1]!]);

      for (const bad of ["limit=0", "limit=1001", "skip=-1", "limit=many"]) {
        const res = await api(`/history?${bad}`, carol);
        expect(res.status).toBe(422);
        const body = (await res.json()) as { detail: { loc: string[]; msg: string }[] };
        expect(body.detail[0]!.loc[0]).toBe("query");
      }
    });

    test("every call needs a signed-in user", async () => {
      for (const [method, path] of [
        ["POST", "/create"],
        ["GET", "/history"],
      ] as const) {
        const res = await t.app.request(`/api/v1/literature_review${path}`, { method });
        expect(res.status).toBe(401);
      }
    });

    test("starting a review needs an active subscription; an expired trial or none is refused, other calls still work", async () => {
      for (const subscription of ["none", "expired_trial"] as const) {
        const user = await t.signup({ subscription });
        const review = await create(user);
        const res = await start(user, review.id, TOPIC);
        expect(res.status).toBe(403);
        expect(await res.json()).toEqual({
          detail: "An active Plus, Pro, or Max subscription is required to use literature reviews.",
        });
        // Refused before the topic is looked at.
        expect((await start(user, review.id, "")).status).toBe(403);

        expect((await details(user, review.id)).status).toBe("initial");
        const history = await json<{ data: Review[]; count: number }>(await api("/history", user));
        expect(history.count).toBe(1);
        const jobs = await t.db
          .selectFrom("jobs")
          .select(sql<number>`count(*)::int`.as("n"))
          .where(sql<boolean>`payload->>'reviewId' = ${review.id}`)
          .executeTakeFirstOrThrow();
        expect(jobs.n).toBe(0);
        expect(await json(await api(`/delete/${review.id}`, user, { method: "DELETE" }))).toEqual({
          message: "Review deleted successfully.",
        });
      }
    });

    test("another user's review, an unknown id and a malformed id are all simply not found", async () => {
      const mine = await create(alice);
      const unknown = crypto.randomUUID();
      for (const id of [mine.id, unknown, "not-a-uuid", "1"]) {
        const calls = [
          api(`/status/${id}`, bob),
          api(`/details/${id}`, bob),
          start(bob, id, TOPIC),
          api(`/delete/${id}`, bob, { method: "DELETE" }),
        ];
        for (const res of await Promise.all(calls)) {
          expect(res.status).toBe(404);
          expect(await res.json()).toEqual(NOT_FOUND);
        }
      }
      // Bob's attempts changed nothing for Alice.
      expect((await details(alice, mine.id)).status).toBe("initial");
    });

    test("a blank, missing or too long topic is refused with the page's message", async () => {
      const review = await create(alice);
      for (const query of [undefined, "", "   \t "]) {
        const res =
          query === undefined
            ? await api(`/start/${review.id}`, alice, { method: "POST" })
            : await start(alice, review.id, query);
        expect(res.status).toBe(422);
        const body = (await res.json()) as { detail: { loc: string[]; msg: string }[] };
        expect(body.detail[0]).toMatchObject({ loc: ["query", "user_query"], msg: "Review topic cannot be empty." });
      }
      const long = await start(alice, review.id, "a".repeat(501));
      expect(long.status).toBe(422);
      expect((await details(alice, review.id)).status).toBe("initial");
      for (const bad of ["fts_limit=0", "fts_skip=-2", "fts_limit=x"]) {
        expect((await api(`/details/${review.id}?${bad}`, alice)).status).toBe(422);
      }
    });

    test("deleting a review removes it and its articles", async () => {
      const review = await create(alice);
      expect(await json(await start(alice, review.id, TOPIC))).toMatchObject({ status: "searching" });
      await runJobs();
      expect(await json(await api(`/delete/${review.id}`, alice, { method: "DELETE" }))).toEqual({
        message: "Review deleted successfully.",
      });
      expect((await api(`/details/${review.id}`, alice)).status).toBe(404);
      expect((await api(`/delete/${review.id}`, alice, { method: "DELETE" })).status).toBe(404);
      const rows = await t.db
        .selectFrom("literature_review_articles")
        .select(sql<number>`count(*)::int`.as("n"))
        .where("review_id", "=", review.id)
        .executeTakeFirstOrThrow();
      expect(rows.n).toBe(0);
    });

    test("a topic matching nothing ends in no_articles_found", async () => {
      const review = await create(alice);
      await start(alice, review.id, "zqxjv plorbnik wubbalubba");
      await runJobs();
      const result = await details(alice, review.id);
      expect(result).toMatchObject({
        status: "no_articles_found",
        summary: null,
        articles_refs: [],
        fts_articles_refs: [],
        fts_articles_total_count: 0,
      });
    });

    test("a pipeline failure ends the review in error, logged, instead of leaving it in progress", async () => {
      const errors = spyOn(console, "error").mockImplementation(() => {});
      try {
        const review = await create(alice);
        await start(alice, review.id, TOPIC);
        const failing: SearchIndex = {
          ...t.deps.search,
          search: () => Promise.reject(new Error("search cluster unreachable")),
        };
        await runJobs(failing);
        expect((await details(alice, review.id)).status).toBe("error");
        expect(errors.mock.calls.some((call) => String(call[0]).includes(review.id))).toBe(true);
        const row = await t.db
          .selectFrom("literature_reviews")
          .select("error_message")
          .where("id", "=", review.id)
          .executeTakeFirstOrThrow();
        expect(row.error_message).toBe("search cluster unreachable");
      } finally {
        errors.mockRestore();
      }
    });

    test("a review whose worker died is finished by the next worker, in searching or in summarizing", async () => {
      const warn = spyOn(console, "warn").mockImplementation(() => {});
      const statusOf = async (id: string) => (await json<{ status: string }>(await api(`/status/${id}`, alice))).status;
      /** Runs a fresh worker (as after a restart) until the review is finished, as the page would poll it. */
      async function restartAndWait(id: string): Promise<string> {
        const worker = startWorker(t.deps, jobHandlers(t.deps), {
          pollIntervalMs: 20,
          recoverAllRunning: true,
          workerId: "restarted",
        });
        try {
          for (let i = 0; i < 500 && !TERMINAL.includes(await statusOf(id)); i++)
            await new Promise((r) => setTimeout(r, 20));
        } finally {
          await worker.stop();
        }
        return statusOf(id);
      }
      try {
        // Died right after claiming the job: the review is still "searching".
        const first = await create(alice);
        await start(alice, first.id, TOPIC);
        expect((await claimJob(t.db, "dead-worker", [REVIEW_JOB_KIND]))?.payload).toEqual({ reviewId: first.id });
        expect(await restartAndWait(first.id)).toBe("complete");
        const finished = await details(alice, first.id, "?fts_limit=1000");

        // Died while summarising: the ranked list is stored, the summary is not.
        const second = await create(alice);
        await start(alice, second.id, TOPIC);
        expect(await claimJob(t.db, "dead-worker", [REVIEW_JOB_KIND])).not.toBeNull();
        // While its lock stands, no other run takes the job.
        expect(await runJobs()).toBe(0);
        // Reproduce the stored state of that crash from a finished run of the same topic.
        await t.db
          .insertInto("literature_review_articles")
          .columns(["review_id", "rank", "pmid", "score", "citation_number"])
          .expression((eb) =>
            eb
              .selectFrom("literature_review_articles")
              .select([
                sql.lit(second.id).as("review_id"),
                "rank",
                "pmid",
                "score",
                sql.lit(null).as("citation_number"),
              ])
              .where("review_id", "=", first.id),
          )
          .execute();
        await t.db
          .updateTable("literature_reviews")
          .set({ status: "summarizing", fts_articles_total_count: finished.fts_articles_total_count })
          .where("id", "=", second.id)
          .execute();

        expect(await restartAndWait(second.id)).toBe("complete");
        const resumed = await details(alice, second.id, "?fts_limit=1000");
        expect(resumed.summary).toBe(finished.summary);
        expect(resumed.articles_refs.map((a) => a.pmid)).toEqual(finished.articles_refs.map((a) => a.pmid));
        expect(resumed.fts_articles_refs.map((a) => a.pmid)).toEqual(finished.fts_articles_refs.map((a) => a.pmid));
        expect(resumed.fts_articles_total_count).toBe(finished.fts_articles_total_count);
      } finally {
        warn.mockRestore();
      }
    });
  });
}
