import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Client, HttpConnection } from "@elastic/elasticsearch";
import { createTestDatabase } from "../support/database.ts";
import { startElasticsearchStandIn, type StandIn } from "../support/elasticsearch-stand-in.ts";
import {
  ElasticsearchSearchIndex,
  ElasticsearchSetupError,
  MAPPING_VERSION,
} from "../../search/elasticsearch-index.ts";
import { POSTGRES_ENGLISH_STOP_WORDS } from "../../search/elasticsearch/analysis.ts";
import { splitCredentials } from "../../search/elasticsearch/connection.ts";
import type { DatabaseHandle } from "../../src/db/database.ts";
import { readTopic } from "../../search/concepts.ts";

// The Elasticsearch adapter with the real @elastic/elasticsearch client against a local HTTP stand-in
// (tests/support/elasticsearch-stand-in.ts: Elasticsearch 9.4's answers), checking the requests it sends: the
// mapping and its version, bulk bodies read from the articles table, retries on 429, failures named by PMID, the
// atomic alias swap of a reindex, the queries (BM25F field weights, phrases, exclusions, years, coverage, profile),
// and the start-up checks. The ranking itself is checked by the SearchIndex contract suite against a real cluster
// (search/elasticsearch-index.contract.test.ts, when TEST_ELASTICSEARCH_URL is set).

const ALIAS = "test-articles";
/** The articles' abstracts: with 3 shards, PMID 3 is on shard 0, PMID 1 on shard 1, PMID 2 on shard 2. */
const ABSTRACTS = [
  "Nasopharyngeal carcinoma treated with radiotherapy.",
  "Carcinoma outcomes.",
  "Radiotherapy outcomes in carcinoma.",
];

describe("Elasticsearch adapter (real client, HTTP stand-in)", () => {
  let es: StandIn;
  let handle: DatabaseHandle;
  let index: ElasticsearchSearchIndex;

  beforeAll(async () => {
    es = startElasticsearchStandIn();
    handle = await createTestDatabase("pglite");
    await handle.db
      .insertInto("articles")
      .values(
        [1, 2, 3].map((pmid) => ({
          pmid,
          title: `Title ${pmid} on nasopharyngeal carcinoma`,
          abstract: ABSTRACTS[pmid - 1],
          abstract_sections: "[]",
          mesh_terms: ["Nasopharyngeal Carcinoma", "Humans"],
          keywords: ["NPC"],
          publication_types: ["Journal Article"],
          publication_year: 2019 + pmid,
          publication_date: `${2019 + pmid}-05-01`,
          journal: "Oral Oncology",
          content_hash: `h${pmid}`,
        })) as never,
      )
      .execute();
    index = new ElasticsearchSearchIndex({
      node: es.url,
      alias: ALIAS,
      db: handle.db,
      retryWaitMs: 10,
      layout: { shards: 3, replicas: 1 },
    });
  });
  afterAll(async () => {
    es.stop();
    await handle.close();
  });
  beforeEach(() => {
    es.requests.length = 0;
  });

  test("start-up check: a missing index says to run the reindex; an unreachable cluster says so", async () => {
    await expect(index.check()).rejects.toThrow(
      new ElasticsearchSetupError(
        `The Elasticsearch index "${ALIAS}" does not exist: run npm run search:reindex to build it from the articles table.`,
      ),
    );
    const nowhere = new ElasticsearchSearchIndex({
      client: new Client({ node: "http://127.0.0.1:9", Connection: HttpConnection, maxRetries: 0 }),
      alias: ALIAS,
      db: handle.db,
    });
    await expect(nowhere.check()).rejects.toThrow(/cannot be reached/);
  });

  test("reindex builds v1 with the versioned mapping from the articles table, loads it without replicas or refresh, then serves it", async () => {
    const result = await index.reindex();
    expect(result).toEqual({ index: `${ALIAS}-v1`, articles: 3 });
    const created = es.requests.find((r) => r.method === "PUT" && r.path === `/${ALIAS}-v1`)!;
    const { mappings, settings } = created.body as { mappings: any; settings: any };
    expect(mappings._meta).toEqual({ litreview_mapping_version: MAPPING_VERSION });
    expect(mappings.properties.title).toEqual({ type: "text", analyzer: "litreview_english" });
    expect(mappings.properties.mesh_terms).toEqual({
      type: "text",
      analyzer: "litreview_english",
      fields: { keyword: { type: "keyword" } },
    });
    expect(mappings.properties.publication_year).toEqual({ type: "integer" });
    // PostgreSQL's english configuration: its 127 stop words and the Snowball English (porter2) stemmer.
    expect(settings.analysis.filter.litreview_stop.stopwords).toEqual([...POSTGRES_ENGLISH_STOP_WORDS]);
    expect(settings.analysis.filter.litreview_stemmer).toEqual({ type: "stemmer", language: "porter2" });
    // A bulk load: the configured shards, no replica, no refresh; the serving settings come back before the swap.
    expect(settings).toMatchObject({ number_of_shards: 3, number_of_replicas: 0, refresh_interval: "-1" });
    const order = es.requests.map((r) => `${r.method} ${r.path}`);
    const restored = order.indexOf(`PUT /${ALIAS}-v1/_settings`);
    expect(es.requests[restored]!.body).toEqual({ "index.number_of_replicas": 1, "index.refresh_interval": null });
    expect(restored).toBeGreaterThan(order.indexOf("POST /_bulk"));
    expect(restored).toBeLessThan(order.indexOf("POST /_aliases"));
    const bulk = es.requests.find((r) => r.path === "/_bulk")!.body as any[];
    expect(bulk[0]).toEqual({ index: { _index: `${ALIAS}-v1`, _id: "1" } });
    expect(bulk[1]).toMatchObject({
      pmid: 1,
      title: "Title 1 on nasopharyngeal carcinoma",
      mesh_terms: ["Nasopharyngeal Carcinoma", "Humans"],
      keywords: ["NPC"],
      publication_year: 2020,
      publication_date: "2020-05-01",
      journal: "Oral Oncology",
    });
    expect(es.requests.find((r) => r.path === "/_aliases")!.body).toEqual({
      actions: [{ add: { index: `${ALIAS}-v1`, alias: ALIAS, is_write_index: true } }],
    });
    await index.check(); // now it passes
  });

  test("a second reindex fills v2 while v1 serves, swaps the alias in one request, then drops v1", async () => {
    const result = await index.reindex();
    expect(result.index).toBe(`${ALIAS}-v2`);
    const swaps = es.requests.filter((r) => r.path === "/_aliases");
    expect(swaps).toHaveLength(1);
    expect(swaps[0]!.body).toEqual({
      actions: [
        { remove: { index: `${ALIAS}-v1`, alias: ALIAS, must_exist: true } },
        { add: { index: `${ALIAS}-v2`, alias: ALIAS, is_write_index: true } },
      ],
    });
    // The new index was filled before the swap, and the old one deleted after it.
    const order = es.requests.map((r) => `${r.method} ${r.path}`);
    expect(order.indexOf("POST /_bulk")).toBeLessThan(order.indexOf("POST /_aliases"));
    expect(order.indexOf("DELETE /test-articles-v1")).toBeGreaterThan(order.indexOf("POST /_aliases"));
    expect([...es.aliases.get(ALIAS)!]).toEqual([`${ALIAS}-v2`]);
  });

  test("a wrong mapping version is refused at start with what to run", async () => {
    es.indices.get(`${ALIAS}-v2`)!.mappings._meta.litreview_mapping_version = MAPPING_VERSION + 1;
    await expect(index.check()).rejects.toThrow(
      `The Elasticsearch index ${ALIAS}-v2 has mapping version ${MAPPING_VERSION + 1}, this release needs ${MAPPING_VERSION}: run npm run search:reindex.`,
    );
    es.indices.get(`${ALIAS}-v2`)!.mappings._meta.litreview_mapping_version = MAPPING_VERSION;
  });

  test("index() writes through the alias (require_alias), retries a 429, and names the PMIDs Elasticsearch refuses", async () => {
    es.bulkFailures.set("2", [429]);
    await index.index([2, 999]); // 999 is not in the articles table: ignored
    const bulkRequests = es.requests.filter((r) => r.path === "/_bulk");
    const bulks = bulkRequests.map((r) => r.body as any[]);
    expect(bulks).toHaveLength(2); // the first try, then the retry of PMID 2 alone
    expect(bulkRequests.every((r) => r.query.get("require_alias") === "true")).toBe(true);
    expect(bulks[0]![0]).toEqual({ index: { _index: ALIAS, _id: "2" } });
    expect(bulks[0]).toHaveLength(2);
    es.bulkFailures.set("3", [400, 400, 400, 400]);
    await expect(index.index([1, 3])).rejects.toThrow(
      "Elasticsearch did not index 1 articles: PMIDs 3 (400: failed to parse field [publication_date])",
    );
  });

  test("delete() sends delete actions; deleting what is not there is not an error", async () => {
    await index.delete([1, 12345]);
    const bulk = es.requests.find((r) => r.path === "/_bulk")!.body as any[];
    expect(bulk).toEqual([{ delete: { _index: ALIAS, _id: "1" } }, { delete: { _index: ALIAS, _id: "12345" } }]);
  });

  test("search(): BM25F over the fields with the PostgreSQL adapter's weights, phrases boosted, exclusions, years; hits parsed", async () => {
    es.searchResponses.push({
      hits: [
        ["2", 7.5],
        ["1", 3.25],
      ],
      total: 10000,
      relation: "gte",
    });
    const res = await index.search('nasopharyngeal "radiation therapy" -pediatric', {
      fromYear: 2018,
      toYear: 2022,
      skip: 20,
      limit: 10,
    });
    expect(res).toEqual({
      hits: [
        { pmid: 2, score: 7.5 },
        { pmid: 1, score: 3.25 },
      ],
      total: 10000,
      totalIsLowerBound: true,
    });
    const body = es.requests.find((r) => r.path === `/${ALIAS}/_search`)!.body as any;
    const fields = ["title^3", "mesh_terms^1.5", "keywords^1.5", "abstract^1"];
    expect(body.query.bool.should).toEqual([
      { combined_fields: { query: "nasopharyngeal", fields, operator: "or" } },
      { multi_match: { query: "radiation therapy", type: "phrase", fields, boost: 2 } },
    ]);
    expect(body.query.bool.minimum_should_match).toBe(1);
    expect(body.query.bool.must_not).toEqual([
      { multi_match: { query: "pediatric", type: "phrase", fields: ["title", "abstract", "mesh_terms", "keywords"] } },
    ]);
    expect(body.query.bool.filter).toEqual([{ range: { publication_year: { gte: 2018, lte: 2022 } } }]);
    expect(body).toMatchObject({ from: 20, size: 10, _source: false, track_total_hits: 10000 });
    // Nothing searchable: no request at all.
    es.requests.length = 0;
    expect(await index.search('  "" ')).toEqual({ hits: [], total: 0, totalIsLowerBound: false });
    expect(es.requests).toEqual([]);
  });

  test("coverage (requireAll): each concept a filter of match_phrase alternatives; the total is exact", async () => {
    es.searchResponses.push({ hits: [["3", 4]], total: 1 });
    const concepts = readTopic("NPC radiotherapy").concepts;
    const res = await index.search("NPC radiotherapy", { requireAll: concepts });
    expect(res).toEqual({ hits: [{ pmid: 3, score: 4 }], total: 1, totalIsLowerBound: false });
    const body = es.requests.find((r) => r.path === `/${ALIAS}/_search`)!.body as any;
    expect(body.track_total_hits).toBe(true);
    expect(body.query.bool.filter).toHaveLength(concepts.length);
    const first = body.query.bool.filter[0].bool;
    expect(first.minimum_should_match).toBe(1);
    expect(first.should).toContainEqual({ match_phrase: { title: concepts[0]!.alternatives[0] } });
    expect(first.should).toContainEqual({ match_phrase: { mesh_terms: concepts[0]!.alternatives[0] } });
  });

  test("similar(): the profile's distinctive terms (term vectors, tf-idf over every shard) queried with combined_fields and the field weights, excluding PMIDs, within years", async () => {
    es.bulkFailures.clear(); // what the index() test scripted and did not use
    await index.index([1, 2, 3]); // all three again (the delete test removed PMID 1)
    es.requests.length = 0;
    es.searchResponses.push({ hits: [["1", 2]], total: 1 });
    await index.similar("nasopharyngeal carcinoma radiotherapy outcomes of the carcinoma", {
      excludePmids: [2, 3],
      fromYear: 2026,
      limit: 100,
    });
    // One term-vectors request per shard of the index (3), each pinned to its shard, none filtered there.
    const vectors = es.requests.filter((r) => r.path === `/${ALIAS}/_termvectors`);
    expect(vectors.map((r) => r.query.get("preference"))).toEqual([0, 1, 2].map((n) => `_shards:${n}`));
    for (const r of vectors) {
      expect(r.body).toMatchObject({
        doc: { abstract: "nasopharyngeal carcinoma radiotherapy outcomes of the carcinoma" },
        term_statistics: true,
        field_statistics: true,
      });
      expect((r.body as any).filter).toBeUndefined();
    }
    const body = es.requests.find((r) => r.path === `/${ALIAS}/_search`)!.body as any;
    // tf × (1 + ln((3 + 1) / (df + 1))) over the 3 abstracts: carcinoma 2 × 1 (in all 3), nasopharyngeal 1 × 1.69
    // (in 1), outcomes and radiotherapy 1 × 1.29 each (in 2; the tie goes to the first in order). Stop words never
    // reach the query.
    expect(body.query.bool.must[0].combined_fields).toEqual({
      query: "carcinoma nasopharyngeal outcomes radiotherapy",
      fields: ["title^3", "mesh_terms^1.5", "keywords^1.5", "abstract^1"],
      operator: "or",
    });
    expect(body.query.bool.must_not).toEqual([{ ids: { values: ["2", "3"] } }]);
    expect(body.query.bool.filter).toEqual([{ range: { publication_year: { gte: 2026 } } }]);
    expect(body.size).toBe(100);
  });

  test("the server refuses to start when the Elasticsearch index is missing, saying what to run", async () => {
    const proc = Bun.spawn([process.execPath, "src/server.ts"], {
      cwd: join(import.meta.dir, "..", ".."),
      env: {
        ...process.env,
        ELASTICSEARCH_URL: es.url,
        ELASTICSEARCH_INDEX: "not-built-yet",
        DATA_DIR: "memory://",
        SEED_SAMPLE: "false",
        PORT: "0",
        LOG_LEVEL: "warn",
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const stderr = await new Response(proc.stderr).text();
    expect(await proc.exited).toBe(1);
    expect(stderr).toContain(
      'LitReview cannot start: The Elasticsearch index "not-built-yet" does not exist: run npm run search:reindex',
    );
  }, 30_000);
});

// Each of issue 23's findings, against the strict stand-in: what a real cluster refuses, the adapter must not send or
// must survive.
describe("Elasticsearch adapter as a real cluster runs it (strict stand-in)", () => {
  let es: StandIn;
  let handle: DatabaseHandle;
  const ALIAS2 = "strict-articles";
  const open = (extra: Partial<ConstructorParameters<typeof ElasticsearchSearchIndex>[0]> = {}) =>
    new ElasticsearchSearchIndex({
      node: es.url,
      alias: ALIAS2,
      db: handle.db,
      retries: 2,
      retryWaitMs: 1,
      sleep: async () => {},
      ...extra,
    });

  beforeAll(async () => {
    es = startElasticsearchStandIn();
    handle = await createTestDatabase("pglite");
    await handle.db
      .insertInto("articles")
      .values(
        [11, 12, 13, 14].map((pmid) => ({
          pmid,
          title: `Spinal fusion ${pmid}`,
          abstract: "Fusion.",
          abstract_sections: "[]",
          publication_types: [],
          content_hash: `s${pmid}`,
        })) as never,
      )
      .execute();
    await open().reindex();
  });
  afterAll(async () => {
    es.stop();
    await handle.close();
  });
  beforeEach(() => {
    es.requests.length = 0;
  });

  test("a concept of stop words only restricts nothing: its match_phrase, which would match no document, is not sent", async () => {
    es.searchResponses.push({ hits: [["11", 1]], total: 1 });
    const res = await open().search("spinal", { requireAll: [{ label: "the", alternatives: ["the", "of the"] }] });
    expect(res.hits.map((h) => h.pmid)).toEqual([11]);
    const body = es.requests.find((r) => r.path.endsWith("/_search"))!.body as any;
    expect(body.query.bool.filter).toEqual([]);
    // A stop word inside a phrase with a content word stays ("the spine" keeps "spine").
    es.searchResponses.push({ hits: [], total: 0 });
    await open().search("spinal", { requireAll: [{ label: "the spine", alternatives: ["the", "the spine"] }] });
    const second = es.requests.filter((r) => r.path.endsWith("/_search")).at(-1)!.body as any;
    expect(second.query.bool.filter[0].bool.should).toContainEqual({ match_phrase: { title: "the spine" } });
    expect(JSON.stringify(second.query.bool.filter)).not.toContain('"the"}');
  });

  test("the stand-in is strict about it: a stop-word match_phrase matches nothing (zero_terms_query none)", async () => {
    es.searchResponses.push({ hits: [["11", 1]], total: 1 });
    const raw = await open().client.search({
      index: ALIAS2,
      query: {
        bool: { filter: [{ bool: { should: [{ match_phrase: { title: "the" } }], minimum_should_match: 1 } }] },
      },
    });
    expect(raw.hits.hits).toEqual([]);
    es.searchResponses.length = 0;
  });

  test("a whole bulk request refused with 429 (circuit breaker) is sent again with a growing pause, then succeeds", async () => {
    const pauses: number[] = [];
    es.failNext.push({ method: "POST", path: "/_bulk", status: 429, times: 2 });
    await open({ retries: 3, retryWaitMs: 100, sleep: async (ms) => void pauses.push(ms) }).index([11, 12]);
    expect(es.requests.filter((r) => r.path === "/_bulk")).toHaveLength(3);
    expect(pauses).toEqual([100, 200]);
    expect([...es.docs.get(`${ALIAS2}-v1`)!.keys()]).toContain("12");
  });

  test("a 429 that outlasts the retries names every PMID of the batch", async () => {
    es.failNext.push({ method: "POST", path: "/_bulk", status: 429, times: 3 });
    await expect(open({ retries: 2 }).index([11, 12])).rejects.toThrow(
      /did not index 2 articles: PMIDs 11 \(429: the whole request was refused \(429\) after 3 attempts\), 12/,
    );
  });

  test("deletes refused for good are all named (one line per delete action)", async () => {
    for (const id of ["11", "12", "13", "14"]) es.bulkFailures.set(id, [400, 400, 400]);
    await expect(open().delete([11, 12, 13, 14])).rejects.toThrow(
      "Elasticsearch did not delete 4 articles: PMIDs 11 (400: failed to parse field [publication_date]), 12 (400: failed to parse field [publication_date]), 13 (400: failed to parse field [publication_date]), 14 (400: failed to parse field [publication_date])",
    );
    es.bulkFailures.clear();
  });

  test("deleting a missing document succeeds; deleting through a missing alias or index fails", async () => {
    await open().delete([999_999]);
    const gone = new ElasticsearchSearchIndex({
      node: es.url,
      alias: "no-such-alias",
      db: handle.db,
      retries: 0,
      sleep: async () => {},
    });
    await expect(gone.delete([11])).rejects.toThrow(
      /did not delete 1 articles: PMIDs 11 \(404: \[require_alias\] request flag is \[true\] and \[no-such-alias\] is not an alias\)/,
    );
  });

  test("writes through a missing alias fail instead of auto-creating an index of that name", async () => {
    const gone = new ElasticsearchSearchIndex({
      node: es.url,
      alias: "vanished-alias",
      db: handle.db,
      retries: 0,
      sleep: async () => {},
    });
    await expect(gone.index([11])).rejects.toThrow(/is not an alias/);
    expect(es.autoCreated).toEqual([]);
    expect(es.indices.has("vanished-alias")).toBe(false);
  });

  test("the stand-in refuses _aliases as a 9.4 cluster does: a required alias or an index that is missing fails the whole request", async () => {
    const client = open().client;
    await client.indices.create({ index: "other-v9" });
    await expect(
      client.indices.updateAliases({
        actions: [
          { remove: { index: "other-v9", alias: ALIAS2, must_exist: true } },
          { add: { index: `${ALIAS2}-v1`, alias: "x" } },
        ],
      }),
    ).rejects.toThrow(/aliases_not_found_exception/);
    await expect(
      client.indices.updateAliases({ actions: [{ add: { index: "never-was", alias: "x" } }] }),
    ).rejects.toThrow(/index_not_found_exception/);
    expect(es.aliases.get("x")).toBeUndefined();
    // Without must_exist, a removal that removes nothing is reported by action while the others apply.
    const res = await client.indices.updateAliases({
      actions: [{ remove: { index: "other-v9", alias: ALIAS2 } }, { add: { index: "other-v9", alias: "x" } }],
    });
    expect(res).toMatchObject({ acknowledged: true, errors: true });
    expect([...es.aliases.get("x")!]).toEqual(["other-v9"]);
    await client.indices.delete({ index: "other-v9" });
  });

  test("pages past the result window are refused clearly by both adapters (no raw 400 from the cluster)", async () => {
    await expect(open().search("spinal", { skip: 9_995, limit: 10 })).rejects.toThrow(
      "skip + limit must be at most 10000 (the result window), got 10005",
    );
    expect(es.requests.filter((r) => r.path.endsWith("/_search"))).toEqual([]);
    const { PostgresSearchIndex } = await import("../../search/postgres-index.ts");
    await expect(new PostgresSearchIndex(handle.db).search("spinal", { skip: 9_995, limit: 10 })).rejects.toThrow(
      "skip + limit must be at most 10000",
    );
    // The stand-in refuses what the cluster refuses.
    await expect(open().client.search({ index: ALIAS2, from: 9_995, size: 10 })).rejects.toThrow(
      /Result window is too large/,
    );
  });

  test("the client has a request time-out: an unresponsive cluster fails the start-up check instead of hanging it", async () => {
    const silent = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Promise<Response>(() => {}) });
    try {
      const index = new ElasticsearchSearchIndex({
        connection: { node: `http://127.0.0.1:${silent.port}`, requestTimeoutMs: 200, maxRetries: 0 },
        db: handle.db,
      });
      const started = performance.now();
      await expect(index.check()).rejects.toThrow("did not answer in time (ELASTICSEARCH_REQUEST_TIMEOUT_MS)");
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      silent.stop(true);
    }
  });

  test("a 401 is worded as an authentication failure, not as an unreachable cluster", async () => {
    es.failNext.push({ method: "GET", path: "/", status: 401, times: 1 });
    await expect(
      open({ connection: { node: es.url, username: "elastic", password: "wrong", maxRetries: 0 } }).check(),
    ).rejects.toThrow(
      "Elasticsearch refused the credentials (401): check ELASTICSEARCH_USERNAME and ELASTICSEARCH_PASSWORD, or ELASTICSEARCH_API_KEY.",
    );
  });

  test("credentials: separate variables, an API key, or a URL's own user-info read leniently (a password with %zz, / or #)", async () => {
    expect(splitCredentials({ node: "http://es:9200", username: "elastic", password: "p%zz/#@x" })).toEqual({
      node: "http://es:9200",
      auth: { username: "elastic", password: "p%zz/#@x" },
    });
    expect(splitCredentials({ node: "https://es:9200", apiKey: "aWQ6a2V5" })).toEqual({
      node: "https://es:9200",
      auth: { apiKey: "aWQ6a2V5" },
    });
    expect(splitCredentials({ node: "http://elastic:p%zz@es:9200" })).toEqual({
      node: "http://es:9200",
      auth: { username: "elastic", password: "p%zz" },
    });
    expect(splitCredentials({ node: "http://elastic:s%40cret@es:9200/" })).toEqual({
      node: "http://es:9200/",
      auth: { username: "elastic", password: "s@cret" },
    });
    // The request carries the header; the password never appears in the URL the client uses.
    es.requests.length = 0;
    await open({ connection: { node: es.url, username: "elastic", password: "p%zz/#" } }).aliasIndices();
    expect(es.requests.length).toBeGreaterThan(0);
  });

  test("the stand-in refuses a PUT of an existing index and a DELETE of a missing one", async () => {
    const client = open().client;
    await expect(client.indices.create({ index: `${ALIAS2}-v1` })).rejects.toThrow(/resource_already_exists_exception/);
    await expect(client.indices.delete({ index: "never-was" })).rejects.toThrow(/index_not_found_exception/);
  });
});
