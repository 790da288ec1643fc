/**
 * A small client of NCBI's E-utilities for PubMed: `esearch` (PMIDs of a query, optionally kept on the history server)
 * and `efetch` (PubMed XML of PMIDs, or of a history-server result set in retstart/retmax slices).
 *
 * Sources: NBK25497 "A General Introduction to the E-utilities" (https://www.ncbi.nlm.nih.gov/books/NBK25497/: base
 * URL, the `tool`/`email`/`api_key` parameters, 3 requests a second without a key and 10 with one, the history
 * server) and NBK25499 "The E-utilities In-Depth: Parameters, Syntax and More"
 * (https://www.ncbi.nlm.nih.gov/books/NBK25499/: esearch's term, retstart, retmax, usehistory, sort, datetype, reldate,
 * mindate/maxdate, retmode=json; efetch's id, WebEnv, query_key, retstart, retmax, retmode=xml for PubMed XML; "if
 * more than about 200 UIDs are to be provided, the request should be made using the HTTP POST method").
 *
 * What the client keeps to (NCBI's rules):
 * - every request names the application (`tool`, default "litreview"), the operator's contact (`email`, when set) and
 *   the API key (`api_key`, when set); the key never appears in a log line or an error message;
 * - every request, retries included, first waits for a slot of the shared RateGate (rate-gate.ts), so the whole
 *   deployment stays within 3 (or 10) requests a second;
 * - id lists to efetch are always POSTed (application/x-www-form-urlencoded), as is an esearch whose query would make a
 *   URL longer than URL_LIMIT;
 * - HTTP 429 (NCBI's `{"error":"API rate limit exceeded",…}`), 5xx, network failures, a request that does not answer
 *   within `timeoutMs`, and an efetch answer cut off before `</PubmedArticleSet>` are retried up to `maxAttempts` in
 *   all, after an exponential backoff with jitter (1 s, 2 s, 4 s… ×0.5–1), or after exactly what the answer's
 *   Retry-After asks (seconds or an HTTP date; up to `maxRetryAfterMs`, beyond which the client gives up at once);
 * - other 4xx answers, NCBI's JSON `{"error": …}` and `esearchresult.ERROR`, and an efetch answer that is not
 *   PubMed XML (e.g. `<eFetchResult><ERROR>…`, an expired WebEnv) fail at once with an EutilsError.
 *
 * Why our own module: no npm client of the E-utilities is kept up (the few packages that exist are unmaintained or a
 * native binding with a few hundred downloads a month), and the two parts a library could give are both tied to the
 * shared gate: a retry must take a new slot before it goes, and Retry-After must set that attempt's delay, which the
 * small retry libraries (p-retry, async-retry) have no way to express (their delays come from their own schedule).
 * The retry loop is therefore the thirty lines in `request` below.
 */
import type { RateGate } from "./rate-gate.ts";
import { abortableSleep } from "./rate-gate.ts";

/** What went wrong, for callers that decide what to tell a user or whether to go on. */
export type EutilsErrorKind = "rate_limited" | "server" | "bad_request" | "malformed" | "network" | "aborted";

/** A failed E-utilities request (after the retries that apply to it). */
export class EutilsError extends Error {
  constructor(
    message: string,
    /** HTTP status of the last answer; null when no answer came (network, timeout, abort). */
    readonly status: number | null,
    readonly kind: EutilsErrorKind,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "EutilsError";
  }
}

/** Parameters of `esearch` (NBK25499, ESearch). */
export interface EsearchParams {
  /** The query, as a user would type it in PubMed (PubMed's automatic term mapping applies). */
  term: string;
  /** PMIDs to return (NCBI's default 20, most 10,000; with usehistory the rest stay on the history server). */
  retmax?: number;
  /** Index of the first PMID to return (0-based). */
  retstart?: number;
  /** "relevance" is PubMed's Best Match; "pub_date" newest first. Unset: NCBI's default order. */
  sort?: "relevance" | "pub_date";
  /** Which date `reldate`/`mindate`/`maxdate` apply to: Entrez date ("edat") or publication date ("pdat"). */
  datetype?: "edat" | "pdat";
  /** Only records whose `datetype` date is within the last N days. */
  reldate?: number;
  /** Date range on `datetype` (default pdat): "YYYY", "YYYY/MM" or "YYYY/MM/DD"; NCBI wants both ends together. */
  mindate?: string;
  maxdate?: string;
  /** Keep the whole result set on the history server (answer carries webenv and queryKey for efetch). */
  usehistory?: boolean;
}

/** The answer of `esearch` (from `esearchresult` of retmode=json, whose numbers NCBI sends as strings). */
export interface EsearchResult {
  /** Records matching the query in PubMed. */
  count: number;
  retmax: number;
  retstart: number;
  /** PMIDs in the requested order. */
  pmids: number[];
  /** How PubMed read the query (`querytranslation`), e.g. `"asthma"[MeSH Terms] OR "asthma"[All Fields]`. */
  queryTranslation: string | null;
  /** History server handles (usehistory), else null. */
  webenv: string | null;
  queryKey: string | null;
  /** NCBI's warnings and "not found" notes ("Phrase not found: …", "No items found."), for logs and reports. */
  warnings: string[];
}

/** What to efetch: PMIDs (POSTed), or a slice of a history-server result set. */
export type EfetchRequest =
  | { pmids: number[] }
  | { webenv: string; queryKey: string; retstart: number; retmax: number };

/** Options of EutilsClient. */
export interface EutilsClientOptions {
  /** Base URL ending in "/", e.g. "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/" (config PUBMED_EUTILS_URL). */
  baseUrl: string;
  /** NCBI API key (config NCBI_API_KEY). */
  apiKey?: string | null;
  /** The operator's contact address (config NCBI_EMAIL). */
  email?: string | null;
  /** The application's name sent as `tool` (no spaces; default "litreview"). */
  tool?: string;
  /** Shared request budget; every attempt waits for a slot. */
  gate: RateGate;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Attempts per request, the first included (default 4). */
  maxAttempts?: number;
  /** Receives one line per retry and per failure (no API key in it). */
  log?: (line: string) => void;
  /** Waits between attempts (default: an abortable timer); tests may record and skip the delays. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * Milliseconds one attempt may take, answer body included, before it counts as a network failure (default 30,000).
   */
  timeoutMs?: number;
  /** First backoff delay in ms (default 1,000), doubled per attempt, ×0.5–1 jitter, at most 30 s. */
  backoffMs?: number;
  /** Longest Retry-After honoured, in ms (default 60,000); a longer one fails the request at once. */
  maxRetryAfterMs?: number;
}

/**
 * A URL longer than this (NCBI's servers accept about 2,000 characters reliably) sends its parameters as a POST form.
 */
const URL_LIMIT = 2000;
const MAX_BACKOFF_MS = 30_000;

/**
 * The E-utilities client. Stateless apart from its options: one instance may serve any number of concurrent callers,
 * the gate orders them.
 */
export class EutilsClient {
  private readonly baseUrl: string;
  private readonly apiKey: string | null;
  private readonly email: string | null;
  private readonly tool: string;
  private readonly gate: RateGate;
  private readonly fetchImpl: typeof fetch;
  private readonly maxAttempts: number;
  private readonly log: (line: string) => void;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly timeoutMs: number;
  private readonly backoffMs: number;
  private readonly maxRetryAfterMs: number;

  constructor(opts: EutilsClientOptions) {
    this.baseUrl = opts.baseUrl.endsWith("/") ? opts.baseUrl : `${opts.baseUrl}/`;
    this.apiKey = opts.apiKey?.trim() || null;
    this.email = opts.email?.trim() || null;
    this.tool = (opts.tool ?? "litreview").replace(/\s+/g, "_");
    this.gate = opts.gate;
    this.fetchImpl = opts.fetch ?? fetch;
    this.maxAttempts = Math.max(1, Math.floor(opts.maxAttempts ?? 4));
    this.log = opts.log ?? (() => {});
    this.sleep = opts.sleep ?? abortableSleep;
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.backoffMs = opts.backoffMs ?? 1000;
    this.maxRetryAfterMs = opts.maxRetryAfterMs ?? 60_000;
  }

  /**
   * Searches PubMed (esearch.fcgi, db=pubmed, retmode=json).
   * @returns the count, the PMIDs of the requested slice, PubMed's translation of the query and, with usehistory,
   *   the history-server handles.
   * @throws EutilsError: "bad_request" for NCBI's `ERROR` (e.g. an empty or unreadable term) or another 4xx;
   *   "rate_limited"/"server"/"network" when the retries ran out; "malformed" for an answer that is not the
   *   documented JSON; "aborted" when `signal` aborted.
   */
  async esearch(p: EsearchParams, signal?: AbortSignal): Promise<EsearchResult> {
    const params: Record<string, string> = { db: "pubmed", term: p.term, retmode: "json" };
    if (p.retmax !== undefined) params.retmax = String(Math.max(0, Math.floor(p.retmax)));
    if (p.retstart !== undefined) params.retstart = String(Math.max(0, Math.floor(p.retstart)));
    if (p.sort) params.sort = p.sort;
    if (p.datetype) params.datetype = p.datetype;
    if (p.reldate !== undefined) params.reldate = String(Math.max(1, Math.floor(p.reldate)));
    if (p.mindate) params.mindate = p.mindate;
    if (p.maxdate) params.maxdate = p.maxdate;
    if (p.usehistory) params.usehistory = "y";
    const body = await this.request("esearch.fcgi", params, "auto", signal, checkJson);
    return parseEsearchJson(body);
  }

  /**
   * Fetches PubMed XML (efetch.fcgi, db=pubmed, retmode=xml): the records of `pmids` (POSTed, in PubMed's order;
   * PMIDs PubMed does not hold are left out), or records retstart… of a history-server set.
   * @returns the whole document, checked to be a complete PubmedArticleSet (its records are not parsed here).
   * @throws EutilsError: "malformed" when every attempt's answer was cut off or not PubMed XML; "bad_request" for
   *   NCBI's `<ERROR>` (an expired WebEnv…) or a 4xx; the other kinds as for esearch.
   */
  async efetchXml(req: EfetchRequest, signal?: AbortSignal): Promise<string> {
    const params: Record<string, string> = { db: "pubmed", retmode: "xml" };
    let method: "POST" | "auto";
    if ("pmids" in req) {
      if (req.pmids.length === 0) throw new RangeError("efetchXml: no PMIDs");
      params.id = req.pmids.join(",");
      method = "POST";
    } else {
      params.WebEnv = req.webenv;
      params.query_key = req.queryKey;
      params.retstart = String(Math.max(0, Math.floor(req.retstart)));
      params.retmax = String(Math.max(1, Math.floor(req.retmax)));
      method = "auto";
    }
    return this.request("efetch.fcgi", params, method, signal, checkPubmedXml);
  }

  /**
   * One E-utility call with the gate, the retries and the error mapping described in the module comment.
   * @param check inspects a 200 answer's body: null when usable, else the failure ("malformed" ones are retried).
   */
  private async request(
    path: string,
    params: Record<string, string>,
    method: "POST" | "auto",
    signal: AbortSignal | undefined,
    check: (body: string) => EutilsError | null,
  ): Promise<string> {
    const form = new URLSearchParams(params);
    form.set("tool", this.tool);
    if (this.email) form.set("email", this.email);
    if (this.apiKey) form.set("api_key", this.apiKey);
    const url = `${this.baseUrl}${path}`;
    const post = method === "POST" || url.length + 1 + form.toString().length > URL_LIMIT;
    const what = `${path.replace(/\.fcgi$/, "")}${"id" in params ? ` of ${params.id!.split(",").length} PMIDs` : ""}`;

    for (let attempt = 1; ; attempt++) {
      let failure: EutilsError;
      let retryAfterMs: number | null = null;
      try {
        await this.gate.acquire(signal);
      } catch (error) {
        // An abort while waiting for the slot; anything else (the database is down) is thrown as it is.
        if (signal?.aborted) throw aborted(what, error, signal);
        throw error;
      }
      const timeout = AbortSignal.timeout(this.timeoutMs);
      const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
      try {
        const res = await this.fetchImpl(post ? url : `${url}?${form}`, {
          method: post ? "POST" : "GET",
          body: post ? form : undefined,
          headers: post ? { "content-type": "application/x-www-form-urlencoded" } : undefined,
          signal: both,
        });
        const body = await res.text();
        if (res.ok) {
          const problem = check(body);
          if (!problem) return body;
          failure = problem;
        } else {
          failure = httpFailure(what, res.status, body);
          if (failure.kind === "rate_limited" || failure.kind === "server")
            retryAfterMs = parseRetryAfter(res.headers.get("retry-after"));
        }
      } catch (error) {
        if (signal?.aborted) throw aborted(what, error, signal);
        const timedOut = timeout.aborted;
        failure = new EutilsError(
          timedOut
            ? `${what}: no answer within ${formatDuration(this.timeoutMs)}`
            : `${what}: ${describeNetworkError(error)}`,
          null,
          "network",
          { cause: error },
        );
      }
      const retryable =
        failure.kind === "rate_limited" ||
        failure.kind === "server" ||
        failure.kind === "network" ||
        failure.kind === "malformed";
      if (!retryable || attempt >= this.maxAttempts) {
        if (retryable)
          failure.message = `${failure.message} (gave up after ${attempt} attempt${attempt === 1 ? "" : "s"})`;
        throw failure;
      }
      if (retryAfterMs !== null && retryAfterMs > this.maxRetryAfterMs) {
        failure.message = `${failure.message} (Retry-After ${Math.ceil(retryAfterMs / 1000)} s is longer than we wait)`;
        throw failure;
      }
      const delay =
        retryAfterMs ?? Math.min(MAX_BACKOFF_MS, this.backoffMs * 2 ** (attempt - 1)) * (0.5 + Math.random() * 0.5);
      this.log(`${failure.message}; retry ${attempt + 1} of ${this.maxAttempts} in ${(delay / 1000).toFixed(1)} s`);
      try {
        await this.sleep(delay, signal);
      } catch (error) {
        throw aborted(what, error, signal);
      }
    }
  }
}

function aborted(what: string, error: unknown, signal: AbortSignal | undefined): EutilsError {
  if (error instanceof EutilsError) return error;
  const reason = signal?.reason;
  const why = reason instanceof DOMException && reason.name === "TimeoutError" ? "time budget reached" : "aborted";
  return new EutilsError(`${what}: ${why}`, null, "aborted", { cause: reason ?? error });
}

/** A time limit for a message: "300 ms" below a second, else whole seconds ("30 s"). */
function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(0)} s`;
}

function describeNetworkError(error: unknown): string {
  const code = (error as { code?: string } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return `could not reach the E-utilities (${code ? `${code}: ` : ""}${message})`;
}

/** Maps a non-2xx answer to an EutilsError (rate_limited for 429 and NCBI's rate-limit message, server for 5xx). */
function httpFailure(what: string, status: number, body: string): EutilsError {
  const ncbi = ncbiErrorText(body);
  const detail = ncbi ?? (body.trim().slice(0, 200) || "no body");
  if (status === 429 || /rate limit/i.test(ncbi ?? ""))
    return new EutilsError(`${what}: HTTP ${status} (${detail})`, status, "rate_limited");
  if (status >= 500) return new EutilsError(`${what}: HTTP ${status} (${detail})`, status, "server");
  return new EutilsError(`${what}: HTTP ${status} (${detail})`, status, "bad_request");
}

/** NCBI's error text in a JSON (`{"error": …}`, `{"ERROR": …}`) or XML (`<ERROR>…</ERROR>`) answer, else null. */
function ncbiErrorText(body: string): string | null {
  const t = body.trimStart();
  if (t.startsWith("{")) {
    try {
      const j = JSON.parse(t) as Record<string, unknown>;
      const e = j.error ?? j.ERROR;
      if (typeof e === "string") return e;
    } catch {
      // not JSON after all
    }
  }
  const m = /<ERROR>([\s\S]*?)<\/ERROR>/.exec(body);
  return m ? m[1]!.trim() : null;
}

/**
 * Retry-After as milliseconds from now: delta-seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or
 * unreadable.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * Checks that an efetch answer is a whole PubMed XML document: NCBI's `<ERROR>` answers are "bad_request"; an answer
 * cut off before the root's end tag is "malformed" (retried). The records themselves are parsed by the caller.
 */
function checkPubmedXml(body: string): EutilsError | null {
  const head = body.slice(0, 2000);
  if (head.trimStart().startsWith("{")) {
    const text = ncbiErrorText(body);
    if (text === null)
      return new EutilsError(
        `efetch: the answer is JSON, not PubMed XML (${JSON.stringify(body.slice(0, 80))})`,
        200,
        "malformed",
      );
    return /rate limit/i.test(text)
      ? new EutilsError(`efetch: ${text}`, 200, "rate_limited")
      : new EutilsError(`efetch: NCBI answered: ${text}`, 200, "bad_request");
  }
  if (/<eFetchResult[\s>]/.test(head)) {
    const err = ncbiErrorText(body);
    return new EutilsError(`efetch: NCBI answered: ${err ?? "an eFetchResult without records"}`, 200, "bad_request");
  }
  const root = /<(PubmedArticleSet)[\s>/]/.exec(head);
  if (!root)
    return new EutilsError(
      `efetch: the answer is not PubMed XML (${JSON.stringify(body.slice(0, 80))})`,
      200,
      "malformed",
    );
  const tail = body.trimEnd();
  if (!tail.endsWith("</PubmedArticleSet>") && !/<PubmedArticleSet\s*\/>$/.test(tail)) {
    return new EutilsError(
      `efetch: the answer was cut off (${body.length.toLocaleString("en-US")} characters, no </PubmedArticleSet> at the end)`,
      200,
      "malformed",
    );
  }
  return null;
}

/** How esearch's errorlist/warninglist entries are written in `warnings` ("" = the text alone). */
const NOTE_LABELS: Record<string, string> = {
  phrasesnotfound: "Phrase not found",
  fieldsnotfound: "Field not found",
  phrasesignored: "Phrase ignored",
  quotedphrasesnotfound: "Quoted phrase not found",
  outputmessages: "",
};

/** esearch's check of a 200 answer: JSON (parsed again by parseEsearchJson), else "malformed" and retried. */
function checkJson(body: string): EutilsError | null {
  try {
    JSON.parse(body);
    return null;
  } catch {
    return new EutilsError(`esearch: the answer is not JSON (${JSON.stringify(body.slice(0, 80))})`, 200, "malformed");
  }
}

/** Reads esearch's JSON answer (NBK25499: `esearchresult` with count, retmax, retstart, idlist, querytranslation…). */
function parseEsearchJson(body: string): EsearchResult {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    throw new EutilsError(`esearch: the answer is not JSON (${JSON.stringify(body.slice(0, 80))})`, 200, "malformed", {
      cause: error,
    });
  }
  const top = (json ?? {}) as Record<string, unknown>;
  const topError = top.error ?? top.ERROR;
  if (typeof topError === "string") {
    throw new EutilsError(
      `esearch: NCBI answered: ${topError}`,
      200,
      /rate limit/i.test(topError) ? "rate_limited" : "bad_request",
    );
  }
  const r = top.esearchresult as Record<string, unknown> | undefined;
  if (!r || typeof r !== "object") throw new EutilsError("esearch: the answer has no esearchresult", 200, "malformed");
  if (typeof r.ERROR === "string") throw new EutilsError(`esearch: NCBI answered: ${r.ERROR}`, 200, "bad_request");
  const num = (v: unknown, name: string): number => {
    const n = Number(v);
    if (v === undefined || v === null || v === "" || !Number.isFinite(n))
      throw new EutilsError(`esearch: esearchresult.${name} is not a number`, 200, "malformed");
    return n;
  };
  const idlist = Array.isArray(r.idlist) ? r.idlist : [];
  const pmids: number[] = [];
  for (const id of idlist) {
    const n = Number(id);
    if (!Number.isInteger(n) || n <= 0)
      throw new EutilsError(`esearch: idlist holds ${JSON.stringify(id)}, not a PMID`, 200, "malformed");
    pmids.push(n);
  }
  const warnings: string[] = [];
  for (const group of [r.errorlist, r.warninglist]) {
    if (!group || typeof group !== "object") continue;
    for (const [key, values] of Object.entries(group as Record<string, unknown>)) {
      if (!Array.isArray(values)) continue;
      const label = NOTE_LABELS[key.toLowerCase()];
      for (const v of values)
        if (typeof v === "string" && v.trim()) warnings.push(label === "" ? v : `${label ?? key}: ${v}`);
    }
  }
  const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : null);
  return {
    count: num(r.count, "count"),
    retmax: num(r.retmax, "retmax"),
    retstart: num(r.retstart, "retstart"),
    pmids,
    queryTranslation: text(r.querytranslation),
    webenv: text(r.webenv),
    queryKey: r.querykey === undefined || r.querykey === null ? null : String(r.querykey),
    warnings,
  };
}
