import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { errors as esErrors } from "@elastic/elasticsearch";
import { createTestDatabase } from "../support/database.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { startElasticsearchStandIn, type StandIn } from "../support/elasticsearch-stand-in.ts";
import { ElasticsearchSearchIndex } from "../../search/elasticsearch-index.ts";
import { AliasSwapError, VersionNotReadyError } from "../../search/elasticsearch/versions.ts";
import { PostgresSearchIndex } from "../../search/postgres-index.ts";
import type { DatabaseHandle } from "../../src/db/database.ts";

// Issue 36: where an Elasticsearch 9.4 cluster behaves otherwise than the adapter assumed, each case against the
// stand-in answering as such a cluster does (tests/support/elasticsearch-stand-in.ts): server-side waits longer than
// the client's time-out, the serving refresh interval, the alias swap's refusals, term statistics per shard, the
// retries of a bulk, and the health check. Each test starts from a fresh stand-in serving version 1 of the index
// (9 articles over 3 shards).

const ALIAS = "cluster-articles";
const ROOT = join(import.meta.dir, "..", "..");

/** With 3 shards, PMIDs 3, 6, 9 are on shard 0, PMIDs 1, 4, 7 on shard 1, PMIDs 2, 5, 8 on shard 2. */
const ABSTRACTS: Record<number, string> = {
  1: "Radiotherapy fractionation.",
  2: "Nasopharyngeal biopsy.",
  3: "Carcinoma staging.",
  4: "Radiotherapy toxicity.",
  5: "Nasopharyngeal carcinoma incidence.",
  6: "Carcinoma survival.",
  7: "Radiotherapy and carcinoma.",
  8: "Endoscopy findings.",
  9: "Carcinoma screening.",
};

describe("Elasticsearch 9.4 as the adapter meets it (stand-in)", () => {
  let es: StandIn;
  let handle: DatabaseHandle;
  const open = (extra: Partial<ConstructorParameters<typeof ElasticsearchSearchIndex>[0]> = {}) =>
    new ElasticsearchSearchIndex({
      node: es.url,
      alias: ALIAS,
      db: handle.db,
      layout: { shards: 3, replicas: 1 },
      retries: 3,
      retryWaitMs: 1,
      sleep: async () => {},
      ...extra,
    });

  beforeAll(async () => {
    handle = await createTestDatabase("pglite");
    await handle.db
      .insertInto("articles")
      .values(
        Object.entries(ABSTRACTS).map(([pmid, abstract]) => ({
          pmid: Number(pmid),
          title: `Article ${pmid}`,
          abstract,
          abstract_sections: "[]",
          publication_types: [],
          content_hash: `c${pmid}`,
        })) as never,
      )
      .execute();
  });
  afterAll(async () => {
    await handle.close();
  });
  beforeEach(async () => {
    es = startElasticsearchStandIn();
    await open().reindex();
    es.requests.length = 0;
  });
  afterEach(() => {
    es.stop();
  });

  describe("item 1: the waits the cluster does server-side", () => {
    test("index creation, the refresh after the load and the health wait outlast the client's time-out and still succeed", async () => {
      // A client that gives up after 300 ms; the cluster takes 600 ms over each of the three (starting the primaries,
      // writing the segments, allocating the shards).
      const index = open({ connection: { node: es.url, requestTimeoutMs: 300, maxRetries: 0 } });
      es.delayNext.push(
        { method: "PUT", path: `/${ALIAS}-v2`, ms: 600 },
        { path: `/${ALIAS}-v2/_refresh`, ms: 600 },
        { method: "GET", path: `/_cluster/health/${ALIAS}-v2`, ms: 600 },
      );
      expect(await index.reindex()).toEqual({ index: `${ALIAS}-v2`, articles: 9 });
      expect(es.delayNext).toEqual([]); // all three were delayed
      expect([...es.aliases.get(ALIAS)!]).toEqual([`${ALIAS}-v2`]);
      // The limits are sent, so that the request time-out covers them.
      const query = (method: string, path: string) =>
        Object.fromEntries(es.requests.find((r) => r.method === method && r.path === path)!.query);
      expect(query("PUT", `/${ALIAS}-v2`)).toEqual({ master_timeout: "30s", timeout: "30s" });
      expect(query("GET", `/_cluster/health/${ALIAS}-v2`)).toEqual({
        wait_for_status: "yellow",
        timeout: "60s",
        master_timeout: "30s",
      });
      // A call that waits for nothing keeps the client's own time-out.
      es.delayNext.push({ method: "POST", path: `/${ALIAS}/_search`, ms: 600 });
      await expect(index.search("carcinoma")).rejects.toBeInstanceOf(esErrors.TimeoutError);
    });

    test("the baseline load's final refresh also outlasts the client's time-out", async () => {
      const index = open({ connection: { node: es.url, requestTimeoutMs: 300, maxRetries: 0 } });
      es.delayNext.push({ path: `/${ALIAS}/_refresh`, ms: 600 });
      const started = performance.now();
      await index.refresh();
      expect(performance.now() - started).toBeGreaterThan(500);
      expect(es.requests.filter((r) => r.path === `/${ALIAS}/_refresh`)).toHaveLength(1);
    });

    test("primaries not allocated within the wait: the cluster's 408 is read, the alias stays on the served version", async () => {
      es.indexHealth.set(`${ALIAS}-v2`, "red");
      await expect(open().reindex()).rejects.toThrow(
        new VersionNotReadyError(
          `The new index ${ALIAS}-v2 was not ready to serve within 60 s (status red, 3 primary shards unassigned), so the alias was not moved. GET _cluster/allocation/explain says why; delete ${ALIAS}-v2, then run npm run search:reindex again.`,
        ),
      );
      expect(es.requests.filter((r) => r.path === "/_aliases")).toEqual([]);
      expect([...es.aliases.get(ALIAS)!]).toEqual([`${ALIAS}-v1`]);
    });
  });

  test("item 2: the served version keeps no explicit refresh interval, so its idle shards skip refreshes", async () => {
    const settings = await open().client.indices.getSettings({ index: ALIAS });
    const served = settings[`${ALIAS}-v1`]!.settings!.index!;
    // Reset to the default with null: an explicit "1s" would opt out of search-idle shards.
    expect(served.refresh_interval).toBeUndefined();
    expect(served.number_of_replicas).toBe("1");
    expect(served.number_of_shards).toBe("3");
  });

  describe("item 3: the alias swap as the cluster refuses it", () => {
    test("another reindex moved the alias meanwhile: the whole swap is refused (404), AliasSwapError, nothing deleted", async () => {
      // Just before this swap, another process points the alias at a version of its own.
      es.beforeHandle = (r) => {
        if (r.path !== "/_aliases") return;
        es.indices.set(`${ALIAS}-v9`, { mappings: {}, settings: {} });
        es.aliases.set(ALIAS, new Set([`${ALIAS}-v9`]));
        es.beforeHandle = null;
      };
      const error = await open()
        .reindex()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AliasSwapError);
      expect((error as Error).message).toBe(
        `The alias ${ALIAS} was not moved to ${ALIAS}-v2 (aliases_not_found_exception: aliases [${ALIAS}] missing): nothing was changed and the old versions are kept. Another reindex may have moved the alias or deleted a version meanwhile: check GET _alias/${ALIAS}, delete ${ALIAS}-v2 if nothing points at it, and run npm run search:reindex again.`,
      );
      // The alias as the other process left it; the version this reindex replaced is still there.
      expect([...es.aliases.get(ALIAS)!]).toEqual([`${ALIAS}-v9`]);
      expect(es.indices.has(`${ALIAS}-v1`)).toBe(true);
      expect(es.requests.filter((r) => r.method === "DELETE")).toEqual([]);
    });

    test("the served version was deleted meanwhile: 404 index_not_found_exception, AliasSwapError", async () => {
      es.beforeHandle = (r) => {
        if (r.path !== "/_aliases") return;
        es.indices.delete(`${ALIAS}-v1`);
        es.aliases.get(ALIAS)!.delete(`${ALIAS}-v1`);
        es.beforeHandle = null;
      };
      await expect(open().reindex()).rejects.toThrow(
        new AliasSwapError(
          `The alias ${ALIAS} was not moved to ${ALIAS}-v2 (index_not_found_exception: no such index [${ALIAS}-v1]): nothing was changed and the old versions are kept. Another reindex may have moved the alias or deleted a version meanwhile: check GET _alias/${ALIAS}, delete ${ALIAS}-v2 if nothing points at it, and run npm run search:reindex again.`,
        ),
      );
    });

    test("the nodes did not acknowledge the swap in time: AliasSwapError, the old version kept", async () => {
      es.aliasesAcknowledged = false;
      await expect(open().reindex()).rejects.toThrow(
        `The move of the alias ${ALIAS} to ${ALIAS}-v2 was not acknowledged by every node within 30s: it applies late, so the old versions are kept.`,
      );
      expect(es.indices.has(`${ALIAS}-v1`)).toBe(true);
    });
  });

  test("item 4: similar() chooses its terms with the whole index's statistics, the same on every call", async () => {
    const index = open();
    const profile = "Radiotherapy for nasopharyngeal carcinoma";
    const queries: string[] = [];
    for (let call = 0; call < 3; call++) {
      es.requests.length = 0;
      await index.similar(profile);
      const search = es.requests.find((r) => r.path === `/${ALIAS}/_search`)!.body as any;
      queries.push(search.query.bool.must[0].combined_fields.query);
      // Every shard asked, each named by `_shards:N`.
      expect(
        es.requests.filter((r) => r.path === `/${ALIAS}/_termvectors`).map((r) => r.query.get("preference")),
      ).toEqual(["_shards:0", "_shards:1", "_shards:2"]);
    }
    // Over the 9 abstracts: nasopharyngeal in 2, radiotherapy in 3, carcinoma in 5, so by idf 1 + ln(10 / (df + 1))
    // in that order. The first shard alone (PMIDs 3, 6, 9) holds only "carcinoma": its statistics dropped the others.
    expect(queries).toEqual(Array(3).fill("nasopharyngeal radiotherapy carcinoma"));
  });

  describe("item 5: one backoff policy for bulk writes", () => {
    test("a bulk refused with 503 is sent at most retries + 1 times, after growing pauses", async () => {
      const pauses: number[] = [];
      es.failNext.push({ method: "POST", path: "/_bulk", status: 503, times: 100 });
      await expect(
        open({ retries: 3, retryWaitMs: 100, sleep: async (ms) => void pauses.push(ms) }).index([1, 2]),
      ).rejects.toThrow(
        "Elasticsearch did not index 2 articles: PMIDs 1 (503: the whole request was refused (503) after 4 attempts), 2 (503: the whole request was refused (503) after 4 attempts)",
      );
      // The client's own retries (3 more at once, per round) would have made it 16.
      expect(es.requests.filter((r) => r.path === "/_bulk")).toHaveLength(4);
      expect(pauses).toEqual([100, 200, 400]);
    });

    test("a cluster that cannot be reached: one attempt per round, then the PMIDs are named", async () => {
      const closed = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
      const node = `http://127.0.0.1:${closed.port}`;
      closed.stop(true);
      const pauses: number[] = [];
      await expect(
        open({ node, retries: 2, retryWaitMs: 50, sleep: async (ms) => void pauses.push(ms) }).index([3]),
      ).rejects.toThrow(
        "Elasticsearch did not index 1 articles: PMIDs 3 (0: the cluster could not be reached after 3 attempts)",
      );
      expect(pauses).toEqual([50, 100]);
    });
  });

  describe("item 6: /api/v1/health reports the search index", () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp("pglite");
    });
    afterAll(async () => {
      await t.close();
    });
    const health = async () => {
      const started = performance.now();
      const res = await t.app.request("/api/v1/health");
      return { status: res.status, body: await res.json(), ms: performance.now() - started };
    };

    test("ok while the cluster answers and the index is allocated; PostgreSQL full-text search is the database", async () => {
      t.deps.search = open();
      expect(await health()).toMatchObject({ status: 200, body: { status: "ok", search: "ok" } });
      expect(Object.fromEntries(es.requests.find((r) => r.path === `/_cluster/health/${ALIAS}`)!.query)).toEqual({
        timeout: "0s",
        master_timeout: "1s",
      });
      t.deps.search = new PostgresSearchIndex(t.db);
      expect(await health()).toMatchObject({ status: 200, body: { status: "ok", search: "ok" } });
    });

    test("degraded, still 200, while the index is red or missing", async () => {
      t.deps.search = open();
      es.indexHealth.set(`${ALIAS}-v1`, "red");
      expect(await health()).toMatchObject({ status: 200, body: { status: "degraded", search: "unavailable" } });
      t.deps.search = open({ alias: "never-built" });
      expect(await health()).toMatchObject({ status: 200, body: { status: "degraded", search: "unavailable" } });
    });

    test("degraded, answered within the probe's 2 s, while the cluster is down or does not answer", async () => {
      t.deps.search = open();
      es.stop();
      const down = await health();
      expect(down).toMatchObject({ status: 200, body: { status: "degraded", search: "unavailable" } });
      const silent = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Promise<Response>(() => {}) });
      try {
        t.deps.search = open({ node: `http://127.0.0.1:${silent.port}` });
        const stuck = await health();
        expect(stuck).toMatchObject({ status: 200, body: { status: "degraded", search: "unavailable" } });
        expect(stuck.ms).toBeLessThan(4_000);
      } finally {
        silent.stop(true);
      }
    });
  });

  test("item 7: the stand-in answers as the Elasticsearch compose runs, and the client is of that minor version", async () => {
    const compose = readFileSync(join(ROOT, "compose.yaml"), "utf8");
    const image = /docker\.elastic\.co\/elasticsearch\/elasticsearch:(\d+\.\d+\.\d+)/.exec(compose)![1]!;
    const info = await open().client.info();
    expect(info.version.number).toBe(image);
    const client = (
      JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> }
    ).dependencies["@elastic/elasticsearch"]!;
    expect(client.replace(/^\^/, "").split(".").slice(0, 2)).toEqual(image.split(".").slice(0, 2));
  });
});
