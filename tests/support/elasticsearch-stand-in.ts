/**
 * A local HTTP stand-in for an Elasticsearch cluster, for testing the adapter with the real @elastic/elasticsearch
 * client (no Elasticsearch server can run here). It records every request (method, path, JSON or NDJSON body) for the
 * test to check, keeps indices, aliases and documents in memory for the index-management calls, and answers searches
 * with the response the test queues. Response shapes follow Elasticsearch 9.1 (the REST API as documented for 8.x and
 * 9.x; the client is 9.x and checks the `X-Elastic-Product` header).
 */

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Parsed JSON, or for NDJSON (bulk) the array of its lines parsed. */
  body: unknown;
}

export interface StandIn {
  url: string;
  requests: RecordedRequest[];
  /** index name → its settings and mappings as created */
  indices: Map<string, { mappings: any; settings: any }>;
  /** alias → index names */
  aliases: Map<string, Set<string>>;
  /** index name → _id → document */
  docs: Map<string, Map<string, any>>;
  /** The next search responses (hits as [id, score]); an empty queue answers no hits. */
  searchResponses: { hits: [string, number][]; total: number; relation?: "eq" | "gte" }[];
  /** Bulk items to refuse: _id → statuses to answer, one per attempt (e.g. [429] then success). */
  bulkFailures: Map<string, number[]>;
  stop(): void;
}

const HEADERS = { "content-type": "application/json", "x-elastic-product": "Elasticsearch" };
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: HEADERS });
const notFound = (type: string, reason: string) => json({ error: { root_cause: [{ type, reason }], type, reason }, status: 404 }, 404);

/** Starts the stand-in on a free loopback port. */
export function startElasticsearchStandIn(): StandIn {
  const state: Omit<StandIn, "url" | "stop"> = { requests: [], indices: new Map(), aliases: new Map(), docs: new Map(), searchResponses: [], bulkFailures: new Map() };
  const resolve = (name: string): string[] => (state.indices.has(name) ? [name] : [...(state.aliases.get(name) ?? [])]);
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      const text = await req.text();
      let body: unknown = null;
      if (text) {
        try {
          body = JSON.parse(text);
        } catch {
          body = text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
        }
      }
      state.requests.push({ method: req.method, path: url.pathname, query: url.searchParams, body });
      const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);

      if (req.method === "GET" && parts.length === 0) {
        return json({ name: "stand-in", cluster_name: "test", cluster_uuid: "x", version: { number: "9.1.0", build_flavor: "default", lucene_version: "10.2.2", minimum_wire_compatibility_version: "8.19.0", minimum_index_compatibility_version: "8.0.0" }, tagline: "You Know, for Search" });
      }
      if (req.method === "GET" && parts[0] === "_alias" && parts[1]) {
        const indices = [...(state.aliases.get(parts[1]) ?? [])];
        if (indices.length === 0) return json({ error: `alias [${parts[1]}] missing`, status: 404 }, 404);
        return json(Object.fromEntries(indices.map((i) => [i, { aliases: { [parts[1]!]: {} } }])));
      }
      if (req.method === "POST" && parts[0] === "_aliases") {
        for (const action of (body as { actions: any[] }).actions) {
          if (action.remove) state.aliases.get(action.remove.alias)?.delete(action.remove.index);
          if (action.add) (state.aliases.get(action.add.alias) ?? state.aliases.set(action.add.alias, new Set()).get(action.add.alias)!).add(action.add.index);
        }
        return json({ acknowledged: true });
      }
      if (req.method === "POST" && (parts[0] === "_bulk" || parts[1] === "_bulk")) {
        const lines = body as any[];
        const items: any[] = [];
        let errors = false;
        for (let i = 0; i < lines.length; i++) {
          const [op, meta] = Object.entries(lines[i])[0] as [string, { _index: string; _id: string }];
          const doc = op === "delete" ? null : lines[++i];
          const index = resolve(meta._index)[0] ?? meta._index;
          const queued = state.bulkFailures.get(meta._id);
          const status = queued?.length ? queued.shift()! : null;
          if (status) {
            errors = true;
            items.push({ [op]: { _index: index, _id: meta._id, status, error: { type: status === 429 ? "es_rejected_execution_exception" : "document_parsing_exception", reason: status === 429 ? "rejected execution" : "failed to parse field [publication_date]" } } });
            continue;
          }
          const docs = state.docs.get(index) ?? state.docs.set(index, new Map()).get(index)!;
          if (op === "delete") {
            const existed = docs.delete(meta._id);
            items.push({ delete: { _index: index, _id: meta._id, result: existed ? "deleted" : "not_found", status: existed ? 200 : 404 } });
          } else {
            const existed = docs.has(meta._id);
            docs.set(meta._id, doc);
            items.push({ index: { _index: index, _id: meta._id, result: existed ? "updated" : "created", status: existed ? 200 : 201 } });
          }
        }
        return json({ took: 1, errors, items });
      }
      if (parts.length === 2 && parts[1] === "_refresh") return json({ _shards: { total: 1, successful: 1, failed: 0 } });
      if (parts.length === 2 && parts[1] === "_mapping" && req.method === "GET") {
        const indices = resolve(parts[0]!);
        if (indices.length === 0) return notFound("index_not_found_exception", `no such index [${parts[0]}]`);
        return json(Object.fromEntries(indices.map((i) => [i, { mappings: state.indices.get(i)!.mappings }])));
      }
      if (parts.length === 2 && parts[1] === "_search") {
        const next = state.searchResponses.shift() ?? { hits: [], total: 0 };
        const index = resolve(parts[0]!)[0] ?? parts[0];
        return json({
          took: 2,
          timed_out: false,
          _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
          hits: { total: { value: next.total, relation: next.relation ?? "eq" }, max_score: next.hits[0]?.[1] ?? null, hits: next.hits.map(([id, score]) => ({ _index: index, _id: id, _score: score, sort: [score, Number(id)] })) },
        });
      }
      if (parts.length === 1 && req.method === "PUT") {
        const b = body as { mappings: unknown; settings: unknown };
        state.indices.set(parts[0]!, { mappings: b.mappings, settings: b.settings });
        return json({ acknowledged: true, shards_acknowledged: true, index: parts[0] });
      }
      if (parts.length === 1 && req.method === "GET") {
        const pattern = new RegExp(`^${parts[0]!.replace(/[.]/g, "\\.").replace(/\*/g, ".*")}$`);
        return json(Object.fromEntries([...state.indices.keys()].filter((n) => pattern.test(n)).map((n) => [n, { ...state.indices.get(n), aliases: {} }])));
      }
      if (parts.length === 1 && req.method === "DELETE") {
        state.indices.delete(parts[0]!);
        state.docs.delete(parts[0]!);
        return json({ acknowledged: true });
      }
      return json({ error: `stand-in: no route for ${req.method} ${url.pathname}`, status: 400 }, 400);
    },
  });
  return { ...state, url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}
