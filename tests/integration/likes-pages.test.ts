import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "kysely";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { UNKNOWN_LIST_CURSOR } from "../../src/likes/schemas.ts";

// Issue 22, item 4: the authenticated layout loaded every like on every page (15 MB at 10,000 likes). It now loads
// the liked PMIDs only (GET /likes/my/pmids, an array of integers), and the lists are read a page at a time by keyset
// (`after` the last entry of the previous page), which neither skips nor repeats entries when the list changes.

const LIKES = 10_000;
const BASE = 30_000_000;

for (const backend of APP_BACKENDS) {
  describe(`likes and shares a page at a time (${backend})`, () => {
    let t: TestApp;
    let heavy: TestUser;
    beforeAll(async () => {
      t = await createTestApp(backend);
      heavy = await t.signup();
      // Articles of a realistic size (an abstract of about 1.2 kB), each liked a minute apart, newest first.
      await sql`
        INSERT INTO articles (pmid, title, authors, abstract, journal, publication_date, publication_year, content_hash)
        SELECT ${BASE} + g, 'Synthetic article ' || g || ' on a biomedical topic of interest',
               'Author A, Author B, Author C',
               repeat('Background and methods and results of study ' || g || '. ', 25), 'Journal of Tests',
               date '2020-01-01' + (g % 1500), 2020 + (g % 5), md5(g::text)
        FROM generate_series(1, ${LIKES}) AS g`.execute(t.db);
      await sql`
        INSERT INTO likes (user_id, article_pmid, liked_at)
        SELECT ${heavy.user.id}::uuid, ${BASE} + g, timestamptz '2026-11-01T00:00:00Z' - g * interval '1 minute'
        FROM generate_series(1, ${LIKES}) AS g`.execute(t.db);
    }, 120_000);
    afterAll(async () => {
      await t?.close();
    });

    const get = (u: TestUser, path: string) => t.app.request(`/api/v1${path}`, { headers: u.headers });
    const likes = async (u: TestUser, query: string) =>
      (await (await get(u, `/likes/my?${query}`)).json()) as { pmid: number }[];

    test(`the layout's likes at ${LIKES} likes: the liked PMIDs, newest first, a fraction of the list`, async () => {
      const res = await get(heavy, "/likes/my/pmids");
      expect(res.status).toBe(200);
      const text = await res.text();
      const pmids = JSON.parse(text) as number[];
      expect(pmids).toHaveLength(LIKES);
      expect(pmids.slice(0, 3)).toEqual([BASE + 1, BASE + 2, BASE + 3]);
      expect(pmids.every((p) => Number.isInteger(p))).toBe(true);
      const whole = await (await get(heavy, "/likes/my")).text();
      console.log(`at ${LIKES} likes: GET /likes/my ${whole.length} B, GET /likes/my/pmids ${text.length} B`);
      expect(text.length).toBeLessThan(100_000);
      expect(text.length * 100).toBeLessThan(whole.length);
    }, 60_000);

    test("pages after the previous page's last PMID walk the list once, in order, even with equal times", async () => {
      const u = await t.signup();
      // 23 likes, the last 13 at the very same instant: only the PMID orders them.
      await sql`
        INSERT INTO likes (user_id, article_pmid, liked_at)
        SELECT ${u.user.id}::uuid, ${BASE} + g,
               CASE WHEN g <= 10 THEN now() - g * interval '1 second' ELSE timestamptz '2026-01-01' END
        FROM generate_series(1, 23) AS g`.execute(t.db);
      const all = (await (await get(u, "/likes/my")).json()) as { pmid: number }[];
      const pmids = (await (await get(u, "/likes/my/pmids")).json()) as number[];
      expect(all.map((a) => a.pmid)).toEqual(pmids);
      const walked: number[] = [];
      let after: number | null = null;
      for (let i = 0; i < 10; i++) {
        const page = await likes(u, `limit=5${after === null ? "" : `&after=${after}`}`);
        if (page.length === 0) break;
        walked.push(...page.map((a) => a.pmid));
        after = page.at(-1)!.pmid;
      }
      expect(walked).toEqual(pmids);
    });

    test("a like added between two pages does not repeat an entry on the next page (it did with skip)", async () => {
      const u = await t.signup();
      await sql`
        INSERT INTO likes (user_id, article_pmid, liked_at)
        SELECT ${u.user.id}::uuid, ${BASE} + g, now() - g * interval '1 minute'
        FROM generate_series(1, 10) AS g`.execute(t.db);
      const first = await likes(u, "limit=5");
      const liked = await t.app.request(`/api/v1/likes/${BASE + 500}`, { method: "POST", headers: u.headers });
      expect(liked.status).toBe(200);
      const next = await likes(u, `limit=5&after=${first.at(-1)!.pmid}`);
      expect(next.map((a) => a.pmid)).toEqual([6, 7, 8, 9, 10].map((g) => BASE + g));
      const skipped = await likes(u, "limit=5&skip=5");
      // The offset page moved by one: its first entry is the previous page's last.
      expect(skipped[0]!.pmid).toBe(first.at(-1)!.pmid);
    });

    test("a page after a PMID that is not liked is 400 with a detail; after with skip is 422", async () => {
      const u = await t.signup();
      const res = await get(u, "/likes/my?limit=5&after=12345");
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ detail: UNKNOWN_LIST_CURSOR });
      const both = await get(u, "/likes/my?skip=5&after=12345");
      expect(both.status).toBe(422);
      expect((await get(u, "/likes/my?after=abc")).status).toBe(422);
      // The end of a list is an empty page, not an error.
      await t.app.request(`/api/v1/likes/${BASE + 1}`, { method: "POST", headers: u.headers });
      const end = await get(u, `/likes/my?limit=5&after=${BASE + 1}`);
      expect(end.status).toBe(200);
      expect(await end.json()).toEqual([]);
    });

    test("received shares are paged the same way, after the previous page's last share id", async () => {
      const u = await t.signup();
      const sharers = await Promise.all(Array.from({ length: 3 }, () => t.signup()));
      let n = 0;
      for (const s of sharers) {
        for (let g = 1; g <= 4; g++) {
          await t.db
            .insertInto("shares")
            .values({
              sharer_id: s.user.id,
              recipient_id: u.user.id,
              article_pmid: BASE + g,
              shared_at: new Date(Date.UTC(2026, 10, 1, 0, n++ % 5)),
            })
            .execute();
        }
      }
      const all = (await (await get(u, "/shares/received")).json()) as { id: string }[];
      expect(all).toHaveLength(12);
      const walked: string[] = [];
      let after: string | null = null;
      for (let i = 0; i < 10; i++) {
        const res = await get(u, `/shares/received?limit=5${after ? `&after=${after}` : ""}`);
        const page = (await res.json()) as { id: string }[];
        if (page.length === 0) break;
        walked.push(...page.map((s) => s.id));
        after = page.at(-1)!.id;
      }
      expect(walked).toEqual(all.map((s) => s.id));
      const foreign = await get(sharers[0]!, `/shares/received?limit=5&after=${all[0]!.id}`);
      expect(foreign.status).toBe(400);
      expect(await foreign.json()).toEqual({ detail: UNKNOWN_LIST_CURSOR });
    });
  });
}
