import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { ingestFiles } from "../../search/ingest.ts";
import { ALREADY_SHARED, SHARE_WITH_SELF } from "../../src/shares/service.ts";
import { LIMITS } from "../../src/auth/rate-limit.ts";

// Likes and shares through the API (docs/product.md §7) on real PubMed records, on PGlite and PostgreSQL: every call,
// every error path, another user's data, concurrency, records deleted from the index and accounts deleted.

const SAMPLE = join(import.meta.dir, "..", "..", "sample", "pubmed", "pubmedxml_piratevax_pubmed_result.xml.gz");

interface LikedArticle {
  pmid: number;
  title: string | null;
  liked_at: string;
  in_index: boolean;
}
interface ReceivedShare {
  id: string;
  article_pmid: number;
  shared_at: string;
  sharer: { id: string; full_name: string | null; email: string } | null;
  article: { pmid: number; title: string | null; in_index: boolean };
}

for (const backend of APP_BACKENDS) {
  describe(`likes and shares (${backend})`, () => {
    let t: TestApp;
    let alice: TestUser;
    let bob: TestUser;
    let carol: TestUser;
    let pmids: number[];

    const call = (user: TestUser | null, method: string, path: string, body?: unknown) =>
      t.app.request(`/api/v1${path}`, {
        method,
        headers: {
          ...(user ? user.headers : {}),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const json = async <T>(res: Response, status = 200): Promise<T> => {
      const text = await res.text();
      expect({ status: res.status, text }).toMatchObject({ status });
      return JSON.parse(text) as T;
    };

    beforeAll(async () => {
      t = await createTestApp(backend);
      await ingestFiles(t.deps, [SAMPLE]);
      const rows = await t.db.selectFrom("articles").select("pmid").orderBy("pmid").limit(12).execute();
      pmids = rows.map((r) => r.pmid);
      expect(pmids.length).toBeGreaterThanOrEqual(10);
      alice = await t.signup({ full_name: "Alice Liddell" });
      bob = await t.signup({ full_name: "Bob Builder" });
      carol = await t.signup({ full_name: null });
    });
    afterAll(() => t.close());

    test("every call needs a signed-in user", async () => {
      for (const [method, path] of [
        ["POST", `/likes/${pmids[0]}`],
        ["DELETE", `/likes/${pmids[0]}`],
        ["GET", "/likes/my"],
        ["GET", `/likes/status/${pmids[0]}`],
        ["POST", `/shares/${pmids[0]}`],
        ["GET", "/shares/received"],
        ["DELETE", "/shares/received/00000000-0000-0000-0000-000000000000"],
      ]) {
        expect((await call(null, method!, path!)).status).toBe(401);
      }
    });

    test("like returns the article; liking again keeps the first liked_at; status and list agree", async () => {
      const first = await json<LikedArticle>(await call(alice, "POST", `/likes/${pmids[0]}`));
      expect(first).toMatchObject({ pmid: pmids[0], in_index: true });
      expect(first.title).toBeTruthy();
      await Bun.sleep(15);
      const again = await json<LikedArticle>(await call(alice, "POST", `/likes/${pmids[0]}`));
      expect(again.liked_at).toBe(first.liked_at);
      expect(await json(await call(alice, "GET", `/likes/status/${pmids[0]}`))).toEqual({
        article_pmid: pmids[0],
        liked: true,
        liked_at: first.liked_at,
      });
      expect(await json(await call(alice, "GET", `/likes/status/${pmids[1]}`))).toEqual({
        article_pmid: pmids[1],
        liked: false,
        liked_at: null,
      });
      const mine = await json<LikedArticle[]>(await call(alice, "GET", "/likes/my"));
      expect(mine.map((a) => a.pmid)).toEqual([pmids[0]!]);
      // Bob sees none of Alice's likes.
      expect(await json(await call(bob, "GET", "/likes/my"))).toEqual([]);
      expect((await json<{ liked: boolean }>(await call(bob, "GET", `/likes/status/${pmids[0]}`))).liked).toBe(false);
    });

    test("unlike removes the like; unliking what is not liked is not an error", async () => {
      await json(await call(bob, "POST", `/likes/${pmids[2]}`));
      expect((await call(bob, "DELETE", `/likes/${pmids[2]}`)).status).toBe(200);
      expect((await json<{ liked: boolean }>(await call(bob, "GET", `/likes/status/${pmids[2]}`))).liked).toBe(false);
      expect((await call(bob, "DELETE", `/likes/${pmids[2]}`)).status).toBe(200);
      expect((await call(bob, "DELETE", "/likes/999999999")).status).toBe(200);
    });

    test("a PMID the index does not hold is 404; a malformed one is 422 naming the parameter", async () => {
      expect(await json(await call(alice, "POST", "/likes/999999998"), 404)).toEqual({ detail: "Article not found" });
      for (const bad of ["abc", "0", "-3", "1.5", "12345678901"]) {
        const body = await json<{ detail: { loc: string[] }[] }>(await call(alice, "POST", `/likes/${bad}`), 422);
        expect(body.detail[0]!.loc).toEqual(["path", "article_pmid"]);
      }
    });

    test("a concurrent double like gives one row", async () => {
      const results = await Promise.all(Array.from({ length: 8 }, () => call(carol, "POST", `/likes/${pmids[3]}`)));
      expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
      const rows = await t.db
        .selectFrom("likes")
        .selectAll()
        .where("user_id", "=", carol.user.id)
        .where("article_pmid", "=", pmids[3]!)
        .execute();
      expect(rows).toHaveLength(1);
    });

    test("the likes list is newest first and pages with skip and limit", async () => {
      const u = await t.signup();
      for (const pmid of pmids.slice(0, 6)) {
        await json(await call(u, "POST", `/likes/${pmid}`));
        await Bun.sleep(3);
      }
      const all = await json<LikedArticle[]>(await call(u, "GET", "/likes/my"));
      expect(all.map((a) => a.pmid)).toEqual(pmids.slice(0, 6).reverse());
      const page = await json<LikedArticle[]>(await call(u, "GET", "/likes/my?skip=2&limit=3"));
      expect(page.map((a) => a.pmid)).toEqual(all.slice(2, 5).map((a) => a.pmid));
      expect((await call(u, "GET", "/likes/my?limit=0")).status).toBe(422);
      expect((await call(u, "GET", "/likes/my?limit=1001")).status).toBe(422);
    });

    test("share: the recipient sees it with the sharer's name, and gets an e-mail with a link that opens it", async () => {
      await t.db.deleteFrom("email_outbox").execute();
      const sent = await json<{ id: string; recipient_email: string }>(
        await call(alice, "POST", `/shares/${pmids[4]}`, { recipient_email: `  ${bob.user.email.toUpperCase()} ` }),
      );
      expect(sent.recipient_email).toBe(bob.user.email);
      const received = await json<ReceivedShare[]>(await call(bob, "GET", "/shares/received"));
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({
        id: sent.id,
        article_pmid: pmids[4],
        sharer: { id: alice.user.id, full_name: "Alice Liddell", email: alice.user.email },
        article: { pmid: pmids[4], in_index: true },
      });
      // Alice received nothing: a share is the recipient's.
      expect(await json(await call(alice, "GET", "/shares/received"))).toEqual([]);

      expect(await t.runJobs()).toBeGreaterThanOrEqual(1);
      const mail = await t.db
        .selectFrom("email_outbox")
        .selectAll()
        .where("to", "=", bob.user.email)
        .executeTakeFirstOrThrow();
      expect(mail.subject).toBe("LitReview - Alice Liddell shared an article with you");
      const title = received[0]!.article.title!;
      expect(mail.text).toContain(title);
      expect(mail.text).toContain(`http://localhost:3000/dashboard?tab=shares&article=${pmids[4]}`);
      expect(mail.html).toContain(`href="http://localhost:3000/dashboard?tab=shares&amp;article=${pmids[4]}"`);
    });

    // An unknown or inactive address is answered as an account is (tests/integration/share-privacy.test.ts).
    test("share errors: yourself 400, unknown article 404, twice 409 (one e-mail), bad address 422", async () => {
      expect(
        await json(await call(alice, "POST", `/shares/${pmids[5]}`, { recipient_email: alice.user.email }), 400),
      ).toEqual({ detail: SHARE_WITH_SELF });
      expect(
        await json(await call(alice, "POST", "/shares/999999997", { recipient_email: bob.user.email }), 404),
      ).toEqual({ detail: "Article not found" });

      await t.db.deleteFrom("email_outbox").execute();
      await json(await call(alice, "POST", `/shares/${pmids[5]}`, { recipient_email: carol.user.email }));
      expect(
        await json(await call(alice, "POST", `/shares/${pmids[5]}`, { recipient_email: carol.user.email }), 409),
      ).toEqual({ detail: ALREADY_SHARED });
      await t.runJobs();
      expect(
        await t.db.selectFrom("email_outbox").selectAll().where("to", "=", carol.user.email).execute(),
      ).toHaveLength(1);

      const invalid = await json<{ detail: { loc: string[]; msg: string }[] }>(
        await call(alice, "POST", `/shares/${pmids[5]}`, { recipient_email: "not-an-address" }),
        422,
      );
      expect(invalid.detail[0]).toMatchObject({ loc: ["body", "recipient_email"], msg: "Invalid email address" });
      expect((await call(alice, "POST", `/shares/${pmids[5]}`, {})).status).toBe(422);
    });

    test("concurrent identical shares give one share and one e-mail", async () => {
      await t.db.deleteFrom("email_outbox").execute();
      const u = await t.signup();
      const results = await Promise.all(
        Array.from({ length: 6 }, () => call(u, "POST", `/shares/${pmids[6]}`, { recipient_email: bob.user.email })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      await t.runJobs();
      expect(await t.db.selectFrom("email_outbox").selectAll().where("to", "=", bob.user.email).execute()).toHaveLength(
        1,
      );
    });

    test("a received share is deleted only by its recipient; another user's share id is 404", async () => {
      const sent = await json<{ id: string }>(
        await call(carol, "POST", `/shares/${pmids[7]}`, { recipient_email: alice.user.email }),
      );
      // Neither the sharer nor a third user can delete it.
      expect(await json(await call(carol, "DELETE", `/shares/received/${sent.id}`), 404)).toEqual({
        detail: "Share not found",
      });
      expect((await call(bob, "DELETE", `/shares/received/${sent.id}`)).status).toBe(404);
      expect((await call(alice, "DELETE", "/shares/received/not-a-uuid")).status).toBe(404);
      expect((await call(alice, "DELETE", "/shares/received/00000000-0000-4000-8000-000000000000")).status).toBe(404);
      expect((await call(alice, "DELETE", `/shares/received/${sent.id}`)).status).toBe(200);
      expect(
        (await json<ReceivedShare[]>(await call(alice, "GET", "/shares/received"))).map((s) => s.id),
      ).not.toContain(sent.id);
      expect((await call(alice, "DELETE", `/shares/received/${sent.id}`)).status).toBe(404);
    });

    test("received shares are newest first and page with skip and limit", async () => {
      const r = await t.signup();
      for (const pmid of pmids.slice(0, 4)) {
        await json(await call(alice, "POST", `/shares/${pmid}`, { recipient_email: r.user.email }));
        await Bun.sleep(3);
      }
      const all = await json<ReceivedShare[]>(await call(r, "GET", "/shares/received"));
      expect(all.map((s) => s.article_pmid)).toEqual(pmids.slice(0, 4).reverse());
      const page = await json<ReceivedShare[]>(await call(r, "GET", "/shares/received?skip=1&limit=2"));
      expect(page.map((s) => s.id)).toEqual(all.slice(1, 3).map((s) => s.id));
    });

    test("a record deleted from the index stays in likes and shares with only its PMID; a deleted sharer becomes null", async () => {
      const sharer = await t.signup({ full_name: "Soon Gone" });
      const reader = await t.signup();
      const gone = pmids[8]!;
      await json(await call(reader, "POST", `/likes/${gone}`));
      await json(await call(sharer, "POST", `/shares/${gone}`, { recipient_email: reader.user.email }));
      // What a DeleteCitation does on ingest, and the sharer deleting their account.
      await t.db.deleteFrom("articles").where("pmid", "=", gone).execute();
      expect((await call(sharer, "DELETE", "/users/me")).status).toBe(200);

      const likes = await json<LikedArticle[]>(await call(reader, "GET", "/likes/my"));
      expect(likes).toEqual([expect.objectContaining({ pmid: gone, title: null, in_index: false })]);
      const shares = await json<ReceivedShare[]>(await call(reader, "GET", "/shares/received"));
      expect(shares).toEqual([
        expect.objectContaining({
          article_pmid: gone,
          sharer: null,
          article: expect.objectContaining({ pmid: gone, title: null, in_index: false }),
        }),
      ]);
      // It can still be unliked and deleted; it cannot be liked again or shared, being gone.
      expect((await call(reader, "DELETE", `/likes/${gone}`)).status).toBe(200);
      expect((await call(reader, "DELETE", `/shares/received/${shares[0]!.id}`)).status).toBe(200);
      expect((await call(reader, "POST", `/likes/${gone}`)).status).toBe(404);
    });

    test("a user's likes and shares go with their account", async () => {
      const u = await t.signup();
      await json(await call(u, "POST", `/likes/${pmids[0]}`));
      await json(await call(alice, "POST", `/shares/${pmids[1]}`, { recipient_email: u.user.email }));
      expect((await call(u, "DELETE", "/users/me")).status).toBe(200);
      expect(await t.db.selectFrom("likes").selectAll().where("user_id", "=", u.user.id).execute()).toEqual([]);
      expect(await t.db.selectFrom("shares").selectAll().where("recipient_id", "=", u.user.id).execute()).toEqual([]);
    });

    test(`at most ${LIMITS.sharesPerUser.max} shares an hour per user (429 with Retry-After)`, async () => {
      const u = await t.signup();
      const recipients = await Promise.all(Array.from({ length: 10 }, () => t.signup()));
      let sent = 0;
      outer: for (const pmid of pmids.slice(0, 6)) {
        for (const r of recipients) {
          if (sent === LIMITS.sharesPerUser.max) break outer;
          expect((await call(u, "POST", `/shares/${pmid}`, { recipient_email: r.user.email })).status).toBe(200);
          sent++;
        }
      }
      expect(sent).toBe(LIMITS.sharesPerUser.max);
      const refused = await call(u, "POST", `/shares/${pmids[9]}`, { recipient_email: alice.user.email });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    });
  });
}
