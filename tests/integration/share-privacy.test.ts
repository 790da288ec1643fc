import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import PostalMime, { type Email } from "postal-mime";
import { APP_BACKENDS } from "../support/database.ts";
import { startSmtpServer, type ReceivedMail } from "../support/smtp.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { seedIndexedArticles } from "../support/articles.ts";
import { ALREADY_SHARED } from "../../src/shares/service.ts";
import { INVITATIONS_PER_ADDRESS } from "../../src/shares/notify.ts";
import { LIMITS, hit } from "../../src/auth/rate-limit.ts";
import { unsubscribeToken } from "../../src/suggestions/digest.ts";

// Issue 22, items 7, 8 and 12 (docs/decisions/0032-share-privacy-and-preferences.md), on PGlite and PostgreSQL, with
// a real SMTP server and a MIME parser:
// - sharing never tells whether an address has an account (same status, same body, same 409 on a repeat);
// - the hour's quota counts shares and invitations made, never a refused 409, and past it every address gets 429;
// - share e-mails carry RFC 8058 one-click unsubscribe headers, and the /settings switch turns them off and on.

const ARTICLES = Array.from({ length: 6 }, (_, i) => ({
  pmid: 9_300_001 + i,
  title: `Shared study number ${i + 1} on sepsis`,
  date: `2024-03-0${i + 1}`,
  mesh: ["Sepsis", "Humans"],
}));
const [A, B, C, D] = ARTICLES.map((a) => a.pmid) as [number, number, number, number];

/** The headers of a parsed message as one lower-cased name → value map. */
function headersOf(mail: Email): Record<string, string> {
  return Object.fromEntries(mail.headers.map((h) => [h.key.toLowerCase(), h.value]));
}

for (const backend of APP_BACKENDS) {
  describe(`share privacy and share e-mails (${backend})`, () => {
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
    let t: TestApp;
    let alice: TestUser;
    let bob: TestUser;

    const call = (user: TestUser | null, method: string, path: string, body?: unknown) =>
      t.app.request(`/api/v1${path}`, {
        method,
        headers: {
          ...(user ? user.headers : {}),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const share = (user: TestUser, pmid: number, to: string) =>
      call(user, "POST", `/shares/${pmid}`, { recipient_email: to });
    /** The messages the SMTP server received for `to` since `since` (an index into smtp.received), parsed. */
    const mailsTo = async (to: string, since = 0): Promise<Email[]> =>
      Promise.all(
        smtp.received
          .slice(since)
          .filter((m: ReceivedMail) => m.to.includes(to))
          .map((m) => PostalMime.parse(m.raw)),
      );
    /** The caller's share e-mail setting, through the API. */
    const setting = async (u: TestUser) =>
      ((await (await call(u, "GET", "/shares/email-setting")).json()) as { share_emails: boolean }).share_emails;

    beforeAll(async () => {
      smtp = await startSmtpServer();
      t = await createTestApp(backend, { env: { SMTP_URL: smtp.url } });
      await seedIndexedArticles(t, ARTICLES);
      alice = await t.signup({ full_name: "Alice Liddell" });
      bob = await t.signup({ full_name: "Bob Builder" });
    });
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
    });

    test("a known, an unknown and an inactive address get the same answer; only the account gets a share", async () => {
      const inactive = await t.signup({ is_active: false });
      const stranger = "nobody-here@example.org";
      const answers = [];
      for (const to of [bob.user.email, stranger, inactive.user.email]) {
        const res = await share(alice, A, to);
        const body = (await res.json()) as Record<string, unknown>;
        const keys = Object.keys(body).sort();
        answers.push({ status: res.status, keys, recipient: body.recipient_email, pmid: body.article_pmid });
        expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
      }
      const keys = ["article_pmid", "id", "recipient_email", "shared_at"];
      expect(answers).toEqual([
        { status: 200, keys, recipient: bob.user.email, pmid: A },
        { status: 200, keys, recipient: stranger, pmid: A },
        { status: 200, keys, recipient: inactive.user.email, pmid: A },
      ]);
      // A repeat is refused alike, whoever the address belongs to.
      for (const to of [bob.user.email, stranger.toUpperCase(), inactive.user.email]) {
        const res = await share(alice, A, to);
        const answer = { status: res.status, body: await res.json() };
        expect(answer).toEqual({ status: 409, body: { detail: ALREADY_SHARED } });
      }
      // Bob received it; the invitation stores no address.
      const received = (await (await call(bob, "GET", "/shares/received")).json()) as { article_pmid: number }[];
      expect(received.map((s) => s.article_pmid)).toEqual([A]);
      const invitations = await t.db
        .selectFrom("share_invitations")
        .selectAll()
        .where("sharer_id", "=", alice.user.id)
        .execute();
      expect(invitations).toHaveLength(2);
      expect(JSON.stringify(invitations)).not.toContain("nobody-here");
      expect(JSON.stringify(invitations)).not.toContain(inactive.user.email);

      const since = smtp.received.length;
      await t.runJobs();
      const [toBob] = await mailsTo(bob.user.email, since);
      expect(toBob?.subject).toBe("LitReview - Alice Liddell shared an article with you");
      const [invitation, ...more] = await mailsTo(stranger, since);
      expect(more).toEqual([]);
      expect(invitation?.subject).toBe("LitReview - Alice Liddell invited you to read an article");
      expect(invitation?.text).toContain("Shared study number 1 on sepsis");
      expect(invitation?.text).toContain(`https://pubmed.ncbi.nlm.nih.gov/${A}/`);
      expect(invitation?.text).toContain("http://localhost:3000/signup");
      // An inactive account is not invited to join (it exists): nothing goes out.
      expect(await mailsTo(inactive.user.email, since)).toEqual([]);
    });

    test("invitations count against the quota, a refused 409 does not, past it every address gets 429", async () => {
      const u = await t.signup();
      const carol = await t.signup();
      expect((await share(u, B, carol.user.email)).status).toBe(200);
      for (let i = 0; i < 20; i++) expect((await share(u, B, carol.user.email)).status).toBe(409);
      // 1 share so far: the 20 refusals cost nothing, and 49 invitations fill the hour.
      for (let i = 1; i < LIMITS.sharesPerUser.max; i++) {
        expect((await share(u, B, `stranger-${i}@example.org`)).status).toBe(200);
      }
      for (const to of [bob.user.email, "another-stranger@example.org", carol.user.email]) {
        const res = await share(u, C, to);
        expect(res.status).toBe(429);
        expect(await res.json()).toEqual({ detail: "Too Many Requests" });
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      }
      // The repeat of a share made is 429 too, not 409: past the limit, nothing is told about any address.
      expect((await share(u, B, carol.user.email)).status).toBe(429);
    });

    test("concurrent shares near the limit never pass it", async () => {
      const u = await t.signup();
      for (let i = 0; i < LIMITS.sharesPerUser.max - 2; i++) await hit(t.db, LIMITS.sharesPerUser, u.user.id);
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => share(u, D, `racer-${i}@example.org`)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 200, 429, 429, 429, 429]);
      const made = await t.db.selectFrom("share_invitations").select("id").where("sharer_id", "=", u.user.id).execute();
      expect(made).toHaveLength(2);
    });

    test(`one address gets at most ${INVITATIONS_PER_ADDRESS.max} invitations a day, whoever sends them`, async () => {
      const target = "much-invited@example.org";
      const sharers = await Promise.all(Array.from({ length: INVITATIONS_PER_ADDRESS.max + 2 }, () => t.signup()));
      for (const s of sharers) expect((await share(s, A, target)).status).toBe(200);
      const since = smtp.received.length;
      await t.runJobs();
      expect(await mailsTo(target, since)).toHaveLength(INVITATIONS_PER_ADDRESS.max);
    });

    test("share e-mails carry one-click unsubscribe headers (RFC 8058) that work without a login", async () => {
      const reader = await t.signup({ full_name: "Rita Reader" });
      let since = smtp.received.length;
      expect((await share(alice, B, reader.user.email)).status).toBe(200);
      await t.runJobs();
      const [mail] = await mailsTo(reader.user.email, since);
      const headers = headersOf(mail!);
      expect(headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
      const LINK = /^<(http:\/\/localhost:3000\/unsubscribe\/shares\?token=[^>]+)>$/;
      const link = LINK.exec(headers["list-unsubscribe"] ?? "")?.[1];
      expect(link).toBeString();
      expect(mail!.text).toContain(link!);
      expect(mail!.html).toContain(link!.replace(/&/g, "&amp;"));
      const path = link!.replace("http://localhost:3000", "");

      // Opening the link only asks; a mail client's one-click POST unsubscribes.
      const confirm = await t.app.request(path);
      expect(confirm.status).toBe(200);
      expect(await confirm.text()).toContain('data-testid="share-unsubscribe-confirm"');
      expect(await setting(reader)).toBe(true);
      const oneClick = await t.app.request(path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
      expect(oneClick.status).toBe(200);
      expect(await oneClick.text()).toContain('data-testid="share-unsubscribe-done"');
      expect(await setting(reader)).toBe(false);

      // A digest token, an access token or a forged one does not unsubscribe from share e-mails.
      const digestToken = await unsubscribeToken(t.deps.secretKey, bob.user.id);
      for (const token of [digestToken, bob.token, "forged.token.value"]) {
        const res = await t.app.request(`/unsubscribe/shares?token=${encodeURIComponent(token)}`, { method: "POST" });
        expect(res.status).toBe(400);
      }
      expect(await setting(bob)).toBe(true);

      // Shares still arrive, without e-mail.
      since = smtp.received.length;
      expect((await share(bob, B, reader.user.email)).status).toBe(200);
      await t.runJobs();
      expect(await mailsTo(reader.user.email, since)).toEqual([]);
      const received = (await (await call(reader, "GET", "/shares/received")).json()) as unknown[];
      expect(received).toHaveLength(2);

      // Turned back on in the settings, the next share is e-mailed again.
      const on = await call(reader, "PUT", "/shares/email-setting", { share_emails: true });
      expect(await on.json()).toEqual({ share_emails: true });
      since = smtp.received.length;
      expect((await share(bob, C, reader.user.email)).status).toBe(200);
      await t.runJobs();
      expect(await mailsTo(reader.user.email, since)).toHaveLength(1);
    });

    test("the preference is read when the e-mail is sent: turning it off after a share stops its e-mail", async () => {
      const reader = await t.signup();
      expect((await share(alice, C, reader.user.email)).status).toBe(200);
      expect((await call(reader, "PUT", "/shares/email-setting", { share_emails: false })).status).toBe(200);
      const since = smtp.received.length;
      await t.runJobs();
      expect(await mailsTo(reader.user.email, since)).toEqual([]);
    });

    test("the share e-mail setting: the caller's own only, signed in, a boolean, in the OpenAPI document", async () => {
      const [u1, u2] = [await t.signup(), await t.signup()];
      expect((await call(null, "GET", "/shares/email-setting")).status).toBe(401);
      expect((await call(null, "PUT", "/shares/email-setting", { share_emails: false })).status).toBe(401);
      const bad = await call(u1, "PUT", "/shares/email-setting", { share_emails: "no" });
      expect(bad.status).toBe(422);
      const { detail } = (await bad.json()) as { detail: { loc: string[]; msg: string }[] };
      expect(detail[0]).toMatchObject({ loc: ["body", "share_emails"], msg: "share_emails must be true or false" });
      // Naming another user changes nothing but the caller's own setting (unknown fields are dropped).
      const off = await call(u1, "PUT", "/shares/email-setting", { share_emails: false, user_id: u2.user.id });
      expect(await off.json()).toEqual({ share_emails: false });
      expect(await setting(u1)).toBe(false);
      expect(await setting(u2)).toBe(true);

      type Doc = { paths: Record<string, Record<string, unknown>> };
      const doc = (await (await t.app.request("/api/v1/openapi.json")).json()) as Doc;
      const operations = doc.paths["/api/v1/shares/email-setting"] ?? doc.paths["/shares/email-setting"] ?? {};
      expect(Object.keys(operations).sort()).toEqual(["get", "put"]);
    });

    test("/settings shows the share e-mail switch", async () => {
      const res = await t.app.request("/settings", { headers: alice.headers });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('data-testid="share-email-toggle"');
      expect(html).toContain("E-mail me when someone shares an article with me");
    });
  });

  describe(`concurrent like and unlike of one article (${backend})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(backend);
      await seedIndexedArticles(t, ARTICLES.slice(0, 1));
    });
    afterAll(() => t?.close());

    test("never answer 404 for an article the index holds", async () => {
      const u = await t.signup();
      const statuses: number[] = [];
      for (let round = 0; round < 40; round++) {
        const methods = ["POST", "POST", "DELETE", "POST", "DELETE", "POST"];
        const results = await Promise.all(
          methods.map((method) => t.app.request(`/api/v1/likes/${A}`, { method, headers: u.headers })),
        );
        statuses.push(...results.map((r) => r.status));
      }
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      // And an article the index does not hold still is 404.
      expect((await t.app.request("/api/v1/likes/9399999", { method: "POST", headers: u.headers })).status).toBe(404);
    });
  });
}
