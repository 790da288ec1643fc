import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Client, HttpConnection } from "@elastic/elasticsearch";
import { createTestDatabase } from "../support/database.ts";
import { startElasticsearchStandIn, type StandIn } from "../support/elasticsearch-stand-in.ts";
import { ElasticsearchSearchIndex, ElasticsearchSetupError, MAPPING_VERSION } from "../../search/elasticsearch-index.ts";
import type { DatabaseHandle } from "../../src/db/database.ts";
import { readTopic } from "../../search/concepts.ts";

// The Elasticsearch adapter with the real @elastic/elasticsearch client against a local HTTP stand-in
// (tests/support/elasticsearch-stand-in.ts: Elasticsearch 9.1 response shapes), checking the requests it sends: the
// mapping and its version, bulk bodies read from the articles table, retries on 429, failures named by PMID, the
// atomic alias swap of a reindex, the queries (BM25F field weights, phrases, exclusions, years, coverage, profile),
// and the start-up checks. The ranking itself is checked by the SearchIndex contract suite against a real cluster
// (search/elasticsearch-index.contract.test.ts, when TEST_ELASTICSEARCH_URL is set).

const ALIAS = "test-articles";

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
          abstract: `Abstract ${pmid}.`,
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
    index = new ElasticsearchSearchIndex({ node: es.url, alias: ALIAS, db: handle.db, retryWaitMs: 10 });
  });
  afterAll(async () => {
    es.stop();
    await handle.close();
  });
  beforeEach(() => {
    es.requests.length = 0;
  });

  test("start-up check: a missing index says to run the reindex; an unreachable cluster says so", async () => {
    await expect(index.check()).rejects.toThrow(new ElasticsearchSetupError(`The Elasticsearch index "${ALIAS}" does not exist: run npm run search:reindex to build it from the articles table.`));
    const nowhere = new ElasticsearchSearchIndex({ client: new Client({ node: "http://127.0.0.1:9", Connection: HttpConnection, maxRetries: 0 }), alias: ALIAS, db: handle.db });
    await expect(nowhere.check()).rejects.toThrow(/cannot be reached/);
  });

  test("reindex builds v1 with the versioned English mapping from the articles table, then points the alias at it", async () => {
    const result = await index.reindex();
    expect(result).toEqual({ index: `${ALIAS}-v1`, articles: 3 });
    const created = es.requests.find((r) => r.method === "PUT" && r.path === `/${ALIAS}-v1`)!;
    const mappings = (created.body as { mappings: any }).mappings;
    expect(mappings._meta).toEqual({ litreview_mapping_version: MAPPING_VERSION });
    expect(mappings.properties.title).toEqual({ type: "text", analyzer: "english" });
    expect(mappings.properties.mesh_terms).toEqual({ type: "text", analyzer: "english", fields: { keyword: { type: "keyword" } } });
    expect(mappings.properties.publication_year).toEqual({ type: "integer" });
    const bulk = es.requests.find((r) => r.path === "/_bulk")!.body as any[];
    expect(bulk[0]).toEqual({ index: { _index: `${ALIAS}-v1`, _id: "1" } });
    expect(bulk[1]).toMatchObject({ pmid: 1, title: "Title 1 on nasopharyngeal carcinoma", mesh_terms: ["Nasopharyngeal Carcinoma", "Humans"], keywords: ["NPC"], publication_year: 2020, publication_date: "2020-05-01", journal: "Oral Oncology" });
    expect(es.requests.find((r) => r.path === "/_aliases")!.body).toEqual({ actions: [{ add: { index: `${ALIAS}-v1`, alias: ALIAS, is_write_index: true } }] });
    await index.check(); // now it passes
  });

  test("a second reindex fills v2 while v1 serves, swaps the alias in one request, then drops v1", async () => {
    const result = await index.reindex();
    expect(result.index).toBe(`${ALIAS}-v2`);
    const swaps = es.requests.filter((r) => r.path === "/_aliases");
    expect(swaps).toHaveLength(1);
    expect(swaps[0]!.body).toEqual({ actions: [{ remove: { index: `${ALIAS}-v1`, alias: ALIAS } }, { add: { index: `${ALIAS}-v2`, alias: ALIAS, is_write_index: true } }] });
    // The new index was filled before the swap, and the old one deleted after it.
    const order = es.requests.map((r) => `${r.method} ${r.path}`);
    expect(order.indexOf("POST /_bulk")).toBeLessThan(order.indexOf("POST /_aliases"));
    expect(order.indexOf("DELETE /test-articles-v1")).toBeGreaterThan(order.indexOf("POST /_aliases"));
    expect([...es.aliases.get(ALIAS)!]).toEqual([`${ALIAS}-v2`]);
  });

  test("a wrong mapping version is refused at start with what to run", async () => {
    es.indices.get(`${ALIAS}-v2`)!.mappings._meta.litreview_mapping_version = MAPPING_VERSION + 1;
    await expect(index.check()).rejects.toThrow(`The Elasticsearch index ${ALIAS}-v2 has mapping version ${MAPPING_VERSION + 1}, this release needs ${MAPPING_VERSION}: run npm run search:reindex.`);
    es.indices.get(`${ALIAS}-v2`)!.mappings._meta.litreview_mapping_version = MAPPING_VERSION;
  });

  test("index() writes through the alias, retries a 429, and names the PMIDs Elasticsearch refuses", async () => {
    es.bulkFailures.set("2", [429]);
    await index.index([2, 999]); // 999 is not in the articles table: ignored
    const bulks = es.requests.filter((r) => r.path === "/_bulk").map((r) => r.body as any[]);
    expect(bulks).toHaveLength(2); // the first try, then the retry of PMID 2 alone
    expect(bulks[0]![0]).toEqual({ index: { _index: ALIAS, _id: "2" } });
    expect(bulks[0]).toHaveLength(2);
    es.bulkFailures.set("3", [400, 400, 400, 400]);
    await expect(index.index([1, 3])).rejects.toThrow("Elasticsearch did not index 1 articles: PMIDs 3 (400: failed to parse field [publication_date])");
  });

  test("delete() sends delete actions; deleting what is not there is not an error", async () => {
    await index.delete([1, 12345]);
    const bulk = es.requests.find((r) => r.path === "/_bulk")!.body as any[];
    expect(bulk).toEqual([{ delete: { _index: ALIAS, _id: "1" } }, { delete: { _index: ALIAS, _id: "12345" } }]);
  });

  test("search(): BM25F over the fields with the PostgreSQL adapter's weights, phrases boosted, exclusions, years; hits parsed", async () => {
    es.searchResponses.push({ hits: [["2", 7.5], ["1", 3.25]], total: 10000, relation: "gte" });
    const res = await index.search('nasopharyngeal "radiation therapy" -pediatric', { fromYear: 2018, toYear: 2022, skip: 20, limit: 10 });
    expect(res).toEqual({ hits: [{ pmid: 2, score: 7.5 }, { pmid: 1, score: 3.25 }], total: 10000, totalIsLowerBound: true });
    const body = es.requests.find((r) => r.path === `/${ALIAS}/_search`)!.body as any;
    const fields = ["title^3", "mesh_terms^1.5", "keywords^1.5", "abstract^1"];
    expect(body.query.bool.should).toEqual([
      { combined_fields: { query: "nasopharyngeal", fields, operator: "or" } },
      { multi_match: { query: "radiation therapy", type: "phrase", fields, boost: 2 } },
    ]);
    expect(body.query.bool.minimum_should_match).toBe(1);
    expect(body.query.bool.must_not).toEqual([{ multi_match: { query: "pediatric", type: "phrase", fields: ["title", "abstract", "mesh_terms", "keywords"] } }]);
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

  test("similar(): more_like_this of the profile, excluding PMIDs, within years", async () => {
    es.searchResponses.push({ hits: [["1", 2]], total: 1 });
    await index.similar("nasopharyngeal carcinoma radiotherapy outcomes", { excludePmids: [2, 3], fromYear: 2026, limit: 100 });
    const body = es.requests.find((r) => r.path === `/${ALIAS}/_search`)!.body as any;
    expect(body.query.bool.must[0].more_like_this).toMatchObject({ fields: ["title", "abstract", "mesh_terms", "keywords"], like: "nasopharyngeal carcinoma radiotherapy outcomes", max_query_terms: 25 });
    expect(body.query.bool.must_not).toEqual([{ ids: { values: ["2", "3"] } }]);
    expect(body.query.bool.filter).toEqual([{ range: { publication_year: { gte: 2026 } } }]);
    expect(body.size).toBe(100);
  });

  test("the server refuses to start when the Elasticsearch index is missing, saying what to run", async () => {
    const proc = Bun.spawn([process.execPath, "src/server.ts"], {
      cwd: join(import.meta.dir, "..", ".."),
      env: { ...process.env, ELASTICSEARCH_URL: es.url, ELASTICSEARCH_INDEX: "not-built-yet", DATA_DIR: "memory://", SEED_SAMPLE: "false", PORT: "0", LOG_LEVEL: "warn" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const stderr = await new Response(proc.stderr).text();
    expect(await proc.exited).toBe(1);
    expect(stderr).toContain('LitReview cannot start: The Elasticsearch index "not-built-yet" does not exist: run npm run search:reindex');
  }, 30_000);
});
