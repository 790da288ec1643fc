// The Elasticsearch adapter's requests under failure, and what its profile terms and health check cost (issue 36,
// items 4–6), with the real client against the HTTP stand-in of the tests (tests/support/elasticsearch-stand-in.ts).
// What it measures is the client side: how many requests a bulk sends under a sustained 503 or with connections
// dropped, and how long it takes to give up; how many requests and how much time `similar()` takes; how fast the health
// check answers with the cluster up, refusing connections, or silent. A real cluster's own latency is not in these.
//
// Usage: bun scripts/bench/bench-elasticsearch.ts [--root DIR] [--articles 1000] [--calls 20]
// --root: the tree whose search/elasticsearch-index.ts is measured (default this one; a scratch copy of an older
// commit gives the "before" numbers with the same stand-in and the same script).
import { createServer, type Socket } from "node:net";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrator.ts";
import { selectProfileTerms } from "../../search/elasticsearch/profile-terms.ts";
import { startElasticsearchStandIn } from "../../tests/support/elasticsearch-stand-in.ts";

const { values } = parseArgs({
  options: {
    root: { type: "string" },
    articles: { type: "string", default: "1000" },
    calls: { type: "string", default: "20" },
  },
});
const ROOT = values.root ?? join(import.meta.dir, "..", "..");
const ARTICLES = Number(values.articles);
const CALLS = Number(values.calls);
const { ElasticsearchSearchIndex } = (await import(
  join(ROOT, "search", "elasticsearch-index.ts")
)) as typeof import("../../search/elasticsearch-index.ts");

/** A deterministic word stream: 3,000 made-up terms, Zipf-like (term i drawn with weight 1/(i+1)). */
function words(seed: number, count: number): string[] {
  const vocabulary = Array.from({ length: 3000 }, (_, i) => `term${i.toString(36)}x`);
  const weights = vocabulary.map((_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
  return Array.from({ length: count }, () => {
    let r = next() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i]!;
      if (r <= 0) return vocabulary[i]!;
    }
    return vocabulary.at(-1)!;
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const handle = openDatabase({ dataDir: "memory://" });
await migrateToLatest(handle.db);
const pmids = Array.from({ length: ARTICLES }, (_, i) => i + 1);
for (let i = 0; i < pmids.length; i += 500) {
  await handle.db
    .insertInto("articles")
    .values(
      pmids.slice(i, i + 500).map((pmid) => ({
        pmid,
        title: `Article ${pmid}`,
        abstract: words(pmid, 150).join(" "),
        abstract_sections: "[]",
        publication_types: [],
        content_hash: `b${pmid}`,
      })),
    )
    .execute();
}

const es = startElasticsearchStandIn();
const open = (node: string, extra: Record<string, unknown> = {}) =>
  new ElasticsearchSearchIndex({
    node,
    alias: "bench-articles",
    db: handle.db,
    layout: { shards: 3, replicas: 0 },
    retries: 3,
    retryWaitMs: 100,
    ...extra,
  });
const results: Record<string, unknown> = {};

// 1. A bulk of all the articles while the cluster answers every bulk with 503 (no master).
await open(es.url).reindex();
es.requests.length = 0;
es.failNext.push({ method: "POST", path: "/_bulk", status: 503, times: 1_000_000 });
let started = performance.now();
const refused = await open(es.url)
  .index(pmids)
  .then(
    () => "written",
    (e: Error) => e.message.slice(0, 90),
  );
results.bulk503 = {
  requests: es.requests.filter((r) => r.path === "/_bulk").length,
  ms: Math.round(performance.now() - started),
  outcome: refused,
};
es.failNext.length = 0;

// 2. The same with every connection dropped as soon as it opens (a node restarting).
let connections = 0;
const sockets = new Set<Socket>();
const dropper = createServer((socket) => {
  connections++;
  sockets.add(socket);
  socket.destroy();
});
await new Promise<void>((resolve) => dropper.listen(0, "127.0.0.1", resolve));
const dropperPort = (dropper.address() as { port: number }).port;
started = performance.now();
const dropped = await open(`http://127.0.0.1:${dropperPort}`)
  .index(pmids.slice(0, 1000))
  .then(
    () => "written",
    (e: Error) => e.message.slice(0, 90),
  );
results.bulkDropped = { connections, ms: Math.round(performance.now() - started), outcome: dropped };
dropper.close();

// 3. similar() on a 20,000-character profile over the 3-shard index.
const profile = words(999_999, 4000).join(" ").slice(0, 20_000);
const index = open(es.url);
const times: number[] = [];
const queries = new Set<string>();
es.requests.length = 0;
for (let call = 0; call < CALLS; call++) {
  const t = performance.now();
  await index.similar(profile);
  times.push(performance.now() - t);
  const search = es.requests.filter((r) => r.path.endsWith("/_search")).at(-1)!.body as any;
  queries.add(search.query.bool.must[0].combined_fields.query);
}
const perCall = es.requests.length / CALLS;
results.similar = {
  requestsPerCall: perCall,
  medianMs: Number(median(times).toFixed(1)),
  distinctQueries: queries.size,
};

// The merge of the shards' statistics alone (this tree's code), on the stand-in's answers for that profile.
const vectors = await Promise.all(
  [0, 1, 2].map(async (shard) => {
    const res = await index.client.termvectors({
      index: "bench-articles",
      doc: { abstract: profile },
      fields: ["abstract"],
      term_statistics: true,
      positions: false,
      offsets: false,
      preference: `_shards:${shard}`,
    });
    return res.term_vectors?.abstract;
  }),
);
const mergeTimes: number[] = [];
for (let i = 0; i < 200; i++) {
  const t = performance.now();
  selectProfileTerms(vectors, { maxTerms: 20, minTermFreq: 1, minDocFreq: 1 });
  mergeTimes.push(performance.now() - t);
}
results.profileMerge = {
  termsPerShard: Object.keys(vectors[0]?.terms ?? {}).length,
  medianMs: Number(median(mergeTimes).toFixed(3)),
};

// 4. The health check (this tree's adapter only, if it has one).
const probe = async (node: string) => {
  const adapter = open(node) as { health?: () => Promise<{ available: boolean }> };
  if (!adapter.health) return "no health()";
  const t = performance.now();
  const h = await adapter.health();
  return { available: h.available, ms: Math.round(performance.now() - t) };
};
const silent = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Promise<Response>(() => {}) });
const closed = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
const closedUrl = `http://127.0.0.1:${closed.port}`;
closed.stop(true);
results.health = {
  up: await probe(es.url),
  refused: await probe(closedUrl),
  silent: await probe(`http://127.0.0.1:${silent.port}`),
};
silent.stop(true);
es.stop();
await handle.close();

console.log(
  JSON.stringify(
    {
      root: ROOT,
      machine: `${cpus().length} vCPU ${cpus()[0]?.model ?? ""}, ${Math.round(totalmem() / 2 ** 30)} GiB`,
      articles: ARTICLES,
      ...results,
    },
    null,
    2,
  ),
);
process.exit(0);
