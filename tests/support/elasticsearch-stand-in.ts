/**
 * A local HTTP stand-in for an Elasticsearch cluster, for testing the adapter with the real @elastic/elasticsearch
 * client (no Elasticsearch server can run here). It records every request (method, path, JSON or NDJSON body) for the
 * test to check, keeps indices, aliases, settings and documents in memory for the index-management calls, and answers
 * searches with the response the test queues. Response shapes follow Elasticsearch 9.x's REST API reference (the
 * client is 9.x and checks the `X-Elastic-Product` header).
 *
 * Where it cannot be faithful it is strict, refusing what a real cluster refuses (issue 23):
 * - PUT of an existing index: 400 `resource_already_exists_exception`; DELETE of a missing one: 404
 *   `index_not_found_exception`;
 * - bulk with `require_alias=true` whose target is not an alias: each item 404; without it, a missing target is
 *   auto-created as a concrete index with a dynamic mapping (recorded in `autoCreated`), as Elasticsearch does;
 * - `_aliases`: a `remove` with `must_exist` of an alias that is not there fails the whole request (404, nothing
 *   applied); without `must_exist`, or an action the test scripts to fail, the others still apply and the answer says
 *   `errors: true` with `action_results` (Elasticsearch 8.14+);
 * - `from + size` past `index.max_result_window` (10,000): 400;
 * - a coverage filter whose `match_phrase` clauses all analyse to nothing (stop words only, with the index's own stop
 *   list, or Lucene's `_english_` list for the built-in `english` analyzer) matches no document, as
 *   `zero_terms_query: none` does;
 * - whole-request failures (429, 401, 503…) can be scripted for any route (`failNext`).
 */

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Parsed JSON, or for NDJSON (bulk) the array of its lines parsed. */
  body: unknown;
}

/** A scripted whole-request failure: the next `times` requests matching method and path get `status`. */
export interface ScriptedFailure {
  method?: string;
  path: string | RegExp;
  status: number;
  times?: number;
}

export interface StandIn {
  url: string;
  requests: RecordedRequest[];
  /** index name → its settings and mappings as created (settings updated by PUT _settings) */
  indices: Map<string, { mappings: any; settings: any }>;
  /** Concrete indices created implicitly by a write to a name that did not exist. */
  autoCreated: string[];
  /** alias → index names */
  aliases: Map<string, Set<string>>;
  /** index name → _id → document */
  docs: Map<string, Map<string, any>>;
  /** The next search responses (hits as [id, score]); an empty queue answers no hits. */
  searchResponses: { hits: [string, number][]; total: number; relation?: "eq" | "gte" }[];
  /** Bulk items to refuse: _id → statuses to answer, one per attempt (e.g. [429] then success). */
  bulkFailures: Map<string, number[]>;
  /** `_aliases` actions to fail (by index name), reported in action_results while the others apply. */
  aliasActionFailures: Set<string>;
  /** Whole-request failures, consumed in order of match. */
  failNext: ScriptedFailure[];
  stop(): void;
}

const HEADERS = { "content-type": "application/json", "x-elastic-product": "Elasticsearch" };
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: HEADERS });
const error = (status: number, type: string, reason: string) =>
  json({ error: { root_cause: [{ type, reason }], type, reason }, status }, status);
const MAX_RESULT_WINDOW = 10_000;

/** Lucene's English stop set (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET), used by the built-in `english` analyzer. */
const LUCENE_ENGLISH_STOP = new Set(
  "a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with".split(
    " ",
  ),
);

/** Starts the stand-in on a free loopback port. */
export function startElasticsearchStandIn(): StandIn {
  const state: Omit<StandIn, "url" | "stop"> = {
    requests: [],
    indices: new Map(),
    autoCreated: [],
    aliases: new Map(),
    docs: new Map(),
    searchResponses: [],
    bulkFailures: new Map(),
    aliasActionFailures: new Set(),
    failNext: [],
  };
  const resolve = (name: string): string[] => (state.indices.has(name) ? [name] : [...(state.aliases.get(name) ?? [])]);
  const isAlias = (name: string) => (state.aliases.get(name)?.size ?? 0) > 0;

  /** The stop words of the analyzer a field of `index` uses. */
  const stopWordsOf = (index: string, field: string): Set<string> => {
    const def = state.indices.get(index);
    const analyzer = def?.mappings?.properties?.[field]?.analyzer as string | undefined;
    if (!analyzer || analyzer === "english") return LUCENE_ENGLISH_STOP;
    const custom = def?.settings?.analysis?.analyzer?.[analyzer];
    const stopFilter = (custom?.filter as string[] | undefined)
      ?.map((f) => def?.settings?.analysis?.filter?.[f])
      .find((f) => f?.type === "stop");
    return new Set((stopFilter?.stopwords as string[] | undefined) ?? []);
  };
  const analysesToNothing = (index: string, field: string, text: string) => {
    const stop = stopWordsOf(index, field);
    return text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .every((t) => stop.has(t));
  };
  /** Whether a query's filter holds a coverage group whose match_phrase clauses all analyse to nothing. */
  const emptyCoverage = (index: string, query: any): boolean =>
    (query?.bool?.filter ?? []).some((f: any) => {
      const should = f?.bool?.should as any[] | undefined;
      if (!should?.length || !should.every((c) => c.match_phrase)) return false;
      return should.every((c) => {
        const [field, text] = Object.entries(c.match_phrase)[0] as [string, string];
        return analysesToNothing(index, field, text);
      });
    });

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      const text = await req.text();
      let body: unknown = null;
      // A bulk body is NDJSON even when it holds one line (which alone would parse as a JSON object).
      const ndjson = url.pathname.endsWith("/_bulk");
      if (text) {
        try {
          body = ndjson ? null : JSON.parse(text);
        } catch {
          body = null;
        }
        if (body === null)
          body = text
            .split("\n")
            .filter((l) => l.trim())
            .map((l) => JSON.parse(l));
      }
      state.requests.push({ method: req.method, path: url.pathname, query: url.searchParams, body });
      const scripted = state.failNext.findIndex(
        (f) =>
          (!f.method || f.method === req.method) &&
          (typeof f.path === "string" ? f.path === url.pathname : f.path.test(url.pathname)),
      );
      if (scripted >= 0) {
        const f = state.failNext[scripted]!;
        if ((f.times ?? 1) <= 1) state.failNext.splice(scripted, 1);
        else f.times = (f.times ?? 1) - 1;
        const type =
          f.status === 429
            ? "circuit_breaking_exception"
            : f.status === 401
              ? "security_exception"
              : "unavailable_shards_exception";
        const reason =
          f.status === 429
            ? "[parent] Data too large"
            : f.status === 401
              ? "unable to authenticate user [elastic] for REST request [/]"
              : "unavailable";
        return error(f.status, type, reason);
      }
      const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);

      if (req.method === "GET" && parts.length === 0) {
        return json({
          name: "stand-in",
          cluster_name: "test",
          cluster_uuid: "x",
          version: {
            number: "9.4.3",
            build_flavor: "default",
            lucene_version: "10.3.1",
            minimum_wire_compatibility_version: "8.19.0",
            minimum_index_compatibility_version: "8.0.0",
          },
          tagline: "You Know, for Search",
        });
      }
      if (req.method === "GET" && parts[0] === "_alias" && parts[1]) {
        const indices = [...(state.aliases.get(parts[1]) ?? [])];
        if (indices.length === 0) return json({ error: `alias [${parts[1]}] missing`, status: 404 }, 404);
        return json(Object.fromEntries(indices.map((i) => [i, { aliases: { [parts[1]!]: {} } }])));
      }
      if (req.method === "GET" && parts[0] === "_cluster" && parts[1] === "health") {
        return json({ cluster_name: "test", status: "green", timed_out: false, number_of_nodes: 1 });
      }
      if (req.method === "POST" && parts[0] === "_aliases") {
        const actions = (body as { actions: any[] }).actions;
        for (const action of actions) {
          if (action.remove?.must_exist && !state.aliases.get(action.remove.alias)?.has(action.remove.index)) {
            return error(404, "aliases_not_found_exception", `aliases [${action.remove.alias}] missing`);
          }
        }
        const results: { action: object; status: number; error?: object }[] = [];
        for (const action of actions) {
          const [kind, spec] = Object.entries(action)[0] as [string, { index: string; alias: string }];
          if (state.aliasActionFailures.has(spec.index)) {
            results.push({
              action: { type: kind, indices: [spec.index], aliases: [spec.alias] },
              status: 404,
              error: { type: "index_not_found_exception", reason: `no such index [${spec.index}]` },
            });
            continue;
          }
          if (kind === "remove") {
            const existed = state.aliases.get(spec.alias)?.delete(spec.index) ?? false;
            results.push(
              existed
                ? { action: { type: kind, indices: [spec.index], aliases: [spec.alias] }, status: 200 }
                : {
                    action: { type: kind },
                    status: 404,
                    error: { type: "aliases_not_found_exception", reason: `aliases [${spec.alias}] missing` },
                  },
            );
          } else {
            (state.aliases.get(spec.alias) ?? state.aliases.set(spec.alias, new Set()).get(spec.alias)!).add(
              spec.index,
            );
            results.push({ action: { type: kind, indices: [spec.index], aliases: [spec.alias] }, status: 200 });
          }
        }
        const errors = results.some((r) => r.status >= 300);
        return json(
          errors
            ? { acknowledged: true, errors: true, action_results: results }
            : { acknowledged: true, errors: false },
        );
      }
      if (req.method === "POST" && (parts[0] === "_bulk" || parts[1] === "_bulk")) {
        const requireAlias = url.searchParams.get("require_alias") === "true";
        const lines = body as any[];
        const items: any[] = [];
        let errors = false;
        for (let i = 0; i < lines.length; i++) {
          const [op, meta] = Object.entries(lines[i])[0] as [string, { _index: string; _id: string }];
          const doc = op === "delete" ? null : lines[++i];
          if (requireAlias && !isAlias(meta._index)) {
            errors = true;
            items.push({
              [op]: {
                _index: meta._index,
                _id: meta._id,
                status: 404,
                error: {
                  type: "index_not_found_exception",
                  reason: `[require_alias] request flag is [true] and [${meta._index}] is not an alias`,
                },
              },
            });
            continue;
          }
          let index = resolve(meta._index)[0];
          if (index === undefined && op === "delete") {
            errors = true;
            items.push({
              delete: {
                _index: meta._index,
                _id: meta._id,
                status: 404,
                error: { type: "index_not_found_exception", reason: `no such index [${meta._index}]` },
              },
            });
            continue;
          }
          if (index === undefined) {
            // Elasticsearch's automatic index creation, with a dynamic mapping.
            index = meta._index;
            state.indices.set(index, { mappings: { dynamic: true, properties: {} }, settings: {} });
            state.autoCreated.push(index);
          }
          const queued = state.bulkFailures.get(meta._id);
          const status = queued?.length ? queued.shift()! : null;
          if (status) {
            errors = true;
            items.push({
              [op]: {
                _index: index,
                _id: meta._id,
                status,
                error: {
                  type: status === 429 ? "es_rejected_execution_exception" : "document_parsing_exception",
                  reason: status === 429 ? "rejected execution" : "failed to parse field [publication_date]",
                },
              },
            });
            continue;
          }
          const docs = state.docs.get(index) ?? state.docs.set(index, new Map()).get(index)!;
          if (op === "delete") {
            const existed = docs.delete(meta._id);
            items.push({
              delete: {
                _index: index,
                _id: meta._id,
                result: existed ? "deleted" : "not_found",
                status: existed ? 200 : 404,
              },
            });
          } else {
            const existed = docs.has(meta._id);
            docs.set(meta._id, doc);
            items.push({
              index: {
                _index: index,
                _id: meta._id,
                result: existed ? "updated" : "created",
                status: existed ? 200 : 201,
              },
            });
          }
        }
        return json({ took: 1, errors, items });
      }
      if (parts.length === 2 && parts[1] === "_refresh") {
        if (resolve(parts[0]!).length === 0)
          return error(404, "index_not_found_exception", `no such index [${parts[0]}]`);
        return json({ _shards: { total: 1, successful: 1, failed: 0 } });
      }
      if (parts.length === 2 && parts[1] === "_settings" && req.method === "PUT") {
        const def = state.indices.get(parts[0]!);
        if (!def) return error(404, "index_not_found_exception", `no such index [${parts[0]}]`);
        const settings = (body as { settings?: object }).settings ?? body;
        def.settings = { ...def.settings, ...(settings as object) };
        return json({ acknowledged: true });
      }
      if (parts.length === 2 && parts[1] === "_mapping" && req.method === "GET") {
        const indices = resolve(parts[0]!);
        if (indices.length === 0) return error(404, "index_not_found_exception", `no such index [${parts[0]}]`);
        return json(Object.fromEntries(indices.map((i) => [i, { mappings: state.indices.get(i)!.mappings }])));
      }
      if (parts.length === 2 && parts[1] === "_termvectors") {
        const indices = resolve(parts[0]!);
        if (indices.length !== 1) return error(404, "index_not_found_exception", `no such index [${parts[0]}]`);
        const b = body as { doc?: Record<string, string>; filter?: { max_num_terms?: number } };
        const field = Object.keys(b.doc ?? {})[0] ?? "abstract";
        const stop = stopWordsOf(indices[0]!, field);
        const counts = new Map<string, number>();
        for (const t of String(b.doc?.[field] ?? "")
          .toLowerCase()
          .split(/[^\p{L}\p{N}]+/u))
          if (t && !stop.has(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
        // A stand-in for tf-idf: frequency, then length (longer words are rarer), then the word.
        const ranked = [...counts]
          .sort((a, c) => c[1] - a[1] || c[0].length - a[0].length || (a[0] < c[0] ? -1 : 1))
          .slice(0, b.filter?.max_num_terms ?? 25);
        const terms = Object.fromEntries(
          ranked.map(([t, n], i) => [t, { term_freq: n, doc_freq: 1, ttf: n, score: ranked.length - i }]),
        );
        return json({
          _index: indices[0],
          _version: 0,
          found: true,
          took: 1,
          term_vectors: { [field]: { field_statistics: { sum_doc_freq: 1, doc_count: 1, sum_ttf: 1 }, terms } },
        });
      }
      if (parts.length === 2 && parts[1] === "_search") {
        const b = body as { from?: number; size?: number; query?: unknown };
        const window = (b.from ?? 0) + (b.size ?? 10);
        if (window > MAX_RESULT_WINDOW) {
          return error(
            400,
            "search_phase_execution_exception",
            `Result window is too large, from + size must be less than or equal to: [${MAX_RESULT_WINDOW}] but was [${window}].`,
          );
        }
        const index = resolve(parts[0]!)[0] ?? parts[0]!;
        const next = emptyCoverage(index, b.query)
          ? { hits: [], total: 0 }
          : (state.searchResponses.shift() ?? { hits: [], total: 0 });
        return json({
          took: 2,
          timed_out: false,
          _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
          hits: {
            total: { value: next.total, relation: ("relation" in next ? next.relation : undefined) ?? "eq" },
            max_score: next.hits[0]?.[1] ?? null,
            hits: next.hits.map(([id, score]) => ({
              _index: index,
              _id: id,
              _score: score,
              sort: [score, Number(id)],
            })),
          },
        });
      }
      if (parts.length === 1 && req.method === "PUT") {
        if (state.indices.has(parts[0]!) || isAlias(parts[0]!))
          return error(400, "resource_already_exists_exception", `index [${parts[0]}/x] already exists`);
        const b = body as { mappings: unknown; settings: unknown };
        state.indices.set(parts[0]!, { mappings: b.mappings, settings: b.settings });
        return json({ acknowledged: true, shards_acknowledged: true, index: parts[0] });
      }
      if (parts.length === 1 && req.method === "GET") {
        const pattern = new RegExp(`^${parts[0]!.replace(/[.]/g, "\\.").replace(/\*/g, ".*")}$`);
        return json(
          Object.fromEntries(
            [...state.indices.keys()]
              .filter((n) => pattern.test(n))
              .map((n) => [n, { ...state.indices.get(n), aliases: {} }]),
          ),
        );
      }
      if (parts.length === 1 && req.method === "DELETE") {
        if (!state.indices.has(parts[0]!))
          return error(404, "index_not_found_exception", `no such index [${parts[0]}]`);
        state.indices.delete(parts[0]!);
        state.docs.delete(parts[0]!);
        for (const set of state.aliases.values()) set.delete(parts[0]!);
        return json({ acknowledged: true });
      }
      return json({ error: `stand-in: no route for ${req.method} ${url.pathname}`, status: 400 }, 400);
    },
  });
  return { ...state, url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}
