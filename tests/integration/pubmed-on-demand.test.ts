import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { APP_BACKENDS } from "../support/database.ts";
import { createTestApp, type TestApp, type TestUser } from "../support/app.ts";
import { startEutilsStandIn, type EutilsStandIn } from "../support/eutils-stand-in.ts";
import { loadStandInRecords, PUBMEDQA_PMIDS } from "../support/pubmed-records.ts";
import { ingestFiles } from "../../search/ingest.ts";
import { matchesRecord, parsePubmedQuery } from "../../search/pubmed/query-syntax.ts";
import { startWorker } from "../../src/jobs/worker.ts";
import { applicationSchedules, jobHandlers } from "../../src/job-registry.ts";
import { fetchedToday, searchesToday } from "../../src/pubmed/usage.ts";
import { PUBMED_PRUNE_JOB } from "../../src/pubmed/jobs.ts";
import { sql } from "kysely";

// PubMed on demand (issue 19), end to end through the API and the review job: a topic the local index lacks is fetched
// from an E-utilities stand-in (real records: the sample, and PubMedQA's records, which the sample does not hold) and
// reviewed from what was fetched; a second review fetches nothing; a slow, failing or unreachable PubMed never fails a
// review; a user's daily allowance caps the fetch; PubMed's search syntax reads the same locally as in the stand-in.
//
// Pace: the stand-in and the apps run at FAST requests a second (PUBMED_EUTILS_REQUESTS_PER_SECOND) rather than NCBI's
// 3, which the gate keeps without that setting (src/pubmed/client.test.ts); the test of concurrent reviews runs the
// gate at GATED a second and checks the spacing (docs/decisions/0041-injected-intervals.md).

const SAMPLE = join(import.meta.dir, "..", "..", "sample", "pubmed");
/** The local index of these tests: one small file of the sample, so that most topics find little. */
const LOCAL_FILE = join(SAMPLE, "pubmedxml_piratevax_pubmed_result.xml.gz");
/** A topic only PubMedQA's records hold (the issue's own example of a first topic that found nothing). */
const ASTHMA = "asthma inhaled corticosteroids children";
/** Requests a second of the stand-in and of the apps' gate, in the tests that are not about the rate. */
const FAST = 50;
/** Requests a second of the gate in the test of concurrent reviews. */
const GATED = 10;

interface PubmedReport {
  outcome: string;
  term: string;
  query_translation: string | null;
  total: number | null;
  considered: number;
  already_held: number;
  fetched: number;
  failed: number;
  searched_at: string;
  note: string | null;
}
interface Details {
  status: string;
  progress: string | null;
  summary: string | null;
  articles_refs: { pmid: number }[];
  fts_articles_total_count: number;
  search_report: {
    counts: { matched: number };
    query: { pubmed_syntax?: string | null; concepts: unknown[]; phrases: string[] };
    pubmed?: PubmedReport | null;
    pubmed_not_asked?: string | null;
  } | null;
}

/**
 * A PubMed XML file of the bundled sample's records (not PubMedQA's) that mention spinal fusion (175 of its 2,098),
 * written once per process to a temporary folder. @returns its path.
 */
let spinePath: Promise<string> | null = null;
let spineDir: string | null = null;
afterAll(async () => {
  if (spineDir) await rm(spineDir, { recursive: true, force: true });
});
function spineFile(): Promise<string> {
  spinePath ??= (async () => {
    const records = loadStandInRecords().filter(
      (r) =>
        !PUBMEDQA_PMIDS.has(r.pmid) &&
        /spinal fusion/i.test(`${r.article.title} ${r.article.abstract} ${r.article.mesh_terms.join(" ")}`),
    );
    const dir = (spineDir = await mkdtemp(join(tmpdir(), "pubmed-on-demand-")));
    const path = join(dir, "spine.xml");
    await writeFile(
      path,
      `<?xml version="1.0"?>\n<PubmedArticleSet>\n${records.map((r) => r.xml).join("\n")}\n</PubmedArticleSet>\n`,
    );
    return path;
  })();
  return spinePath;
}

for (const backend of APP_BACKENDS) {
  describe(`PubMed on demand (${backend})`, () => {
    let standIn: EutilsStandIn;
    let t: TestApp;
    let user: TestUser;

    /** A test app whose reviews ask the stand-in; `env` overrides the budget settings. */
    const appWith = async (env: Record<string, string> = {}) => {
      const app = await createTestApp(backend, {
        env: {
          PUBMED_ON_DEMAND: "on",
          PUBMED_EUTILS_URL: standIn.url,
          NCBI_EMAIL: "ops@litreview.test",
          PUBMED_EUTILS_REQUESTS_PER_SECOND: String(FAST),
          ...env,
        },
      });
      expect((await ingestFiles(app.deps, [LOCAL_FILE])).failedFiles).toEqual([]);
      return app;
    };

    beforeAll(async () => {
      standIn = startEutilsStandIn({ limits: { withoutKey: FAST, withKey: FAST } });
      t = await appWith();
      user = await t.signup();
    }, 120_000);
    afterAll(async () => {
      await t?.close();
      standIn?.stop();
    });

    async function start(app: TestApp, who: TestUser, topic: string, query = ""): Promise<string> {
      const { id } = (await (
        await app.app.request("/api/v1/literature_review/create", { method: "POST", headers: who.headers })
      ).json()) as { id: string };
      const res = await app.app.request(
        `/api/v1/literature_review/start/${id}?user_query=${encodeURIComponent(topic)}${query}`,
        { method: "POST", headers: who.headers },
      );
      expect(res.status).toBe(200);
      return id;
    }
    const details = async (app: TestApp, who: TestUser, id: string) =>
      (await (
        await app.app.request(`/api/v1/literature_review/details/${id}?fts_limit=100`, { headers: who.headers })
      ).json()) as Details;

    /** Creates, starts and runs a review to its end; returns its details. */
    async function review(app: TestApp, who: TestUser, topic: string, query = ""): Promise<Details> {
      const id = await start(app, who, topic, query);
      await app.runJobs();
      return details(app, who, id);
    }

    test("a topic the index lacks is fetched from PubMed, reviewed and cited from the fetched records; the panel says what was sent", async () => {
      const before = standIn.requests.length;
      const heldBefore = new Set(
        (await t.db.selectFrom("articles").select("pmid").execute()).map((r) => Number(r.pmid)),
      );
      const d = await review(t, user, ASTHMA);
      expect(d.status).toBe("complete");
      const p = d.search_report?.pubmed;
      expect(p).toBeTruthy();
      expect(p!.outcome).toBe("fetched");
      expect(p!.term).toBe(ASTHMA);
      expect(p!.query_translation).toBeTruthy();
      expect(p!.total).toBeGreaterThan(0);
      expect(p!.fetched).toBeGreaterThan(0);
      expect(p!.fetched + p!.already_held).toBe(p!.considered);
      expect(p!.note).toBeNull();
      expect(d.progress).toBeNull();
      // Every cited article is a record only PubMed (the stand-in) held before the review; PubMedQA's trial of inhaled
      // steroids in children is among them.
      expect(d.articles_refs.length).toBeGreaterThan(0);
      for (const a of d.articles_refs) expect(heldBefore.has(a.pmid)).toBe(false);
      expect(d.articles_refs.some((a) => PUBMEDQA_PMIDS.has(a.pmid))).toBe(true);
      // What went to NCBI: the topic as written, PubMed's Best Match, the tool and the operator's address.
      const sent = standIn.requests.slice(before);
      const search = sent.find((r) => r.path.endsWith("esearch.fcgi"))!;
      expect(search.params.term).toBe(ASTHMA);
      expect(search.params.sort).toBe("relevance");
      expect(search.params.tool).toBe("litreview");
      expect(search.params.email).toBe("ops@litreview.test");
      expect(sent.some((r) => r.path.endsWith("efetch.fcgi"))).toBe(true);
      expect(await fetchedToday(t.db, user.user.id)).toBe(p!.fetched);
    });

    test("a second review of the same topic asks PubMed nothing and fetches nothing new", async () => {
      const before = standIn.requests.length;
      const d = await review(t, user, ASTHMA);
      expect(d.status).toBe("complete");
      expect(d.search_report?.pubmed?.fetched ?? 0).toBe(0);
      expect(standIn.requests.length).toBe(before);
    });

    test("a topic the index covers well does not leave the machine", async () => {
      const app = await appWith({ PUBMED_ON_DEMAND: "on" });
      try {
        const u = await app.signup();
        // Fill the index with the sample's records on spinal fusion (real records of the merged file; ingesting all
        // 2,098 took most of this file's time), then review a topic they cover with more than 30 articles.
        expect((await ingestFiles(app.deps, [await spineFile()])).failedFiles).toEqual([]);
        const before = standIn.requests.length;
        const d = await review(app, u, "spinal fusion");
        expect(d.status).toBe("complete");
        expect(d.search_report?.counts.matched).toBeGreaterThanOrEqual(30);
        expect(d.search_report?.pubmed ?? null).toBeNull();
        // "How this review was made" says why PubMed was not asked (issue 37 item 8).
        expect(d.search_report?.pubmed_not_asked).toMatch(
          /^PubMed was not asked: the index already held [\d,]+ articles that address every part of the topic \(it asks PubMed when it holds fewer than 30\)\.$/,
        );
        expect(standIn.requests.length).toBe(before);
      } finally {
        await app.close();
      }
    }, 120_000);

    test("the review's filters go to PubMed as field tags", async () => {
      const before = standIn.requests.length;
      const d = await review(
        t,
        user,
        "cromones hospital admission",
        "&year_from=1990&year_to=2010&study_designs=rct,cohort&humans_only=true",
      );
      expect(["complete", "no_articles_found"]).toContain(d.status);
      const search = standIn.requests.slice(before).find((r) => r.path.endsWith("esearch.fcgi"))!;
      expect(search.params.term).toBe(
        `(cromones hospital admission) AND 1990:2010[dp] AND ("cohort studies"[mh] OR "randomized controlled trial"[pt]) AND humans[mh]`,
      );
      expect(d.search_report?.pubmed?.term).toBe(search.params.term);
    });

    test("while records are fetched, the review shows its progress line under the searching status", async () => {
      standIn.setLatency(400);
      const u = await t.signup();
      const id = await start(t, u, "mitochondria programmed cell death lace plant");
      const seen = new Set<string>();
      let running = true;
      const watching = (async () => {
        while (running) {
          const s = (await (
            await t.app.request(`/api/v1/literature_review/status/${id}`, { headers: u.headers })
          ).json()) as { status: string; progress: string | null };
          if (s.progress) seen.add(`${s.status}: ${s.progress}`);
          await Bun.sleep(50);
        }
      })();
      try {
        await t.runJobs();
      } finally {
        running = false;
        await watching;
        standIn.setLatency(0);
      }
      expect([...seen].some((l) => /^searching: Fetching \d+ records? from PubMed…$/.test(l))).toBe(true);
      const d = await details(t, u, id);
      expect(d.status).toBe("complete");
      expect(d.progress).toBeNull();
    });

    test("PubMed unreachable: the review ends within the time budget, on the local index, and says so", async () => {
      const app = await appWith({ PUBMED_FETCH_BUDGET_MS: "1500" });
      const u = await app.signup();
      standIn.setUnreachable(true);
      try {
        const t0 = performance.now();
        const d = await review(app, u, "fast foods asthma risk factor");
        const seconds = (performance.now() - t0) / 1000;
        expect(seconds).toBeLessThan(8);
        expect(["complete", "no_articles_found"]).toContain(d.status);
        const p = d.search_report?.pubmed;
        expect(p?.outcome).toBe("timeout");
        expect(p?.note).toBe("PubMed did not answer within 2 seconds, so this review uses the local index only.");
      } finally {
        standIn.setUnreachable(false);
        await app.close();
      }
    });

    test("PubMed failing (5xx after retries): the review goes on with the local index and says so in one sentence", async () => {
      const app = await appWith();
      const u = await app.signup();
      // Retry-After: 0, so that the client's retries come at once instead of after its 1 s, 2 s, 4 s backoff (the
      // backoff itself is search/pubmed/eutils.test.ts's).
      standIn.script({ kind: "status", status: 503, retryAfter: 0 }, 20, "esearch");
      try {
        const d = await review(app, u, "paucigranulocytic asthma sputum inflammation");
        expect(["complete", "no_articles_found"]).toContain(d.status);
        expect(d.search_report?.pubmed?.outcome).toBe("error");
        expect(d.search_report?.pubmed?.note).toBe(
          "PubMed could not be reached, so this review uses the local index only.",
        );
      } finally {
        standIn.script({ kind: "status", status: 503 }, 0, "esearch");
        await app.close();
      }
    }, 60_000);

    test("a user's daily allowance caps what the reviews fetch, and says so", async () => {
      const app = await appWith({ PUBMED_USER_DAILY_RECORDS: "3" });
      const u = await app.signup();
      try {
        const d = await review(app, u, "asthma");
        const p = d.search_report!.pubmed!;
        expect(p.fetched).toBe(3);
        expect(p.outcome).toBe("budget");
        expect(p.note).toMatch(
          /^Your daily allowance of records fetched from PubMed allowed 3 records of \d+; the rest were not fetched\.$/,
        );
        const again = await review(app, u, "dexamethasone prednisone");
        expect(again.search_report?.pubmed?.fetched).toBe(0);
        expect(again.search_report?.pubmed?.note).toBe(
          "Your daily allowance of records fetched from PubMed is used up, so this review uses the local index only.",
        );
        expect(await fetchedToday(app.db, u.user.id)).toBe(3);
      } finally {
        await app.close();
      }
    });

    test("look-ups count against a daily allowance of their own; a cached answer is free; past it nothing is sent", async () => {
      // Records are not the limit here (the default 2,000): the look-ups are. The case: distinct topics, each a
      // new esearch, once the records allowance no longer stops anything.
      const app = await appWith({ PUBMED_USER_DAILY_SEARCHES: "2" });
      const u = await app.signup();
      const esearches = () => standIn.requests.filter((r) => r.path.endsWith("/esearch.fcgi")).length;
      try {
        const before = esearches();
        expect((await review(app, u, "asthma")).search_report!.pubmed!.outcome).not.toBe("budget");
        expect((await review(app, u, "dexamethasone prednisone")).search_report!.pubmed!.outcome).not.toBe("budget");
        expect(esearches() - before).toBe(2);
        expect(await searchesToday(app.db, u.user.id)).toBe(2);
        // The same topic again: its answer is in the cache, so it costs no look-up.
        expect((await review(app, u, "asthma")).search_report!.pubmed!.outcome).not.toBe("budget");
        // A third distinct topic: the allowance is spent, nothing goes to PubMed, the review says why.
        const spent = await review(app, u, "bronchiolitis infants");
        expect(spent.status).not.toBe("error");
        expect(spent.search_report!.pubmed!.outcome).toBe("budget");
        expect(spent.search_report!.pubmed!.note).toBe(
          "Your daily allowance of PubMed searches is used up, so this review uses the local index only.",
        );
        expect(esearches() - before).toBe(2);
        expect(await searchesToday(app.db, u.user.id)).toBe(2);
        // Another user's allowance is her own.
        const other = await app.signup();
        expect((await review(app, other, "bronchiolitis infants")).search_report!.pubmed!.outcome).not.toBe("budget");
        expect(esearches() - before).toBe(3);
      } finally {
        await app.close();
      }
    });

    test(`concurrent reviews keep the gate's rate (${GATED} requests a second)`, async () => {
      const app = await appWith({ PUBMED_EUTILS_REQUESTS_PER_SECOND: String(GATED) });
      const worker = startWorker(app.deps, jobHandlers(app.deps), { concurrency: 3, pollIntervalMs: 20 });
      try {
        const users = await Promise.all([app.signup(), app.signup(), app.signup()]);
        const topics = [
          "body mass index asthma control",
          "fetal gender asthma pregnancy",
          "asthma severity physician estimates",
        ];
        const since = Date.now();
        const ids = await Promise.all(users.map((u, i) => start(app, u, topics[i]!)));
        for (;;) {
          const all = await Promise.all(ids.map((id, i) => details(app, users[i]!, id)));
          if (all.every((d) => !["initial", "searching", "sorting", "summarizing"].includes(d.status))) break;
          await Bun.sleep(100);
        }
        const sent = standIn.requests.filter((r) => r.at >= since);
        expect(sent.length).toBeGreaterThanOrEqual(3);
        expect(sent.every((r) => r.status !== 429)).toBe(true);
        expect(standIn.maxRequestsPerSecond(since)).toBeLessThanOrEqual(GATED);
        // Spaced by the gate: the i-th request not before i slots of 1/GATED s after the first (less 100 ms for the
        // first one's lateness); the three reviews' searches, ungated, would arrive within a few ms of each other.
        const at = sent.map((r) => r.at).sort((a, b) => a - b);
        for (const [i, x] of at.entries()) expect(x - at[0]!).toBeGreaterThanOrEqual(i * (1000 / GATED) - 100);
      } finally {
        await worker.stop();
        await app.close();
      }
    }, 60_000);

    test("the daily housekeeping drops esearch answers past a week and fetch counts past a month, and keeps the rest", async () => {
      const u = await t.signup();
      await sql`INSERT INTO pubmed_search_cache (key, pmids, total, query_translation, searched_at) VALUES
        ('test:old', '{1}', 1, null, now() - interval '9 days'), ('test:week', '{2}', 1, null, now() - interval '6 days')`.execute(
        t.db,
      );
      await sql`INSERT INTO pubmed_fetch_usage (user_id, day, records) VALUES
        (${u.user.id}, (now() AT TIME ZONE 'UTC')::date - 40, 50), (${u.user.id}, (now() AT TIME ZONE 'UTC')::date - 3, 20)`.execute(
        t.db,
      );
      expect(applicationSchedules(t.deps).find((s) => s.name === PUBMED_PRUNE_JOB)?.cron).toBe("30 3 * * *");
      await t.deps.jobs.enqueue(PUBMED_PRUNE_JOB, {});
      await t.runJobs();
      const keys = (
        await t.db.selectFrom("pubmed_search_cache").select("key").where("key", "like", "test:%").execute()
      ).map((r) => r.key);
      expect(keys).toEqual(["test:week"]);
      const days = await t.db
        .selectFrom("pubmed_fetch_usage")
        .select("records")
        .where("user_id", "=", u.user.id)
        .execute();
      expect(days.map((d) => Number(d.records))).toEqual([20]);
    });

    test("a search strategy that does not parse is refused with the reason (422), and the review stays unstarted", async () => {
      const { id } = (await (
        await t.app.request("/api/v1/literature_review/create", { method: "POST", headers: user.headers })
      ).json()) as { id: string };
      const res = await t.app.request(
        `/api/v1/literature_review/start/${id}?user_query=${encodeURIComponent("(asthma[tiab] AND child*[tiab]")}`,
        {
          method: "POST",
          headers: user.headers,
        },
      );
      expect(res.status).toBe(422);
      const body = (await res.json()) as { detail: { msg: string }[] };
      expect(body.detail[0]!.msg).toStartWith("Search strategy: ");
      expect(body.detail[0]!.msg).toBe(`Search strategy: the "(" at character 1 is never closed.`);
      const status = (await (
        await t.app.request(`/api/v1/literature_review/status/${id}`, { headers: user.headers })
      ).json()) as { status: string };
      expect(status.status).toBe("initial");
    });

    test("a search strategy may run to 2,000 characters, a plain topic to 500; past them a clear 422", async () => {
      const start = async (topic: string) => {
        const { id } = (await (
          await t.app.request("/api/v1/literature_review/create", { method: "POST", headers: user.headers })
        ).json()) as { id: string };
        const res = await t.app.request(
          `/api/v1/literature_review/start/${id}?user_query=${encodeURIComponent(topic)}`,
          { method: "POST", headers: user.headers },
        );
        return { status: res.status, body: (await res.json()) as { detail: { msg: string; type: string }[] } };
      };
      // A long strategy as researchers paste them: synonyms ORed per concept, the concepts ANDed.
      const words = Array.from({ length: 60 }, (_, i) => `"asthma term ${i}"[tiab]`);
      const strategy = `(${words.join(" OR ")}) AND (child*[tiab] OR adolescent[mh])`;
      expect(strategy.length).toBeGreaterThan(1_000);
      expect(strategy.length).toBeLessThanOrEqual(2_000);
      expect((await start(strategy)).status).toBe(200);
      const tooLong = await start(`${strategy} AND (${"x".repeat(2_000 - strategy.length)}[tiab])`);
      expect(tooLong.status).toBe(422);
      expect(tooLong.body.detail[0]).toMatchObject({
        msg: "A search strategy must be at most 2000 characters.",
        type: "too_big",
      });
      const plain = await start("asthma ".repeat(80).trim());
      expect(plain.status).toBe(422);
      expect(plain.body.detail[0]).toMatchObject({
        msg: "Review topic must be at most 500 characters.",
        type: "too_big",
      });
      await t.runJobs();
    });

    test("a topic in PubMed's search syntax is sent as written and matches locally what PubMed's Boolean evaluation matches", async () => {
      const strategy = `(asthma[tiab] OR "asthma"[mh]) AND (child*[tiab] OR adolescent[mh]) NOT "adult"[ti]`;
      const u = await t.signup();
      const before = standIn.requests.length;
      const d = await review(t, u, strategy);
      const search = standIn.requests.slice(before).find((r) => r.path.endsWith("esearch.fcgi"));
      expect(search?.params.term).toBe(strategy);
      // Read as written, every term of it, and no concepts or phrases of our own (issue 37 item 8).
      expect(d.search_report?.query.pubmed_syntax).toBe(
        '(("asthma"[Title/Abstract] OR "asthma"[MeSH Terms]) AND ("child*"[Title/Abstract] OR "adolescent"[MeSH Terms])) NOT "adult"[Title]',
      );
      expect(d.search_report?.query.concepts).toEqual([]);
      expect(d.search_report?.query.phrases).toEqual([]);
      // The same strategy over the same records (those the local index now holds), evaluated by the stand-in's reading.
      const heldPmids = new Set(
        (await t.db.selectFrom("articles").select("pmid").execute()).map((r) => Number(r.pmid)),
      );
      const node = parsePubmedQuery(strategy);
      const expected = loadStandInRecords().filter(
        (r) => heldPmids.has(r.pmid) && matchesRecord(node, r.article),
      ).length;
      expect(expected).toBeGreaterThan(0);
      expect(d.search_report?.counts.matched).toBe(expected);
      expect(d.status).toBe("complete");
    });
  });
}
