/**
 * A local HTTP stand-in for an Elasticsearch cluster, for testing the adapter with the real @elastic/elasticsearch
 * client (no Elasticsearch server can run here). It records every request (method, path, JSON or NDJSON body) for the
 * test to check, keeps indices, aliases, settings and documents in memory for the index-management calls, and answers
 * searches with the response the test queues. Answers follow Elasticsearch 9.4, the version compose.yaml runs (the
 * root answer says 9.4.3 on Lucene 10.4.0; error bodies carry the `resource.type`/`resource.id` fields 9.x adds); the
 * client checks the `X-Elastic-Product` header.
 *
 * Where it cannot be faithful it is strict, refusing what a real cluster refuses (issues 23 and 36):
 * - PUT of an existing index: 400 `resource_already_exists_exception`; DELETE of a missing one: 404
 *   `index_not_found_exception`;
 * - PUT `_settings`: a setting given as `null` is reset to its default (removed from the index's explicit settings),
 *   as the update-settings API documents; `GET _settings` answers the explicit settings in the nested, stringified
 *   form;
 * - bulk with `require_alias=true` whose target is not an alias: each item 404; without it, a missing target is
 *   auto-created as a concrete index with a dynamic mapping (recorded in `autoCreated`), as Elasticsearch does;
 * - `_aliases` (as Elasticsearch 8.14+ answers it, TransportIndicesAliasesAction): an action naming a missing index
 *   fails the whole request (404 `index_not_found_exception`); a `remove` with `must_exist` of an alias that is not
 *   there fails the whole request (404 `aliases_not_found_exception`), nothing applied; only a `remove` without
 *   `must_exist` that removes nothing is reported in `action_results` (`errors: true`) while the others apply; an
 *   acknowledgement that timed out answers `acknowledged: false` (`aliasesAcknowledged`);
 * - `_cluster/health`: `wait_for_status` and the indices named are checked against the scripted `indexHealth`
 *   (default green); a request whose conditions are not met is answered 408 with `timed_out: true` at once (the
 *   cluster would answer so after `timeout`), a missing index is red;
 * - `_termvectors` of an artificial document: the index's documents are spread over its `number_of_shards` shards by
 *   `_id` modulo the shard count (Elasticsearch routes by a murmur3 hash of `_id`; only the spread matters here), and
 *   the term and field statistics are those of ONE shard: the one `preference=_shards:N` names, else the first (the
 *   lowest-numbered shard: TransportTermVectorsAction takes the first of OperationRouting.searchShards' sorted
 *   list). The `filter` is TermVectorsFilter's tf-idf (ClassicSimilarity idf) on that shard's statistics. Analysis:
 *   lower-cased letters and digits, the field analyzer's stop words, no stemming;
 * - `from + size` past `index.max_result_window` (10,000): 400;
 * - a coverage filter whose `match_phrase` clauses all analyse to nothing (stop words only, with the index's own stop
 *   list, or Lucene's `_english_` list for the built-in `english` analyzer) matches no document, as
 *   `zero_terms_query: none` does;
 * - whole-request failures (429, 401, 503…) can be scripted for any route (`failNext`), answers delayed
 *   (`delayNext`: a wait the cluster does server-side, such as a health wait), and state changed just before a request
 *   is handled (`beforeHandle`: another process acting on the cluster meanwhile).
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
  /** The error's `type` and `reason` (by default the usual ones for the status). */
  type?: string;
  reason?: string;
}

/** A scripted delay: the next `times` requests matching method and path are answered after `ms`. */
export interface ScriptedDelay {
  method?: string;
  path: string | RegExp;
  ms: number;
  times?: number;
}

type HealthStatus = "green" | "yellow" | "red";

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
  /**
   * Whether `_aliases` answers `acknowledged: true` (false: the nodes' acknowledgement timed out, the change applied).
   */
  aliasesAcknowledged: boolean;
  /** index name → its health (default green). */
  indexHealth: Map<string, HealthStatus>;
  /** Whole-request failures, consumed in order of match. */
  failNext: ScriptedFailure[];
  /** Delayed answers, consumed in order of match. */
  delayNext: ScriptedDelay[];
  /** Called with each request before it is handled (after it is recorded). */
  beforeHandle: ((req: RecordedRequest) => void) | null;
  /** The shard of an index holding document `id`. */
  shardOf(index: string, id: string): number;
  stop(): void;
}

const HEADERS = { "content-type": "application/json", "x-elastic-product": "Elasticsearch" };
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: HEADERS });
/** An error answer as Elasticsearch 9.x writes it (`extra`: the exception's metadata fields). */
const error = (status: number, type: string, reason: string, extra: Record<string, string> = {}) =>
  json({ error: { root_cause: [{ type, reason, ...extra }], type, reason, ...extra }, status }, status);
const indexNotFound = (name: string) =>
  error(404, "index_not_found_exception", `no such index [${name}]`, {
    "resource.type": "index_or_alias",
    "resource.id": name,
    index_uuid: "_na_",
    index: name,
  });
const aliasesNotFound = (alias: string) =>
  error(404, "aliases_not_found_exception", `aliases [${alias}] missing`, {
    "resource.type": "aliases",
    "resource.id": alias,
  });
const MAX_RESULT_WINDOW = 10_000;
const HEALTH_ORDER: Record<HealthStatus, number> = { green: 0, yellow: 1, red: 2 };

/** Lucene's English stop set (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET), used by the built-in `english` analyzer. */
const LUCENE_ENGLISH_STOP = new Set(
  "a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with".split(
    " ",
  ),
);

/** Lucene's ClassicSimilarity idf, which TermVectorsFilter scores with: 1 + ln((docCount + 1) / (docFreq + 1)). */
const classicIdf = (docFreq: number, docCount: number) => 1 + Math.log((docCount + 1) / (docFreq + 1));

/** Setting names as Elasticsearch stores them: nested `settings`/`index` objects and `index.` prefixes flattened. */
function flattenSettings(body: any): Record<string, unknown> {
  const root = body?.settings ?? body ?? {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(root)) {
    if (key === "index" && value && typeof value === "object") Object.assign(out, flattenSettings(value));
    else out[key.replace(/^index\./, "")] = value;
  }
  return out;
}

/** Starts the stand-in on a free loopback port. */
export function startElasticsearchStandIn(): StandIn {
  // One object, handed to the test as it is: a test's change to a field (aliasesAcknowledged…) is the stand-in's.
  const state: StandIn = {
    url: "",
    stop: () => {},
    shardOf: (index, id) => shardOf(index, id),
    requests: [],
    indices: new Map(),
    autoCreated: [],
    aliases: new Map(),
    docs: new Map(),
    searchResponses: [],
    bulkFailures: new Map(),
    aliasesAcknowledged: true,
    indexHealth: new Map(),
    failNext: [],
    delayNext: [],
    beforeHandle: null,
  };
  const resolve = (name: string): string[] => (state.indices.has(name) ? [name] : [...(state.aliases.get(name) ?? [])]);
  const isAlias = (name: string) => (state.aliases.get(name)?.size ?? 0) > 0;
  const shardCount = (index: string) => Number(state.indices.get(index)?.settings?.number_of_shards ?? 1);
  const shardOf = (index: string, id: string) => {
    const n = /^\d+$/.test(id) ? Number(id) : [...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 0);
    return n % shardCount(index);
  };
  const matches = (f: { method?: string; path: string | RegExp }, method: string, path: string) =>
    (!f.method || f.method === method) && (typeof f.path === "string" ? f.path === path : f.path.test(path));
  /** Removes and returns the first scripted entry matching the request (`times` counts down). */
  function take<T extends { method?: string; path: string | RegExp; times?: number }>(
    list: T[],
    method: string,
    path: string,
  ): T | undefined {
    const i = list.findIndex((f) => matches(f, method, path));
    if (i < 0) return undefined;
    const f = list[i]!;
    if ((f.times ?? 1) <= 1) list.splice(i, 1);
    else f.times = (f.times ?? 1) - 1;
    return f;
  }

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
  const tokens = (index: string, field: string, text: string) => {
    const stop = stopWordsOf(index, field);
    return String(text ?? "")
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((t) => t && !stop.has(t));
  };
  const analysesToNothing = (index: string, field: string, text: string) => tokens(index, field, text).length === 0;
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

  /** Term vectors of an artificial document with one shard's statistics (see the file comment). */
  function termVectors(index: string, body: any, query: URLSearchParams) {
    const field = Object.keys(body?.doc ?? {})[0] ?? "abstract";
    const preference = query.get("preference") ?? body?.preference ?? "";
    const listed = /^_shards:([\d,]+)/.exec(preference)?.[1];
    const shard = listed ? Math.min(...listed.split(",").map(Number)) : 0;
    if (shard >= shardCount(index))
      return error(400, "illegal_argument_exception", `No shard available for [${preference}]`);
    const termStats = (query.get("term_statistics") ?? String(body?.term_statistics ?? false)) === "true";
    const fieldStats = (query.get("field_statistics") ?? String(body?.field_statistics ?? true)) !== "false";
    // The shard's statistics: documents with the field, document frequency and total frequency of each term.
    const df = new Map<string, number>();
    const ttf = new Map<string, number>();
    let docCount = 0;
    for (const [id, doc] of state.docs.get(index) ?? []) {
      if (shardOf(index, id) !== shard) continue;
      const docTokens = tokens(index, field, doc?.[field]);
      if (docTokens.length === 0) continue;
      docCount++;
      for (const t of docTokens) ttf.set(t, (ttf.get(t) ?? 0) + 1);
      for (const t of new Set(docTokens)) df.set(t, (df.get(t) ?? 0) + 1);
    }
    const tf = new Map<string, number>();
    for (const t of tokens(index, field, body?.doc?.[field])) tf.set(t, (tf.get(t) ?? 0) + 1);
    let entries = [...tf].map(([t, n]) => ({ t, n, score: undefined as number | undefined }));
    const filter = body?.filter as { max_num_terms?: number; min_term_freq?: number; min_doc_freq?: number };
    if (filter) {
      entries = entries
        .filter(
          (e) => e.n >= (filter.min_term_freq ?? 0) && (df.get(e.t) ?? 0) >= Math.max(1, filter.min_doc_freq ?? 0),
        )
        .map((e) => ({ ...e, score: e.n * classicIdf(df.get(e.t) ?? 0, docCount) }))
        .sort((a, b) => b.score! - a.score!)
        .slice(0, filter.max_num_terms ?? 25);
    }
    const terms = Object.fromEntries(
      entries
        .sort((a, b) => (a.t < b.t ? -1 : 1))
        .map((e) => [
          e.t,
          {
            ...(termStats ? { doc_freq: df.get(e.t) ?? 0, ttf: ttf.get(e.t) ?? 0 } : {}),
            term_freq: e.n,
            ...(e.score !== undefined ? { score: e.score } : {}),
          },
        ]),
    );
    const sumDocFreq = [...df.values()].reduce((a, b) => a + b, 0);
    const sumTtf = [...ttf.values()].reduce((a, b) => a + b, 0);
    return json({
      _index: index,
      _version: 0,
      found: true,
      took: 1,
      term_vectors: {
        [field]: {
          ...(fieldStats
            ? { field_statistics: { sum_doc_freq: sumDocFreq, doc_count: docCount, sum_ttf: sumTtf } }
            : {}),
          terms,
        },
      },
    });
  }

  /** `_cluster/health[/<indices>]` as TransportClusterHealthAction answers it (see the file comment). */
  function health(target: string | undefined, query: URLSearchParams) {
    const names = target ? target.split(",") : [];
    const resolved = names.map(resolve);
    const missing = resolved.some((r) => r.length === 0);
    const concrete = target ? resolved.flat() : [...state.indices.keys()];
    const worst = concrete.reduce<HealthStatus>(
      (w, i) => (HEALTH_ORDER[state.indexHealth.get(i) ?? "green"] > HEALTH_ORDER[w] ? state.indexHealth.get(i)! : w),
      "green",
    );
    const status: HealthStatus = missing ? "red" : worst;
    const wanted = query.get("wait_for_status") as HealthStatus | null;
    const valid = !missing && (wanted === null || HEALTH_ORDER[status] <= HEALTH_ORDER[wanted]);
    const waited = target !== undefined || wanted !== null;
    const timedOut = waited && !valid;
    const shards = concrete.reduce((n, i) => n + shardCount(i), 0);
    const unassigned = concrete
      .filter((i) => state.indexHealth.get(i) === "red")
      .reduce((n, i) => n + shardCount(i), 0);
    return json(
      {
        cluster_name: "docker-cluster",
        status,
        timed_out: timedOut,
        number_of_nodes: 1,
        number_of_data_nodes: 1,
        active_primary_shards: shards - unassigned,
        active_shards: shards - unassigned,
        relocating_shards: 0,
        initializing_shards: 0,
        unassigned_shards: unassigned,
        unassigned_primary_shards: unassigned,
        delayed_unassigned_shards: 0,
        number_of_pending_tasks: 0,
        number_of_in_flight_fetch: 0,
        task_max_waiting_in_queue_millis: 0,
        active_shards_percent_as_number: shards === 0 ? 100 : (100 * (shards - unassigned)) / shards,
      },
      timedOut ? 408 : 200,
    );
  }

  /** `POST _aliases` as Elasticsearch 8.14+ answers it (see the file comment). */
  function updateAliases(actions: any[]) {
    // Resolution first: a missing index or a required alias that is not there fails the whole request.
    for (const action of actions) {
      const [, spec] = Object.entries(action)[0] as [string, { index: string; alias: string; must_exist?: boolean }];
      if (!state.indices.has(spec.index)) return indexNotFound(spec.index);
      if (action.remove?.must_exist && !state.aliases.get(spec.alias)?.has(spec.index))
        return aliasesNotFound(spec.alias);
    }
    const results: { action: object; status: number; error?: object }[] = [];
    let applied = 0;
    for (const action of actions) {
      const [kind, spec] = Object.entries(action)[0] as [string, { index: string; alias: string }];
      const described = { type: kind, indices: [spec.index], aliases: [spec.alias] };
      if (kind === "remove" && !state.aliases.get(spec.alias)?.has(spec.index)) {
        results.push({
          action: described,
          status: 404,
          error: {
            type: "aliases_not_found_exception",
            reason: `aliases [${spec.alias}] missing`,
            "resource.type": "aliases",
            "resource.id": spec.alias,
          },
        });
        continue;
      }
      applied++;
      if (kind === "remove") state.aliases.get(spec.alias)!.delete(spec.index);
      else (state.aliases.get(spec.alias) ?? state.aliases.set(spec.alias, new Set()).get(spec.alias)!).add(spec.index);
      results.push({ action: described, status: 200 });
    }
    if (applied === 0)
      return aliasesNotFound(actions.map((a) => (Object.values(a)[0] as { alias: string }).alias).join(","));
    const errors = results.some((r) => r.status >= 300);
    return json({
      acknowledged: state.aliasesAcknowledged,
      errors,
      ...(errors ? { action_results: results } : {}),
    });
  }

  function bulk(body: any[], query: URLSearchParams) {
    const requireAlias = query.get("require_alias") === "true";
    const items: any[] = [];
    let errors = false;
    for (let i = 0; i < body.length; i++) {
      const [op, meta] = Object.entries(body[i])[0] as [string, { _index: string; _id: string }];
      const doc = op === "delete" ? null : body[++i];
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
              "resource.type": "index_expression",
              "resource.id": meta._index,
              index_uuid: "_na_",
              index: meta._index,
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
          index: { _index: index, _id: meta._id, result: existed ? "updated" : "created", status: existed ? 200 : 201 },
        });
      }
    }
    return json({ took: 1, errors, items });
  }

  function search(target: string, body: { from?: number; size?: number; query?: unknown }) {
    const window = (body.from ?? 0) + (body.size ?? 10);
    if (window > MAX_RESULT_WINDOW) {
      return error(
        400,
        "search_phase_execution_exception",
        `Result window is too large, from + size must be less than or equal to: [${MAX_RESULT_WINDOW}] but was [${window}].`,
      );
    }
    const index = resolve(target)[0] ?? target;
    const next = emptyCoverage(index, body.query)
      ? { hits: [], total: 0 }
      : (state.searchResponses.shift() ?? { hits: [], total: 0 });
    return json({
      took: 2,
      timed_out: false,
      _shards: { total: shardCount(index), successful: shardCount(index), skipped: 0, failed: 0 },
      hits: {
        total: { value: next.total, relation: ("relation" in next ? next.relation : undefined) ?? "eq" },
        max_score: next.hits[0]?.[1] ?? null,
        hits: next.hits.map(([id, score]) => ({ _index: index, _id: id, _score: score, sort: [score, Number(id)] })),
      },
    });
  }

  /** The answer to one request, once recorded, scripted failures and delays applied. */
  function route(req: Request, url: URL, body: unknown): Response {
    const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    const [first, second] = parts;
    const m = req.method;
    if (m === "GET" && parts.length === 0) {
      return json({
        name: "stand-in",
        cluster_name: "docker-cluster",
        cluster_uuid: "x",
        version: {
          number: "9.4.3",
          build_flavor: "default",
          build_type: "docker",
          build_hash: "stand-in",
          build_date: "2026-10-01T00:00:00.000Z",
          build_snapshot: false,
          lucene_version: "10.4.0",
          minimum_wire_compatibility_version: "8.19.0",
          minimum_index_compatibility_version: "8.0.0",
        },
        tagline: "You Know, for Search",
      });
    }
    if (m === "GET" && first === "_alias" && second) {
      const indices = [...(state.aliases.get(second) ?? [])];
      if (indices.length === 0) return json({ error: `alias [${second}] missing`, status: 404 }, 404);
      return json(Object.fromEntries(indices.map((i) => [i, { aliases: { [second]: {} } }])));
    }
    if (m === "GET" && first === "_cluster" && second === "health") return health(parts[2], url.searchParams);
    if (m === "POST" && first === "_aliases") return updateAliases((body as { actions: any[] }).actions);
    if (m === "POST" && (first === "_bulk" || second === "_bulk")) return bulk(body as any[], url.searchParams);
    if (parts.length === 2 && second === "_refresh") {
      if (resolve(first!).length === 0) return indexNotFound(first!);
      return json({ _shards: { total: shardCount(first!), successful: shardCount(first!), failed: 0 } });
    }
    if (parts.length === 2 && second === "_settings" && m === "PUT") {
      const def = state.indices.get(first!);
      if (!def) return indexNotFound(first!);
      for (const [key, value] of Object.entries(flattenSettings(body))) {
        if (value === null) delete def.settings[key];
        else def.settings[key] = value;
      }
      return json({ acknowledged: true });
    }
    if ((parts.length === 2 || parts.length === 3) && second === "_settings" && m === "GET") {
      const indices = resolve(first!);
      if (indices.length === 0) return indexNotFound(first!);
      // GET <index>/_settings/<name>: only the settings named (here one name, with or without "index.").
      const only = parts[2]?.replace(/^index\./, "");
      return json(
        Object.fromEntries(
          indices.map((i) => {
            const flat = flattenSettings(state.indices.get(i)!.settings);
            const index = Object.fromEntries(
              Object.entries(flat)
                .filter(([k]) => only === undefined || k === only)
                .map(([k, v]) => [k, typeof v === "object" ? v : String(v)]),
            );
            return [i, { settings: { index } }];
          }),
        ),
      );
    }
    if (parts.length === 2 && second === "_mapping" && m === "GET") {
      const indices = resolve(first!);
      if (indices.length === 0) return indexNotFound(first!);
      return json(Object.fromEntries(indices.map((i) => [i, { mappings: state.indices.get(i)!.mappings }])));
    }
    if (parts.length === 2 && second === "_termvectors") {
      const indices = resolve(first!);
      if (indices.length === 0) return indexNotFound(first!);
      if (indices.length > 1)
        return error(
          400,
          "illegal_argument_exception",
          `alias [${first}] has more than one index associated with it [${indices.join(", ")}], can't execute a single index op`,
        );
      return termVectors(indices[0]!, body, url.searchParams);
    }
    if (parts.length === 2 && second === "_search") return search(first!, body as any);
    if (parts.length === 1 && m === "PUT") {
      if (state.indices.has(first!) || isAlias(first!))
        return error(400, "resource_already_exists_exception", `index [${first}/x] already exists`);
      const b = (body ?? {}) as { mappings?: unknown; settings?: unknown };
      state.indices.set(first!, { mappings: b.mappings ?? {}, settings: flattenSettings(b.settings) });
      return json({ acknowledged: true, shards_acknowledged: true, index: first });
    }
    if (parts.length === 1 && m === "GET") {
      const pattern = new RegExp(`^${first!.replace(/[.]/g, "\\.").replace(/\*/g, ".*")}$`);
      return json(
        Object.fromEntries(
          [...state.indices.keys()]
            .filter((n) => pattern.test(n))
            .map((n) => [n, { ...state.indices.get(n), aliases: {} }]),
        ),
      );
    }
    if (parts.length === 1 && m === "DELETE") {
      if (!state.indices.has(first!)) return indexNotFound(first!);
      state.indices.delete(first!);
      state.docs.delete(first!);
      state.indexHealth.delete(first!);
      for (const set of state.aliases.values()) set.delete(first!);
      return json({ acknowledged: true });
    }
    return json({ error: `stand-in: no route for ${m} ${url.pathname}`, status: 400 }, 400);
  }

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
      const recorded = { method: req.method, path: url.pathname, query: url.searchParams, body };
      state.requests.push(recorded);
      const delay = take(state.delayNext, req.method, url.pathname);
      if (delay) await Bun.sleep(delay.ms);
      const f = take(state.failNext, req.method, url.pathname);
      if (f) {
        const type =
          f.type ??
          (f.status === 429
            ? "circuit_breaking_exception"
            : f.status === 401
              ? "security_exception"
              : f.status === 503
                ? "cluster_block_exception"
                : "exception");
        const reason =
          f.reason ??
          (f.status === 429
            ? "[parent] Data too large"
            : f.status === 401
              ? "unable to authenticate user [elastic] for REST request [/]"
              : f.status === 503
                ? "blocked by: [SERVICE_UNAVAILABLE/2/no master];"
                : "failed");
        return error(f.status, type, reason);
      }
      state.beforeHandle?.(recorded);
      return route(req, url, body);
    },
  });
  state.url = `http://127.0.0.1:${server.port}`;
  state.stop = () => server.stop(true);
  return state;
}
