import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import {
  MAX_STRATEGY_DEPTH,
  MAX_STRATEGY_DISTINCT_CHARACTERS,
  MAX_STRATEGY_TERMS,
} from "../../search/pubmed/query-syntax.ts";

/**
 * What a search strategy may hold (issue 34; search/pubmed/query-syntax/limits.ts): past its terms, nesting or distinct
 * characters, the start is refused with 422 and the reason in the API's validation shape, and the review stays
 * unstarted; at the limits, the review runs.
 */

/** Lower-case letters outside ASCII whose upper case is one other character (accented Latin, Greek, Cyrillic). */
function foldingLetters(count: number): string {
  const out: string[] = [];
  for (let cp = 0xdf; out.length < count; cp++) {
    const ch = String.fromCodePoint(cp);
    const upper = ch.toUpperCase();
    if (/\p{Ll}/u.test(ch) && upper !== ch && [...upper].length === 1) out.push(ch);
  }
  return out.join("");
}

/** The probes: one word of n such letters, tagged [tiab], OR q0 … q(terms − 1). */
const probe = (letters: number, terms: number) =>
  `${foldingLetters(letters)}[tiab]${Array.from({ length: terms }, (_, i) => ` OR q${i}`).join("")}`;

for (const backend of APP_BACKENDS) {
  describe(`search strategy limits (${backend})`, () => {
    let t: TestApp;
    let user: TestUser;
    beforeAll(async () => {
      t = await createTestApp(backend);
      user = await t.signup();
    });
    afterAll(async () => {
      await t?.close();
    });

    /** Creates a review and starts it on `topic`; returns the answer and the review's id. */
    async function start(topic: string): Promise<{ res: Response; id: string }> {
      const { id } = (await (
        await t.app.request("/api/v1/literature_review/create", { method: "POST", headers: user.headers })
      ).json()) as { id: string };
      const res = await t.app.request(`/api/v1/literature_review/start/${id}?user_query=${encodeURIComponent(topic)}`, {
        method: "POST",
        headers: user.headers,
      });
      return { res, id };
    }
    async function refused(topic: string): Promise<string> {
      const { res, id } = await start(topic);
      expect(res.status).toBe(422);
      const body = (await res.json()) as { detail: { msg: string; loc: string[] }[] };
      const status = (await (
        await t.app.request(`/api/v1/literature_review/status/${id}`, { headers: user.headers })
      ).json()) as { status: string };
      expect(status.status).toBe("initial");
      expect(body.detail[0]!.loc).toContain("user_query");
      return body.detail[0]!.msg;
    }

    test("the issue's probes (400 and 473 distinct letters) are refused with the reason", async () => {
      expect(await refused(probe(400, 10))).toBe(
        `Search strategy: it uses 410 different characters (not counting upper and lower case); at most ${MAX_STRATEGY_DISTINCT_CHARACTERS} are allowed.`,
      );
      expect(await refused(probe(473, 180))).toStartWith("Search strategy: it uses 483 different characters");
    });

    test("too many terms, too deep a nesting: refused with the count and the limit", async () => {
      const terms = Array.from({ length: MAX_STRATEGY_TERMS + 1 }, (_, i) => `t${i}[tiab]`).join(" OR ");
      expect(await refused(terms)).toBe(
        `Search strategy: it has ${MAX_STRATEGY_TERMS + 1} terms; at most ${MAX_STRATEGY_TERMS} are allowed.`,
      );
      const deep = Array.from({ length: MAX_STRATEGY_DEPTH + 1 }, (_, i) => `w${i}[ti]`).reduce(
        (inner, term, i) => `(${term} ${i % 2 ? "AND" : "OR"} ${inner})`,
        "asthma[tiab]",
      );
      expect(await refused(deep)).toStartWith(
        `Search strategy: its operators are nested ${MAX_STRATEGY_DEPTH + 1} levels deep; at most ${MAX_STRATEGY_DEPTH} are allowed.`,
      );
    });

    test("at the limits the review starts and runs", async () => {
      const terms = Array.from({ length: MAX_STRATEGY_TERMS }, (_, i) => `t${i}[ti]`).join(" OR ");
      const deep = Array.from({ length: MAX_STRATEGY_DEPTH - 1 }, (_, i) => `w${i}[ti]`).reduce(
        (inner, term, i) => `(${term} ${i % 2 ? "AND" : "OR"} ${inner})`,
        "asthma[tiab]",
      );
      for (const topic of [terms, deep]) {
        const { res, id } = await start(topic);
        expect(res.status).toBe(200);
        await t.runJobs();
        const status = (await (
          await t.app.request(`/api/v1/literature_review/status/${id}`, { headers: user.headers })
        ).json()) as { status: string };
        expect(status.status).toBe("no_articles_found");
      }
    });
  });
}
