import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createParser } from "eventsource-parser";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { ingestFiles } from "../../search/ingest.ts";
import type { KyselyPlugin } from "kysely";
import type { ReviewStatus } from "../../src/db/types.ts";
import postgres from "postgres";
import { createApp } from "../../src/app.ts";
import { announceReviewChange, startReviewChangeFeed } from "../../src/reviews/events.ts";
import { MAX_STREAMS_PER_USER, STREAM_SWEEP_MS } from "../../src/reviews/status-streams.ts";

// The review's status pushed to the page as it is stored (issue 8, item 3): a server-sent event stream that sends
// the current status at once, each change when it is committed, and ends with the terminal status.

const SAMPLE = join(
  import.meta.dir,
  "..",
  "..",
  "sample",
  "pubmed",
  "pubmedxml_solitude6060_fulltext_search_pubmed_result.xml.gz",
);

/**
 * The shared re-read's interval in these tests (config REVIEW_STREAM_SWEEP_MS), so that the test of a lost notification
 * waits one second for it rather than the default STREAM_SWEEP_MS.
 */
const SWEEP_MS = 1_000;

for (const backend of APP_BACKENDS) {
  describe(`review status events (${backend})`, () => {
    let t: TestApp;
    let user: TestUser;
    beforeAll(async () => {
      t = await createTestApp(backend, { env: { REVIEW_STREAM_SWEEP_MS: String(SWEEP_MS) } });
      await ingestFiles(t.deps, [SAMPLE]);
      user = await t.signup();
    });
    afterAll(async () => {
      await t?.close();
    });

    /** Reads a stream's `status` events into `into` until it ends. */
    async function collect(res: Response, into: { status: string; at: number }[]): Promise<void> {
      const parser = createParser({
        onEvent: (e) => e.event === "status" && into.push({ status: JSON.parse(e.data).status, at: performance.now() }),
      });
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
        parser.feed(decoder.decode(chunk, { stream: true }));
    }

    test("the stream sends the current status, every stored change as it happens, and ends at the terminal one", async () => {
      const { id } = (await (
        await t.app.request("/api/v1/literature_review/create", { method: "POST", headers: user.headers })
      ).json()) as { id: string };
      await t.app.request(
        `/api/v1/literature_review/start/${id}?user_query=nasopharyngeal%20carcinoma%20radiotherapy`,
        { method: "POST", headers: user.headers },
      );
      const res = await t.app.request(`/api/v1/literature_review/events/${id}`, { headers: user.headers });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/event-stream");
      const events: { status: string; at: number }[] = [];
      const done = collect(res, events);
      await Bun.sleep(50);
      const ranAt = performance.now();
      await t.runJobs();
      const finishedAt = performance.now();
      await done;
      expect(events.map((e) => e.status)).toEqual(["searching", "sorting", "summarizing", "complete"]);
      // Pushed when stored, not at the next re-check a second later.
      expect(events.at(-1)!.at - finishedAt).toBeLessThan(500);
      expect(events[1]!.at).toBeGreaterThanOrEqual(ranAt);
    });

    test("another user's review, or an unknown one, is a plain 404 before any stream opens", async () => {
      const other = await t.signup();
      const { id } = (await (
        await t.app.request("/api/v1/literature_review/create", { method: "POST", headers: user.headers })
      ).json()) as { id: string };
      const res = await t.app.request(`/api/v1/literature_review/events/${id}`, { headers: other.headers });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: "Review not found" });
    });

    test("a review already finished sends its status once and ends", async () => {
      const { id } = (await (
        await t.app.request("/api/v1/literature_review/create", { method: "POST", headers: user.headers })
      ).json()) as { id: string };
      await t.db
        .updateTable("literature_reviews")
        .set({ status: "complete", user_query: "x" })
        .where("id", "=", id)
        .execute();
      const events: { status: string; at: number }[] = [];
      await collect(await t.app.request(`/api/v1/literature_review/events/${id}`, { headers: user.headers }), events);
      expect(events.map((e) => e.status)).toEqual(["complete"]);
    });

    // Issue 22, item 6: 5,000 open streams of one user cost 4,999 database transactions a second (each stream re-read
    // its review every second). Streams now read only when a change is announced, plus one shared re-read per process.

    /** A review of `u` in progress (status searching), as a started review is before a worker takes it. */
    async function reviewInProgress(u: TestUser): Promise<string> {
      const created = await t.app.request("/api/v1/literature_review/create", { method: "POST", headers: u.headers });
      const { id } = (await created.json()) as { id: string };
      await setStatus(id, "searching");
      return id;
    }
    /** Stores a status as the pipeline would, without announcing it. */
    async function setStatus(id: string, status: ReviewStatus): Promise<void> {
      await t.db
        .updateTable("literature_reviews")
        .set({ status, user_query: "x", updated_at: new Date() })
        .where("id", "=", id)
        .execute();
    }
    const openStream = (u: TestUser, id: string) =>
      t.app.request(`/api/v1/literature_review/events/${id}`, { headers: u.headers });
    /** Waits until `check` holds, at most `ms`. */
    async function until(check: () => boolean, ms: number): Promise<void> {
      const end = performance.now() + ms;
      while (!check() && performance.now() < end) await Bun.sleep(10);
    }

    test("open streams cost no queries while nothing changes; every stream gets the change when stored", async () => {
      let queries = 0;
      const counter: KyselyPlugin = {
        transformQuery: (a) => {
          queries++;
          return a.node;
        },
        transformResult: async (a) => a.result,
      };
      const counted = createApp({ ...t.deps, db: t.db.withPlugin(counter) });
      const users = [await t.signup(), await t.signup()];
      const streams: { id: string; events: { status: string; at: number }[]; done: Promise<void> }[] = [];
      for (const u of users) {
        for (let i = 0; i < MAX_STREAMS_PER_USER; i++) {
          const id = await reviewInProgress(u);
          const res = await counted.request(`/api/v1/literature_review/events/${id}`, { headers: u.headers });
          expect(res.status).toBe(200);
          const events: { status: string; at: number }[] = [];
          streams.push({ id, events, done: collect(res, events) });
        }
      }
      await until(() => streams.every((s) => s.events.length === 1), 5_000);
      expect(streams.every((s) => s.events.length === 1)).toBe(true);
      queries = 0;
      await Bun.sleep(1_500);
      // Each stream polled once a second before: 20 streams, about 30 queries. Now only the shared re-read, once a
      // SWEEP_MS (at most twice in 1.5 s).
      expect(queries).toBeLessThanOrEqual(Math.ceil(1_500 / SWEEP_MS));
      for (const s of streams) {
        await setStatus(s.id, "complete");
        announceReviewChange(s.id);
      }
      const announced = performance.now();
      await Promise.all(streams.map((s) => s.done));
      for (const s of streams) {
        expect(s.events.map((e) => e.status)).toEqual(["searching", "complete"]);
        expect(s.events[1]!.at - announced).toBeLessThan(1_000);
      }
    });

    test(`a user may have ${MAX_STREAMS_PER_USER} streams open; the next is 429 until one closes`, async () => {
      const u = await t.signup();
      const id = await reviewInProgress(u);
      const open: Response[] = [];
      for (let i = 0; i < MAX_STREAMS_PER_USER; i++) {
        const res = await t.app.request(`/api/v1/literature_review/events/${id}`, { headers: u.headers });
        expect(res.status).toBe(200);
        open.push(res);
      }
      const refused = await t.app.request(`/api/v1/literature_review/events/${id}`, { headers: u.headers });
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({ detail: "Too Many Requests" });
      expect(refused.headers.get("retry-after")).toBe("5");
      const other = await t.signup();
      const theirs = await openStream(other, await reviewInProgress(other));
      expect(theirs.status).toBe(200);
      await theirs.body!.cancel();
      // Closing one stream gives its place back.
      await open.pop()!.body!.cancel();
      let again: Response | null = null;
      for (let i = 0; i < 50 && again?.status !== 200; i++) {
        await again?.body?.cancel();
        await Bun.sleep(10);
        again = await t.app.request(`/api/v1/literature_review/events/${id}`, { headers: u.headers });
      }
      expect(again!.status).toBe(200);
      for (const res of [...open, again!]) await res.body!.cancel();
    });

    test("a change stored unannounced (a lost notification) reaches the stream at the shared re-read", async () => {
      // The deployment's default; this app re-reads every SWEEP_MS.
      expect(STREAM_SWEEP_MS).toBe(5_000);
      const id = await reviewInProgress(user);
      const events: { status: string; at: number }[] = [];
      const done = collect(await openStream(user, id), events);
      await until(() => events.length === 1, 2_000);
      await setStatus(id, "error");
      const changed = performance.now();
      await done;
      expect(events.map((e) => e.status)).toEqual(["searching", "error"]);
      expect(events[1]!.at - changed).toBeLessThan(SWEEP_MS + 1_000);
    }, 20_000);

    if (backend === "postgres") {
      test("on PostgreSQL another process's change reaches the streams by LISTEN/NOTIFY at once", async () => {
        const feed = await startReviewChangeFeed(t.databaseUrl);
        const other = postgres(t.databaseUrl!, { max: 1, onnotice: () => {} });
        try {
          const id = await reviewInProgress(user);
          const events: { status: string; at: number }[] = [];
          const done = collect(await openStream(user, id), events);
          await until(() => events.length === 1, 2_000);
          // What a WORKER=only process does: store the change, then notify (src/reviews/events.ts).
          await other`UPDATE literature_reviews SET status = 'complete', updated_at = now() WHERE id = ${id}`;
          const notified = performance.now();
          await other`SELECT pg_notify('review_change', ${`another-process ${id}`})`;
          await done;
          expect(events.map((e) => e.status)).toEqual(["searching", "complete"]);
          expect(events[1]!.at - notified).toBeLessThan(300);
        } finally {
          await other.end();
          await feed.close();
        }
      });

      test("on PostgreSQL this process's announcements are sent to the others with NOTIFY", async () => {
        const feed = await startReviewChangeFeed(t.databaseUrl);
        const other = postgres(t.databaseUrl!, { max: 1, onnotice: () => {} });
        try {
          const heard: string[] = [];
          await other.listen("review_change", (payload) => heard.push(payload));
          announceReviewChange("11111111-2222-3333-4444-555555555555");
          await until(() => heard.length > 0, 2_000);
          expect(heard).toHaveLength(1);
          expect(heard[0]!.split(" ")[1]).toBe("11111111-2222-3333-4444-555555555555");
        } finally {
          await other.end();
          await feed.close();
        }
      });
    }
  });
}
