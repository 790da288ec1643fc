import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { anyValue, parameterText, type Components, type JsonSchema } from "../support/openapi-arbitraries.ts";
import { startStripeStandIn, type StripeStandIn } from "../support/stripe-stand-in.ts";

// Property-based test of the whole API, driven by its own OpenAPI document (issue 7): for every operation, requests
// with generated valid and invalid inputs, with and without a token, as a regular user, a superuser or nobody.
// Properties: no 5xx; every error is in the {detail} shape (text, or a list of {loc, msg, type}); a regular user's
// answers never contain another user's reviews, and never change them.
//
// Bounded in time so that CI stays fast: FUZZ_RUNS requests per database (default 250), or, with FUZZ_SECONDS,
// as many as fit in that time. The seed is printed; FUZZ_SEED=<seed> replays a run.

const RUNS = Number(process.env.FUZZ_RUNS ?? 250);
const SECONDS = process.env.FUZZ_SECONDS ? Number(process.env.FUZZ_SECONDS) : undefined;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2 ** 31;

/**
 * Percent-encodes text for a URL, including what encodeURIComponent refuses: a lone surrogate is sent as the bytes
 * of its code unit (WTF-8), an invalid UTF-8 sequence once decoded, as a broken client would send it.
 */
function encodeLoose(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...text]
      .map((ch) => {
        const code = ch.charCodeAt(0);
        if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff)
          return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
            .map((b) => `%${b.toString(16).toUpperCase()}`)
            .join("");
        return encodeURIComponent(ch);
      })
      .join("");
  }
}

/** Whether `value` holds, at any depth, an object whose `id` is `id`. */
function hasObjectWithId(value: unknown, id: string): boolean {
  if (Array.isArray(value)) return value.some((v) => hasObjectWithId(v, id));
  if (value && typeof value === "object")
    return (value as { id?: unknown }).id === id || Object.values(value).some((v) => hasObjectWithId(v, id));
  return false;
}

interface Operation {
  method: string;
  path: string;
  parameters?: { name: string; in: "path" | "query" | "header" | "cookie"; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  security?: unknown[];
}

interface Document {
  paths: Record<string, Record<string, Omit<Operation, "method" | "path">>>;
  components: Components;
}

/** The other user's things that a regular user must never see or change. */
interface Secrets {
  reviewId: string;
  /** The topic of that review: a unique marker string. */
  topic: string;
  /** A share Bob received (from the admin) of an article Bob also likes. */
  shareId: string;
  pmid: number;
}

for (const backend of APP_BACKENDS) {
  describe(`the API under generated input (${backend})`, () => {
    let t: TestApp;
    let doc: Document;
    let operations: Operation[];
    let alice: TestUser;
    let bob: TestUser;
    let admin: TestUser;
    let secrets: Secrets;
    let aliceReviewId: string;
    // A time-bounded run stops between two requests, but the last one may still be under way: it is awaited before
    // the database closes.
    let inflight: Promise<unknown> = Promise.resolve();
    // Payments configured (against the local Stripe stand-in), so that the billing calls are exercised rather
    // than all answering 503 "Payments are not configured on this server."
    let stripe: StripeStandIn;

    /** (Re)creates the fixtures a run may have deleted or signed out: Alice, Bob with a started review, an admin. */
    async function ensureFixtures(): Promise<void> {
      const alive = async (u: TestUser | undefined) =>
        u !== undefined &&
        (await t.db
          .selectFrom("users")
          .select("id")
          .where("id", "=", u.user.id)
          .where("is_active", "=", true)
          .executeTakeFirst()) !== undefined;
      if (!(await alive(alice))) {
        alice = await t.signup({ full_name: "Alice Fuzz" });
        aliceReviewId = (
          await t.db
            .insertInto("literature_reviews")
            .values({ user_id: alice.user.id })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id;
      }
      if (!(await alive(bob))) {
        bob = await t.signup({ full_name: "Bob Private" });
        const topic = `bob-secret-topic-${crypto.randomUUID()}`;
        const row = await t.db
          .insertInto("literature_reviews")
          .values({ user_id: bob.user.id, user_query: topic, status: "complete", summary: `summary of ${topic}` })
          .returning("id")
          .executeTakeFirstOrThrow();
        // An article (public, like every article) that Bob has liked and been sent.
        const pmid = 900_000_000 + Math.floor(Math.random() * 99_999_999);
        await t.db
          .insertInto("articles")
          .values({
            pmid,
            title: "An article in the public index",
            content_hash: "fuzz",
            abstract_sections: "[]",
            mesh_terms: [],
            keywords: [],
            publication_types: [],
          } as never)
          .execute();
        if (!admin || !(await alive(admin)))
          admin = await t.signup({ is_superuser: true, subscription: "none", full_name: "Admin Fuzz" });
        await t.db.insertInto("likes").values({ user_id: bob.user.id, article_pmid: pmid }).execute();
        const share = await t.db
          .insertInto("shares")
          .values({ article_pmid: pmid, sharer_id: admin.user.id, recipient_id: bob.user.id })
          .returning("id")
          .executeTakeFirstOrThrow();
        secrets = { reviewId: row.id, topic, shareId: share.id, pmid };
      }
      if (!(await alive(admin)))
        admin = await t.signup({ is_superuser: true, subscription: "none", full_name: "Admin Fuzz" });
      // Logout and password changes end tokens: sign fresh ones for every run.
      for (const u of [alice, admin]) {
        u.token = await t.tokenFor(u.user.id);
        u.headers = { authorization: `Bearer ${u.token}` };
      }
    }

    beforeAll(async () => {
      stripe = startStripeStandIn();
      t = await createTestApp(backend, { env: stripe.env });
      doc = (await (await t.app.request("/api/v1/openapi.json")).json()) as Document;
      operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => ({ ...op, method, path })),
      );
      await ensureFixtures();
    });
    afterAll(async () => {
      await inflight.catch(() => {});
      await t?.close();
      await stripe?.stop();
    });

    test(
      "no 5xx, errors always in the {detail} shape, another user's reviews never returned or changed",
      async () => {
        let requests = 0;
        const statuses = new Map<number, number>();
        const idPool = () => [
          secrets.reviewId,
          aliceReviewId,
          bob.user.id,
          alice.user.id,
          admin.user.id,
          secrets.shareId,
          String(secrets.pmid),
        ];

        const request = fc.constantFrom(...operations).chain((op) => {
          const params = op.parameters ?? [];
          const pathParams = params.filter((p) => p.in === "path");
          const queryParams = params.filter((p) => p.in === "query");
          const body = op.requestBody ? Object.entries(op.requestBody.content)[0] : undefined;
          return fc.record({
            op: fc.constant(op),
            // Alice is the caller most of the time, so her answers are checked for Bob's things.
            caller: fc.constantFrom("alice", "alice", "alice", "admin", "none", "garbage"),
            path: fc.tuple(...pathParams.map((p) => parameterText(p.schema, doc.components, idPool()))),
            query: fc.tuple(
              ...queryParams.map((p) =>
                fc.option(parameterText(p.schema, doc.components, idPool()), { nil: undefined }),
              ),
            ),
            body: body
              ? fc.option(anyValue(body[1].schema, doc.components), { nil: undefined, freq: 8 })
              : fc.constant(undefined),
            mediaType: fc.constant(body?.[0]),
          });
        });

        const property = fc.asyncProperty(request, async ({ op, caller, path, query, body, mediaType }) => {
          await ensureFixtures();
          let url = `/api/v1${op.path}`;
          (op.parameters ?? [])
            .filter((p) => p.in === "path")
            .forEach((p, i) => {
              url = url.replace(`{${p.name}}`, encodeLoose(path[i] ?? ""));
            });
          const search = new URLSearchParams();
          (op.parameters ?? [])
            .filter((p) => p.in === "query")
            .forEach((p, i) => {
              if (query[i] !== undefined) search.set(p.name, query[i]!);
            });
          if (search.size) url += `?${search}`;
          const headers: Record<string, string> = {};
          if (caller === "alice") Object.assign(headers, alice.headers);
          if (caller === "admin") Object.assign(headers, admin.headers);
          if (caller === "garbage") headers.authorization = "Bearer eyJhbGciOiJub25lIn0.e30.";
          let payload: BodyInit | undefined;
          if (body !== undefined && mediaType) {
            headers["content-type"] = mediaType;
            payload =
              mediaType === "application/x-www-form-urlencoded" && body && typeof body === "object"
                ? new URLSearchParams(
                    Object.entries(body as Record<string, unknown>).map(([k, v]) => [
                      k,
                      typeof v === "string" ? v : JSON.stringify(v),
                    ]),
                  )
                : JSON.stringify(body);
          }
          // Aborted once an event stream's first event is read, so that the stream's loop ends as when a client leaves.
          const controller = new AbortController();
          const pending = Promise.resolve(
            t.app.request(url, { method: op.method.toUpperCase(), headers, body: payload, signal: controller.signal }),
          );
          inflight = pending;
          const res = await pending;
          requests++;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          // An event stream stays open while its review runs (up to 10 minutes): its first event is what is checked.
          let text: string;
          if (res.headers.get("content-type")?.includes("text/event-stream") && res.body) {
            const reader = res.body.getReader();
            const first = await reader.read();
            controller.abort();
            await reader.cancel().catch(() => {});
            text = first.value ? new TextDecoder().decode(first.value) : "";
          } else {
            text = await res.text();
          }
          const where = `${op.method.toUpperCase()} ${url} as ${caller} → ${res.status}: ${text.slice(0, 300)}`;
          if (res.status >= 500) throw new Error(`server error: ${where}`);
          if (res.status >= 400) {
            const parsed = JSON.parse(text) as { detail?: unknown };
            const d = parsed.detail;
            const ok =
              typeof d === "string" ||
              (Array.isArray(d) &&
                d.length > 0 &&
                d.every((i) => typeof i?.msg === "string" && typeof i?.type === "string" && Array.isArray(i?.loc)));
            if (!ok) throw new Error(`error not in the {detail} shape: ${where}`);
          }
          // Bob's review must never come back to Alice: no object with its id, no text with its topic (a random
          // marker the generator cannot produce). Alice may type Bob's id as her own topic: that is her own data.
          if (
            caller === "alice" &&
            text &&
            res.headers.get("content-type")?.includes("text/event-stream") &&
            text.includes(secrets.topic)
          ) {
            throw new Error(`another user's review leaked in an event stream: ${where}`);
          }
          if (caller === "alice" && text && res.headers.get("content-type")?.includes("json")) {
            if (text.includes(secrets.topic) || hasObjectWithId(JSON.parse(text), secrets.reviewId))
              throw new Error(`another user's review leaked: ${where}`);
            // A share is leaked as an object carrying its id; the id as text may be Alice's own input echoed back by a
            // validation message (e.g. "Unknown study design: <id>"), which is not Bob's data.
            if (hasObjectWithId(JSON.parse(text), secrets.shareId))
              throw new Error(`another user's share leaked: ${where}`);
          }
          const bobs = await t.db
            .selectFrom("literature_reviews")
            .select(["user_query", "status"])
            .where("id", "=", secrets.reviewId)
            .executeTakeFirst();
          // Bob's review may only disappear with Bob (an administrator may delete Bob); it never changes.
          const bobExists = await t.db
            .selectFrom("users")
            .select("id")
            .where("id", "=", bob.user.id)
            .executeTakeFirst();
          if (bobExists && (bobs?.user_query !== secrets.topic || bobs?.status !== "complete"))
            throw new Error(`another user's review changed: ${where}`);
          // Bob's received share and his like are his: nobody else's call removes them.
          if (bobExists) {
            const share = await t.db
              .selectFrom("shares")
              .select("id")
              .where("id", "=", secrets.shareId)
              .executeTakeFirst();
            const like = await t.db
              .selectFrom("likes")
              .select("user_id")
              .where("user_id", "=", bob.user.id)
              .where("article_pmid", "=", secrets.pmid)
              .executeTakeFirst();
            if (!share || !like) throw new Error(`another user's share or like changed: ${where}`);
          }
        });

        const origError = console.error;
        // Handled failures of background work (e.g. a recovery e-mail to a generated address) log; they are not 5xx.
        console.error = () => {};
        try {
          await fc.assert(property, {
            seed: SEED,
            numRuns: SECONDS ? Number.MAX_SAFE_INTEGER : RUNS,
            ...(SECONDS ? { interruptAfterTimeLimit: SECONDS * 1000, markInterruptAsFailure: false } : {}),
            endOnFailure: true,
          });
        } finally {
          console.error = origError;
          console.log(
            `api fuzz (${backend}): seed ${SEED}, ${requests} requests over ${operations.length} operations; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`,
          );
        }
        expect(requests).toBeGreaterThan(0);
      },
      (SECONDS ?? 60) * 1000 + 120_000,
    );
  });
}
