import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "kysely";
import type { DatabaseHandle } from "../../src/db/database.ts";
import { createTestDatabase, LAYER_BACKENDS } from "../../tests/support/database.ts";
import { startEutilsStandIn, type EutilsStandIn } from "../../tests/support/eutils-stand-in.ts";
import { PUBMEDQA_PMIDS } from "../../tests/support/pubmed-records.ts";
import { PostgresSearchIndex } from "../postgres-index.ts";
import { EutilsClient, EutilsError, parseRetryAfter, type EutilsClientOptions } from "./eutils.ts";
import { fetchRecords } from "./fetch-records.ts";
import { parsePubmedXml } from "./parser.ts";
import { DatabaseRateGate, ncbiRateLimit, type RateGate } from "./rate-gate.ts";

// The E-utilities client against the stand-in of NCBI's service (tests/support/eutils-stand-in.ts): what every request
// carries, POSTed id lists, retries on 429 (Retry-After honoured) and 5xx, none on a 4xx, cut-off XML, abort; and
// fetchRecords' handling of a batch that arrives cut off.

/** A gate that lets everything through at once and counts the slots taken. */
class CountingGate implements RateGate {
  slots = 0;
  async acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    this.slots++;
  }
}

const QA = [...PUBMEDQA_PMIDS].sort((a, b) => a - b);

let standIn: EutilsStandIn;
beforeAll(() => {
  // The clients here take no real slots (CountingGate): the stand-in's own 429s would only get in the way.
  standIn = startEutilsStandIn({ enforceRate: false });
});
afterAll(async () => {
  await standIn.stop();
});

/** A client of the stand-in whose waits between attempts are recorded and skipped. */
function clientFor(overrides: Partial<EutilsClientOptions> = {}) {
  const gate = new CountingGate();
  const delays: number[] = [];
  const log: string[] = [];
  const client = new EutilsClient({
    baseUrl: standIn.url,
    email: "ops@litreview.test",
    apiKey: "test-key-123",
    gate,
    sleep: async (ms) => {
      delays.push(ms);
    },
    log: (line) => log.push(line),
    ...overrides,
  });
  return { client, gate, delays, log };
}

/** The requests the stand-in saw since `from`. */
const requestsSince = (from: number) => standIn.requests.slice(from);

describe("EutilsClient", () => {
  test("esearch: db, term, retmode=json, tool, email and api_key on every request; the answer read from esearchresult", async () => {
    const { client, gate } = clientFor();
    const from = standIn.requests.length;
    const r = await client.esearch({ term: "asthma", retmax: 5, sort: "relevance", usehistory: true });
    expect(r.count).toBeGreaterThan(0);
    expect(r.pmids.length).toBeLessThanOrEqual(5);
    expect(r.pmids.every((p) => Number.isInteger(p) && p > 0)).toBe(true);
    expect(r.retmax).toBe(r.pmids.length);
    expect(r.retstart).toBe(0);
    expect(typeof r.queryTranslation).toBe("string");
    expect(r.webenv).toBeTruthy();
    expect(r.queryKey).toBeTruthy();
    const [req] = requestsSince(from);
    expect(req).toMatchObject({ method: "GET", status: 200 });
    expect(req!.path).toContain("esearch.fcgi");
    expect(req!.params).toMatchObject({
      db: "pubmed",
      term: "asthma",
      retmode: "json",
      retmax: "5",
      sort: "relevance",
      usehistory: "y",
      tool: "litreview",
      email: "ops@litreview.test",
      api_key: "test-key-123",
    });
    expect(gate.slots).toBe(1);
  });

  test("without a key or an address, neither is sent (tool always is)", async () => {
    const { client } = clientFor({ apiKey: undefined, email: undefined });
    const from = standIn.requests.length;
    await client.esearch({ term: "asthma", retmax: 1 });
    const [req] = requestsSince(from);
    expect(req!.params.tool).toBe("litreview");
    expect(req!.params).not.toHaveProperty("api_key");
    expect(req!.params).not.toHaveProperty("email");
  });

  test("efetch: a long id list is POSTed as a form, and the answer is the records asked for", async () => {
    const { client } = clientFor();
    const ids = QA.slice(0, 250);
    const from = standIn.requests.length;
    const xml = await client.efetchXml({ pmids: ids });
    const [req] = requestsSince(from);
    expect(req).toMatchObject({ method: "POST", status: 200 });
    expect(req!.path).toContain("efetch.fcgi");
    expect(req!.params).toMatchObject({ db: "pubmed", retmode: "xml", tool: "litreview", api_key: "test-key-123" });
    expect(req!.params.id!.split(",").map(Number)).toEqual(ids);
    const got = parsePubmedXml(xml).flatMap((e) => (e.type === "article" ? [e.article.pmid] : []));
    expect(got.sort((a, b) => a - b)).toEqual(ids);
  });

  test("efetch through the history server: WebEnv, query_key, retstart and retmax", async () => {
    const { client } = clientFor();
    const s = await client.esearch({ term: "asthma", retmax: 20, usehistory: true });
    expect(s.pmids.length).toBeGreaterThan(2);
    const from = standIn.requests.length;
    const xml = await client.efetchXml({ webenv: s.webenv!, queryKey: s.queryKey!, retstart: 1, retmax: 2 });
    expect(requestsSince(from)[0]!.params).toMatchObject({
      WebEnv: s.webenv!,
      query_key: s.queryKey!,
      retstart: "1",
      retmax: "2",
    });
    const got = parsePubmedXml(xml).flatMap((e) => (e.type === "article" ? [e.article.pmid] : []));
    expect(got).toEqual(s.pmids.slice(1, 3));
  });

  test("429 is retried after the Retry-After it names, through a new slot of the gate", async () => {
    const { client, gate, delays, log } = clientFor();
    standIn.script({ kind: "status", status: 429, retryAfter: 2 }, 1, "esearch");
    const from = standIn.requests.length;
    const r = await client.esearch({ term: "asthma", retmax: 1 });
    expect(r.count).toBeGreaterThan(0);
    expect(requestsSince(from).map((q) => q.status)).toEqual([429, 200]);
    expect(delays).toEqual([2000]);
    expect(gate.slots).toBe(2);
    expect(log.join("\n")).toContain("HTTP 429");
    // The key is a secret: no line names it.
    expect(log.join("\n")).not.toContain("test-key-123");
  });

  test("5xx is retried with a growing backoff", async () => {
    const { client, delays } = clientFor({ backoffMs: 1000 });
    standIn.script({ kind: "status", status: 503 }, 1, "efetch");
    standIn.script({ kind: "status", status: 500 }, 1, "efetch");
    const from = standIn.requests.length;
    const xml = await client.efetchXml({ pmids: QA.slice(0, 3) });
    expect(xml).toContain("</PubmedArticleSet>");
    expect(requestsSince(from).map((q) => q.status)).toEqual([503, 500, 200]);
    expect(delays).toHaveLength(2);
    // Exponential with jitter: 1 s × 0.5–1, then 2 s × 0.5–1.
    expect(delays[0]).toBeGreaterThanOrEqual(500);
    expect(delays[0]).toBeLessThanOrEqual(1000);
    expect(delays[1]).toBeGreaterThanOrEqual(1000);
    expect(delays[1]).toBeLessThanOrEqual(2000);
  });

  test("after maxAttempts the last failure is thrown, with its kind and status", async () => {
    const { client, gate } = clientFor({ maxAttempts: 3 });
    standIn.script({ kind: "status", status: 502 }, 3, "esearch");
    const error = await client.esearch({ term: "asthma" }).catch((e) => e);
    expect(error).toBeInstanceOf(EutilsError);
    expect(error).toMatchObject({ kind: "server", status: 502 });
    expect(error.message).toContain("gave up after 3 attempts");
    expect(gate.slots).toBe(3);
  });

  test("a 4xx other than 429 fails at once, without a retry", async () => {
    const calls: string[] = [];
    const { client, delays } = clientFor({
      fetch: (async (input: string | URL | Request) => {
        calls.push(String(input));
        return new Response('{"error":"Invalid query_key"}', {
          status: 400,
          headers: { "content-type": "application/json" },
        });
      }) as typeof fetch,
    });
    const error = await client.esearch({ term: "asthma" }).catch((e) => e);
    expect(error).toMatchObject({ name: "EutilsError", kind: "bad_request", status: 400 });
    expect(error.message).toContain("Invalid query_key");
    expect(calls).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  test("NCBI's esearchresult.ERROR (here: no term) is a bad request, not retried", async () => {
    const { client, gate } = clientFor();
    const error = await client.esearch({ term: "" }).catch((e) => e);
    expect(error).toMatchObject({ kind: "bad_request" });
    expect(gate.slots).toBe(1);
  });

  test("an efetch answer cut off before </PubmedArticleSet> is retried, then fails as malformed", async () => {
    const once = clientFor();
    standIn.script({ kind: "truncated" }, 1, "efetch");
    expect(await once.client.efetchXml({ pmids: QA.slice(0, 5) })).toContain("</PubmedArticleSet>");
    expect(once.delays).toHaveLength(1);

    const { client } = clientFor({ maxAttempts: 2 });
    standIn.script({ kind: "truncated" }, 2, "efetch");
    const error = await client.efetchXml({ pmids: QA.slice(0, 5) }).catch((e) => e);
    expect(error).toMatchObject({ kind: "malformed", status: 200 });
    expect(error.message).toContain("cut off");
  });

  test("unreachable (no answer, or connection refused): retried, then thrown as kind network", async () => {
    for (const mode of ["hang", "refuse"] as const) {
      // A short time limit: the hanging attempts each wait it out (twice per mode).
      const { client, delays } = clientFor({ maxAttempts: 2, timeoutMs: 300 });
      standIn.setUnreachable(true, mode);
      try {
        const error = await client.esearch({ term: "asthma" }).catch((e) => e);
        expect(error).toMatchObject({ kind: "network", status: null });
        expect(error.message).toContain(mode === "hang" ? "no answer within 300 ms" : "could not reach");
        expect(delays).toHaveLength(1);
      } finally {
        standIn.setUnreachable(false);
      }
    }
    // Service is back.
    expect((await clientFor().client.esearch({ term: "asthma", retmax: 0 })).count).toBeGreaterThan(0);
  });

  test("abort: a request that hangs ends as soon as the caller's signal aborts, not retried", async () => {
    const { client } = clientFor();
    standIn.script({ kind: "hang" }, 1, "efetch");
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 200);
    const error = await client.efetchXml({ pmids: QA.slice(0, 2) }, controller.signal).catch((e) => e);
    expect(error).toMatchObject({ kind: "aborted", status: null });
    expect(performance.now() - started).toBeLessThan(3000);
    // An already aborted signal sends nothing.
    const from = standIn.requests.length;
    const again = await client.esearch({ term: "asthma" }, AbortSignal.abort()).catch((e) => e);
    expect(again).toMatchObject({ kind: "aborted" });
    expect(standIn.requests.length).toBe(from);
  });

  test("a request that does not answer within timeoutMs counts as a network failure and is retried", async () => {
    const { client, delays } = clientFor({ timeoutMs: 300 });
    standIn.script({ kind: "hang" }, 1, "esearch");
    const r = await client.esearch({ term: "asthma", retmax: 1 });
    expect(r.count).toBeGreaterThan(0);
    expect(delays).toHaveLength(1);
  });

  test("a Retry-After longer than the client waits fails the request at once", async () => {
    const { client, delays } = clientFor({ maxRetryAfterMs: 5_000 });
    standIn.script({ kind: "status", status: 429, retryAfter: 3600 }, 1, "esearch");
    const error = await client.esearch({ term: "asthma" }).catch((e) => e);
    expect(error).toMatchObject({ kind: "rate_limited", status: 429 });
    expect(delays).toEqual([]);
  });

  test("Retry-After is read as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-11-26T12:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter("Thu, 26 Nov 2026 12:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("Thu, 26 Nov 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  test("NCBI's budget: 3 requests a second without a key, 10 with one", () => {
    expect(ncbiRateLimit()).toBe(3);
    expect(ncbiRateLimit("")).toBe(3);
    expect(ncbiRateLimit("abc")).toBe(10);
  });
});

describe("fetchRecords with a batch cut off", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase("pglite");
  });
  afterAll(async () => {
    await handle.close();
  });

  test("the cut-off batch is logged with its PMIDs and nothing of it is ingested; the other batches are", async () => {
    const { client } = clientFor({ maxAttempts: 1 });
    const pmids = QA.slice(0, 30);
    const log: string[] = [];
    // The second of three efetch requests is cut off.
    let efetches = 0;
    const scripted: Pick<EutilsClient, "efetchXml"> = {
      efetchXml: async (req, signal) => {
        if (++efetches === 2) standIn.script({ kind: "truncated" }, 1, "efetch");
        return client.efetchXml(req, signal);
      },
    };
    const search = new PostgresSearchIndex(handle.db);
    const r = await fetchRecords({ db: handle.db, search, client: scripted }, pmids, {
      batchSize: 10,
      log: (l) => log.push(l),
    });
    const bad = pmids.slice(10, 20);
    expect(r).toMatchObject({ requested: 30, alreadyHeld: 0, toFetch: 30, fetched: 20, inserted: 20 });
    expect(r.failedBatches).toHaveLength(1);
    expect(r.failedBatches[0]!.pmids).toEqual(bad);
    expect(r.failedBatches[0]!.message).toContain("cut off");
    expect(log.some((l) => bad.every((p) => l.includes(String(p))))).toBe(true);
    const { rows } = await sql<{ pmid: number }>`SELECT pmid FROM articles ORDER BY pmid`.execute(handle.db);
    expect(rows.map((x) => Number(x.pmid))).toEqual([...pmids.slice(0, 10), ...pmids.slice(20)]);

    // Running it again fetches only the failed batch.
    const again = await fetchRecords({ db: handle.db, search, client }, pmids, { batchSize: 10 });
    expect(again).toMatchObject({ alreadyHeld: 20, toFetch: 10, fetched: 10, failedBatches: [] });
  });

  test("abort: batches fetched before it are ingested, then the abort is thrown", async () => {
    const { client } = clientFor();
    const pmids = QA.slice(100, 130);
    const controller = new AbortController();
    const progress: number[] = [];
    const search = new PostgresSearchIndex(handle.db);
    const error = await fetchRecords({ db: handle.db, search, client }, pmids, {
      batchSize: 10,
      signal: controller.signal,
      onProgress: (p) => {
        progress.push(p.fetched);
        if (p.fetched >= 10) controller.abort();
      },
    }).catch((e) => e);
    expect(error).toMatchObject({ name: "EutilsError", kind: "aborted" });
    expect(progress).toEqual([10]);
    const { rows } = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM articles WHERE pmid = ANY(${`{${pmids.join(",")}}`}::integer[])`.execute(
      handle.db,
    );
    expect(rows[0]!.n).toBe(10);
    // The fetched records are searchable at once (the index was refreshed before the abort was thrown).
    const title = standIn.records.get(pmids[0]!)!.article.title!;
    expect((await search.search(title, { limit: 5 })).hits.map((h) => h.pmid)).toContain(pmids[0]!);
  });

  test("the gate in the database: concurrent callers take slots spaced by 1/rate (+10 %)", async () => {
    const gate = new DatabaseRateGate(handle.db, { name: "unit-test", requestsPerSecond: 20 });
    const times: number[] = [];
    const start = performance.now();
    await Promise.all(Array.from({ length: 6 }, () => gate.acquire().then(() => times.push(performance.now()))));
    times.sort((a, b) => a - b);
    // The i-th caller may not go before i slots of 55 ms have passed (give or take 5 ms of timer rounding). Measured
    // from the start rather than between neighbours: a timer that fires late on a busy machine delays one caller and
    // shortens the next gap without any slot being taken early.
    for (const [i, t] of times.entries()) expect(t - start).toBeGreaterThanOrEqual(i * 50);
    const aborted = await gate.acquire(AbortSignal.abort()).catch((e) => e);
    expect(aborted).toBeInstanceOf(DOMException);
  });
});

for (const backend of LAYER_BACKENDS) {
  describe(`the rate gate's fair share between users (${backend})`, () => {
    let gateDb: DatabaseHandle;
    beforeAll(async () => {
      gateDb = await createTestDatabase(backend);
    });
    afterAll(async () => {
      await gateDb?.close();
    });

    test("fair share: a user with three requests waiting does not take the slots of a user with one", async () => {
      // Issue 34: each of one user's concurrent reviews took its own slots, so three reviews took three slots for every
      // one of another user's. With a fairness key a user holds one pending slot at a time: the slots alternate.
      const order: string[] = [];
      const requester = async (who: string, times: number) => {
        const gate = new DatabaseRateGate(gateDb.db, { name: "fair-test", requestsPerSecond: 40, fairnessKey: who });
        for (let i = 0; i < times; i++) {
          await gate.acquire();
          order.push(who);
        }
      };
      await Promise.all([
        requester("user:a", 4),
        requester("user:a", 4),
        requester("user:a", 4),
        requester("user:b", 4),
      ]);
      expect(order).toHaveLength(16);
      // b's four slots come among the first eight (every other slot), not one in four (its place without a key).
      expect(order.slice(0, 8).filter((w) => w === "user:b").length).toBeGreaterThanOrEqual(3);
      // The key's row says when its last slot was; the budget's row is the budget's alone.
      const { rows } = await sql<{
        name: string;
      }>`SELECT name FROM ncbi_rate_gate WHERE name LIKE 'fair-test%' ORDER BY name`.execute(gateDb.db);
      expect(rows.map((r) => r.name)).toEqual(["fair-test", "fair-test user:a", "fair-test user:b"]);
    });

    test("a key alone still gets every slot, at the full rate", async () => {
      const gate = new DatabaseRateGate(gateDb.db, {
        name: "alone-test",
        requestsPerSecond: 20,
        fairnessKey: "user:c",
      });
      const start = performance.now();
      await Promise.all(Array.from({ length: 4 }, () => gate.acquire()));
      // Four slots 55 ms apart: the last one about 165 ms after the start, not a second later. A waiter wakes at its
      // key's slot and takes the next one, so a busy machine may add a little per slot.
      expect(performance.now() - start).toBeLessThan(165 + 4 * 100);
    });
  });
}
