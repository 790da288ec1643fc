import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "kysely";
import { QueryClient } from "@tanstack/react-query";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { TOKEN_KEY } from "../../islands/lib/api.ts";
import type { ReceivedShare as ServedShare } from "../../src/shares/schemas.ts";
import { deleteShare } from "../../islands/lib/social-actions.ts";
import {
  fetchShareIds,
  fetchSharesPage,
  socialKeys,
  type ReceivedShare,
  type ReceivedShareRef,
} from "../../islands/lib/social.ts";

// Issue 22, item 4, for received shares: the authenticated layout loaded every received share, with its article, on
// every page. It now loads the shares' ids and PMIDs only (GET /shares/received/ids), and the dashboard reads one
// page at a time by keyset (`after` the id that ends the previous page, which the ids give for any page number).

const SHARES = 2_000;
const BASE = 31_000_000;

for (const backend of APP_BACKENDS) {
  describe(`received shares a page at a time (${backend})`, () => {
    let t: TestApp;
    let heavy: TestUser;
    let sharers: TestUser[];
    beforeAll(async () => {
      t = await createTestApp(backend);
      heavy = await t.signup();
      sharers = [await t.signup({ full_name: "Sam Sharer" }), await t.signup()];
      // Articles of a realistic size (an abstract of about 1.2 kB), each shared a minute apart, newest first; the
      // first sharer shares the odd ones, the second the even ones.
      await sql`
        INSERT INTO articles (pmid, title, authors, abstract, journal, publication_date, publication_year, content_hash)
        SELECT ${BASE} + g, 'Synthetic article ' || g || ' on a biomedical topic of interest',
               'Author A, Author B, Author C',
               repeat('Background and methods and results of study ' || g || '. ', 25), 'Journal of Tests',
               date '2020-01-01' + (g % 1500), 2020 + (g % 5), md5(g::text)
        FROM generate_series(1, ${SHARES}) AS g`.execute(t.db);
      await sql`
        INSERT INTO shares (sharer_id, recipient_id, article_pmid, shared_at)
        SELECT CASE WHEN g % 2 = 1 THEN ${sharers[0]!.user.id}::uuid ELSE ${sharers[1]!.user.id}::uuid END,
               ${heavy.user.id}::uuid, ${BASE} + g, timestamptz '2026-11-01T00:00:00Z' - g * interval '1 minute'
        FROM generate_series(1, ${SHARES}) AS g`.execute(t.db);
    }, 120_000);
    afterAll(async () => {
      await t?.close();
    });

    const get = (u: TestUser | null, path: string) => t.app.request(`/api/v1${path}`, { headers: u ? u.headers : {} });

    test(`the layout's shares at ${SHARES} received shares: ids and PMIDs, newest first, a fraction`, async () => {
      const before = await get(heavy, "/shares/received");
      expect(before.status).toBe(200);
      const wholeText = await before.text();
      const whole = JSON.parse(wholeText) as ServedShare[];
      const res = await get(heavy, "/shares/received/ids");
      expect(res.status).toBe(200);
      const text = await res.text();
      const ids = JSON.parse(text) as ReceivedShareRef[];
      expect(ids).toHaveLength(SHARES);
      expect(ids).toEqual(whole.map((s) => ({ id: s.id, article_pmid: s.article_pmid })));
      expect(ids.slice(0, 3).map((s) => s.article_pmid)).toEqual([BASE + 1, BASE + 2, BASE + 3]);
      console.log(
        `at ${SHARES} received shares: layout before (GET /shares/received) ${wholeText.length} B, ` +
          `after (GET /shares/received/ids) ${text.length} B`,
      );
      // `{"id":"<uuid>","article_pmid":<8 digits>},`: 70 bytes a share, against about 2.1 kB with the article.
      expect(text.length).toBeLessThanOrEqual(SHARES * 70 + 1);
      expect(text.length * 25).toBeLessThan(wholeText.length);
    }, 60_000);

    test("any page, asked after the id that ends the page before it, is that slice of the list", async () => {
      const ids = (await (await get(heavy, "/shares/received/ids")).json()) as ReceivedShareRef[];
      const size = 7;
      for (const page of [0, 1, 2, 141, Math.ceil(SHARES / size) - 1]) {
        const after = page === 0 ? "" : `&after=${ids[page * size - 1]!.id}`;
        const res = await get(heavy, `/shares/received?limit=${size}${after}`);
        expect(res.status).toBe(200);
        const shares = (await res.json()) as ServedShare[];
        expect(shares.map((s) => s.id)).toEqual(ids.slice(page * size, page * size + size).map((s) => s.id));
        expect(shares[0]!.article.pmid).toBe(shares[0]!.article_pmid);
        expect(shares[0]!.sharer?.email).toBeDefined();
      }
    }, 60_000);

    test("the ids are the caller's own: another user's shares never show, and signed out is 401", async () => {
      const other = await t.signup();
      expect(await (await get(other, "/shares/received/ids")).json()).toEqual([]);
      // The sharers see none of the shares they sent.
      expect(await (await get(sharers[0]!, "/shares/received/ids")).json()).toEqual([]);
      const anonymous = await get(null, "/shares/received/ids");
      expect(anonymous.status).toBe(401);
      expect(typeof ((await anonymous.json()) as { detail: unknown }).detail).toBe("string");
    });

    test("a deleted share leaves the ids; a share from a deleted account stays, with the same ids", async () => {
      const u = await t.signup();
      const gone = await t.signup();
      for (const [s, pmid] of [
        [sharers[0]!, BASE + 1],
        [gone, BASE + 2],
        [sharers[1]!, BASE + 3],
      ] as const) {
        const res = await t.app.request(`/api/v1/shares/${pmid}`, {
          method: "POST",
          headers: { ...s.headers, "content-type": "application/json" },
          body: JSON.stringify({ recipient_email: u.user.email }),
        });
        expect(res.status).toBe(200);
      }
      const ids = (await (await get(u, "/shares/received/ids")).json()) as ReceivedShareRef[];
      expect(ids.map((s) => s.article_pmid).sort()).toEqual([BASE + 1, BASE + 2, BASE + 3]);
      await t.db.deleteFrom("users").where("id", "=", gone.user.id).execute();
      const removed = ids.find((s) => s.article_pmid === BASE + 1)!;
      const del = await t.app.request(`/api/v1/shares/received/${removed.id}`, {
        method: "DELETE",
        headers: u.headers,
      });
      expect(del.status).toBe(200);
      const after = (await (await get(u, "/shares/received/ids")).json()) as ReceivedShareRef[];
      expect(after).toEqual(ids.filter((s) => s.id !== removed.id));
    });
  });
}

// The dashboard's delete in the browser client (islands/lib/social.ts) against the real app: the share leaves the ids
// and the loaded page at once; a refused call puts it back where it was, with the product's toast text.
describe("deleting a received share from the client's cache (pglite)", () => {
  let t: TestApp;
  let u: TestUser;
  const realFetch = globalThis.fetch;
  const had = { window: "window" in globalThis, localStorage: "localStorage" in globalThis };
  const globals = globalThis as Record<string, unknown>;
  const saved = { window: globals.window, localStorage: globals.localStorage };
  /** Answers of DELETE calls while set: a refusing network instead of the app. */
  let refuseDeletes: number | null = null;
  /** Released to let a held DELETE reach the app. */
  let release: (() => void) | null = null;

  beforeAll(async () => {
    t = await createTestApp("pglite");
    u = await t.signup();
    const sharer = await t.signup();
    await sql`
      INSERT INTO articles (pmid, title, authors, abstract, journal, publication_date, publication_year, content_hash)
      SELECT ${BASE} + g, 'Article ' || g, 'A', 'Abstract ' || g, 'J', date '2020-01-01', 2020, md5(g::text)
      FROM generate_series(1, 12) AS g`.execute(t.db);
    await sql`
      INSERT INTO shares (sharer_id, recipient_id, article_pmid, shared_at)
      SELECT ${sharer.user.id}::uuid, ${u.user.id}::uuid, ${BASE} + g,
             timestamptz '2026-11-01T00:00:00Z' - g * interval '1 minute'
      FROM generate_series(1, 12) AS g`.execute(t.db);
    const store = new Map([[TOKEN_KEY, u.token]]);
    Object.assign(globalThis, {
      localStorage: {
        getItem: (k: string) => store.get(k) ?? null,
        setItem: (k: string, v: string) => store.set(k, v),
        removeItem: (k: string) => store.delete(k),
      },
      window: {
        location: { origin: "http://localhost", pathname: "/dashboard", search: "?tab=shares", assign: () => {} },
      },
    });
    globalThis.fetch = (async (input: URL | string, init?: RequestInit) => {
      if (init?.method === "DELETE") {
        if (release === null) await new Promise<void>((r) => (release = r));
        if (refuseDeletes !== null) return new Response("{}", { status: refuseDeletes });
      }
      const body = init?.body as BodyInit | undefined;
      return t.app.request(String(input), { method: init?.method, headers: init?.headers, body });
    }) as typeof fetch;
  });
  afterEach(() => {
    refuseDeletes = null;
    release = null;
  });
  afterAll(async () => {
    globalThis.fetch = realFetch;
    for (const k of ["window", "localStorage"] as const) {
      if (had[k]) Object.assign(globalThis, { [k]: saved[k] });
      else delete globals[k];
    }
    await t?.close();
  });

  /** A cache as the dashboard has it: the layout's ids and the second page of 5. */
  async function loaded() {
    const client = new QueryClient();
    const ids = await fetchShareIds();
    client.setQueryData(socialKeys.shareIds, ids);
    const after = ids[4]!.id;
    const page = await fetchSharesPage(after, 5);
    client.setQueryData([...socialKeys.shares, after, 5], page);
    return { client, ids, after, page };
  }

  test("a refused delete is removed at once, then put back in its place in the ids and in its page", async () => {
    const { client, ids, after, page } = await loaded();
    refuseDeletes = 500;
    const target = page[2]!.id;
    const done = deleteShare(client, target);
    await Bun.sleep(5);
    // While the call runs, the share is gone from both.
    expect(client.getQueryData<ReceivedShareRef[]>(socialKeys.shareIds)!.map((s) => s.id)).not.toContain(target);
    const shown = client.getQueryData<ReceivedShare[]>([...socialKeys.shares, after, 5])!;
    expect(shown.map((s) => s.id)).not.toContain(target);
    release!();
    expect(await done).toBe(false);
    expect(client.getQueryData(socialKeys.shareIds)).toEqual(ids);
    expect(client.getQueryData([...socialKeys.shares, after, 5])).toEqual(page);
    // The server still has it.
    expect((await fetchShareIds()).map((s) => s.id)).toContain(target);
  });

  test("a delete the server accepts leaves the ids, and the page is refreshed: the next share moves up", async () => {
    const { client, ids, after, page } = await loaded();
    release = () => {};
    const target = page[0]!.id;
    expect(await deleteShare(client, target)).toBe(true);
    expect(client.getQueryData(socialKeys.shareIds)).toEqual(ids.filter((s) => s.id !== target));
    expect(client.getQueryState([...socialKeys.shares, after, 5])!.isInvalidated).toBe(true);
    const next = await fetchSharesPage(after, 5);
    expect(next.map((s) => s.id)).toEqual(ids.slice(6, 11).map((s) => s.id));
    expect((await fetchShareIds()).map((s) => s.id)).not.toContain(target);
  });
});
