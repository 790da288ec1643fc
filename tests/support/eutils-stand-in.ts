/**
 * A local stand-in for NCBI's E-utilities (esearch and efetch on db=pubmed), for tests and benchmarks: PubMed cannot
 * be reached from here. It serves the records of tests/support/pubmed-records.ts (the real records of the sample,
 * and the PubMedQA set the sample does not index) on 127.0.0.1, in the request and answer shapes NCBI documents, and
 * can be scripted to answer slowly, with 429s, with 5xx, with truncated XML, or not at all.
 *
 * Sources for the shapes (read when it was written):
 * - NCBI Bookshelf NBK25499, "The E-utilities In-Depth: Parameters, Syntax and More"
 *   (https://www.ncbi.nlm.nih.gov/books/NBK25499/): esearch's term, retstart, retmax (default 20), usehistory, WebEnv,
 *   query_key, sort, datetype/reldate/mindate/maxdate (mindate and maxdate only together; YYYY, YYYY/MM, YYYY/MM/DD),
 *   retmode=json|xml, rettype=count; efetch's id list, WebEnv/query_key with retstart/retmax; POST for long id lists.
 * - NBK25500, "The E-utilities Quick Start" (https://www.ncbi.nlm.nih.gov/books/NBK25500/) and NBK25497, "A General
 *   Introduction to the E-utilities" (https://www.ncbi.nlm.nih.gov/books/NBK25497/): 3 requests a second per site
 *   (IP address) without an API key, 10 with one (`api_key`).
 * - Real answers kept as test fixtures by Biopython (biopython/biopython Tests/Entrez/esearch1.xml, esearch2.xml,
 *   esearch8.xml: the eSearchResult layout and DOCTYPE, TranslationSet, QueryTranslation with a reldate range such as
 *   `… AND 2025/09/27:2025/11/26[Date - Entry]`, ErrorList/PhraseNotFound and WarningList/OutputMessage "No items
 *   found."), and retmode=json answers quoted in client libraries' tests
 * (`{"header":{"type":"esearch","version":"0.3"},
 * "esearchresult":{"count":"…","retmax":"…","retstart":"…","idlist":[…],"translationset":[…],"querytranslation":"…"}}`,
 * numbers as strings; `{"esearchresult":{"ERROR":"Empty term and query_key - nothing todo"}}`).
 * - NCBI's rate-limit answer, HTTP 429 with `{"error":"API rate limit exceeded","api-key":"<key or IP>","count":"5",
 *   "limit":"3"}` and X-RateLimit-Limit/X-RateLimit-Remaining headers, as reported in biocommons/bioutils#16,
 *   ropensci/rentrez#132 and MVesuviusC/primerTree#33. NCBI is not known to send Retry-After with it, so the enforced
 *   429 has none; a scripted 429 has one when asked.
 * - efetch's in-band errors with HTTP 200: `<eFetchResult><ERROR>Empty id list - nothing todo</ERROR></eFetchResult>`
 *   and, for a WebEnv the history server does not hold, `<ERROR>Unable to obtain query #1</ERROR>` (both quoted in
 *   many clients' tests); a PubmedArticleSet with NLM's current DOCTYPE (pubmed_250101.dtd) otherwise.
 *
 * Term evaluation. A term in PubMed's search syntax (`isPubmedSyntax`) is evaluated by search/pubmed/query-syntax.ts,
 * the same module the application evaluates it with locally (parsePubmedQuery + matchesRecord; translatePubmedQuery
 * gives querytranslation). Real PubMed also maps untagged words inside such a query to MeSH; the stand-in does not.
 * A plain-language term gets an IMITATION of PubMed's automatic term mapping, loose and deliberately small: stop words
 * are dropped; each other word becomes an OR of itself and its singular and plural forms over [All Fields], of the
 * MeSH heading it names when a held record carries that heading, and of a few hand-picked entry terms (`ENTRY_TERMS`:
 * PubMed maps e.g. "corticosteroids" to the MeSH heading Adrenal Cortex Hormones, whose explosion reaches the
 * Glucocorticoids that abstracts call "steroids"); the words are ANDed. The translation is written the way PubMed
 * writes its own (`("asthma"[MeSH Terms] OR "asthma"[All Fields]) AND …`) and is itself evaluated with the syntax
 * module, so both readings share one evaluator. It is not PubMed's mapping (no MeSH tree, no phrase index, no
 * subheadings, no journal or author mapping).
 *
 * Ranking: sort=relevance is a deterministic score (per query word: 3 when the title has it, 1 for the abstract,
 * 1 for the other fields: MeSH, keywords, authors, journal), then the newer publication first, then the higher PMID;
 * sort=pub_date is newest publication first; no sort (or "most recent") is the newest Entrez date first. Dates:
 * datetype=edat (the default) reads ParsedArticle.entrez_date, falling back to publication_date; pdat reads
 * publication_date; mdat (no modification date is held) reads like edat. A record with no date is left out by any date
 * limit.
 *
 * Not served: other databases, einfo/epost/esummary/elink (404), esearch's `field`, `idtype` and translationstack,
 * efetch's text formats (rettype/retmode other than XML are answered with XML).
 */
import {
  isPubmedSyntax,
  matchesRecord,
  parsePubmedQuery,
  pubmedQueryWords,
  translatePubmedQuery,
  type PubmedQueryNode,
  type PubmedQueryRecord,
} from "../../search/pubmed/query-syntax.ts";
import { escapeXml, loadStandInRecords, type StandInRecord } from "./pubmed-records.ts";

/** A scripted misbehaviour, consumed by the next matching request(s). */
export type EutilsFault =
  /** Answer this HTTP status: 429 with NCBI's rate-limit body, 5xx with an error body; Retry-After (s) when given. */
  | { kind: "status"; status: 429 | 500 | 502 | 503; retryAfter?: number }
  /** HTTP 200 with the real answer cut off after about 60 % of its characters (no closing root element). */
  | { kind: "truncated" }
  /** Never answer (until the client gives up, `setUnreachable(false)` does not end it, `stop()` does). */
  | { kind: "hang" }
  /** Answer normally after `ms` more milliseconds. */
  | { kind: "slow"; ms: number };

/** A request the stand-in received. */
export interface EutilsRequest {
  /** URL path, e.g. "/entrez/eutils/esearch.fcgi". */
  path: string;
  method: string;
  /** Query string and form body parameters merged (a repeated parameter's values joined with ","). */
  params: Record<string, string>;
  /** Arrival time, ms since the epoch (Date.now()). */
  at: number;
  /** HTTP status answered; 0 while unanswered or when never answered (hang, unreachable). */
  status: number;
}

export interface EutilsStandInOptions {
  /** Records served (default: `loadStandInRecords()`, the sample and the PubMedQA set). */
  records?: StandInRecord[];
  /** Added before every answer, ms (default 0; see `setLatency`). */
  latencyMs?: number;
  /** Answer 429 to a client that exceeds NCBI's rate (default true). */
  enforceRate?: boolean;
  /**
   * Requests a second allowed per client without and with an API key (default NCBI's 3 and 10), for tests whose
   * clients are configured faster (PUBMED_EUTILS_REQUESTS_PER_SECOND) so that they need not wait out NCBI's pace.
   */
  limits?: { withoutKey: number; withKey: number };
  /**
   * Tolerance of the rate window, ms (default 100): a request counts against those that arrived less than
   * 1000 − this ms before it. Arrival times are taken when the handler runs, in the test's own process, so timer
   * lateness, garbage collection and a busy event loop (PGlite runs on it) shift them by tens of ms; without a
   * tolerance a client that spaces its requests exactly 1000/N ms apart would look like N+1 a second now and then.
   * Any sustained rate above N × 1000 / (1000 − tolerance) a second (3.33 for N = 3) is still caught. NCBI does not
   * publish how it measures. Also used by `maxRequestsPerSecond`.
   */
  rateToleranceMs?: number;
  /** The clock for reldate, ms since the epoch (default Date.now). */
  now?: () => number;
}

export interface EutilsStandIn {
  /** Base URL, "http://127.0.0.1:PORT/entrez/eutils/" (the value of PUBMED_EUTILS_URL). */
  readonly url: string;
  readonly port: number;
  /** Every request received, in arrival order. */
  readonly requests: EutilsRequest[];
  /** The records served, by PMID. */
  readonly records: ReadonlyMap<number, StandInRecord>;
  /**
   * Queues `fault` for the next `times` requests to `path` (both endpoints when omitted), after any queued before.
   * `times` ≤ 0 removes the queued faults for that path instead (all of them when `path` is omitted).
   */
  script(fault: EutilsFault, times?: number, path?: "esearch" | "efetch"): void;
  /** Sets the latency added before every answer, ms. */
  setLatency(ms: number): void;
  /**
   * Makes PubMed unreachable: "hang" (default) accepts connections and never answers, as when packets are dropped;
   * "refuse" closes the listening socket and every open connection (connection refused). `false` restores service
   * on the same port.
   */
  setUnreachable(unreachable: boolean, mode?: "hang" | "refuse"): void;
  /**
   * Most requests (any client, any answer) in any sliding 1-second window, among those that arrived at or after `since`
   * (ms since the epoch).
   */
  maxRequestsPerSecond(since?: number): number;
  /** Closes the server and every connection, ending hung requests. */
  stop(): Promise<void>;
}

const JSON_TYPE = "application/json; charset=UTF-8";
const XML_TYPE = "text/xml; charset=UTF-8";
const ESEARCH_DOCTYPE =
  '<!DOCTYPE eSearchResult PUBLIC "-//NLM//DTD esearch 20060628//EN" "https://eutils.ncbi.nlm.nih.gov/eutils/dtd/20060628/esearch.dtd">';
const EFETCH_ERROR_DOCTYPE =
  '<!DOCTYPE eEfetchResult PUBLIC "-//NLM//DTD efetch 20131226//EN" "https://eutils.ncbi.nlm.nih.gov/eutils/dtd/20131226/efetch.dtd">';
const PUBMED_DOCTYPE =
  '<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2025//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_250101.dtd">';
/** NCBI's limits per site without and with an API key (NBK25497). */
const LIMIT_WITHOUT_KEY = 3;
const LIMIT_WITH_KEY = 10;
/** esearch and efetch return at most this many UIDs or records per request (NBK25499). */
const MAX_RETMAX = 10_000;
const DAY_MS = 86_400_000;

/**
 * PubMed's stop words that matter for topics (a subset of PubMed's list): dropped from plain-language terms, as
 * automatic term mapping drops them.
 */
const STOP_WORDS = new Set(
  (
    "a about again all almost also although always among an and another any are as at be because been before being between " +
    "both but by can could did do does done due during each either enough especially etc for found from further had has have " +
    "having here how however i if in into is it its itself just made mainly make may might most mostly must nearly neither no " +
    "nor obtained of often on our overall perhaps quite rather really regarding seem seen several should show showed shown " +
    "shows significantly since so some such than that the their theirs them then there therefore these they this those through " +
    "thus to upon use used using various very was we were what when which while with within without would"
  ).split(" "),
);

/**
 * The imitation's entry terms: a word (singular, lower case) → MeSH headings it maps to and other words it brings in,
 * standing in for PubMed's MeSH entry terms and the explosion of the heading to narrower ones. Deliberately few.
 */
const ENTRY_TERMS: Record<string, { mesh: string[]; words: string[] }> = {
  corticosteroid: {
    mesh: ["adrenal cortex hormones", "glucocorticoids"],
    words: ["corticosteroid", "corticosteroids", "glucocorticoid", "glucocorticoids", "steroid", "steroids"],
  },
  steroid: { mesh: ["steroids"], words: ["steroid", "steroids", "corticosteroid", "corticosteroids"] },
  cancer: {
    mesh: ["neoplasms"],
    words: ["cancer", "cancers", "neoplasm", "neoplasms", "tumor", "tumors", "tumour", "tumours"],
  },
  tumor: { mesh: ["neoplasms"], words: ["tumor", "tumors", "tumour", "tumours", "neoplasm", "neoplasms"] },
  "heart attack": { mesh: ["myocardial infarction"], words: [] },
  kid: { mesh: ["child"], words: ["kid", "kids", "child", "children"] },
};

const IRREGULAR_PLURALS: Record<string, string> = {
  children: "child",
  women: "woman",
  men: "man",
  feet: "foot",
  teeth: "tooth",
  mice: "mouse",
  people: "person",
  data: "datum",
  criteria: "criterion",
  phenomena: "phenomenon",
};

/**
 * The singular of an English noun, lightly: irregular plurals, -ies → -y, -(s|x|z|ch|sh)es → -, -s → - (not -ss, -us,
 * -is).
 */
export function singular(word: string): string {
  const w = word.toLowerCase();
  const irregular = IRREGULAR_PLURALS[w];
  if (irregular) return irregular;
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && /(s|x|z|ch|sh)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith("s") && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/** The plural of a singular noun, lightly (the inverse of `singular` for regular nouns). */
export function plural(word: string): string {
  const w = word.toLowerCase();
  for (const [p, s] of Object.entries(IRREGULAR_PLURALS)) if (s === w) return p;
  if (/[^aeiou]y$/.test(w)) return `${w.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(w)) return `${w}es`;
  return `${w}s`;
}

/** Lower-cased words of a text with diacritics removed (letters and digits; inner hyphens and apostrophes split). */
function tokens(text: string): string[] {
  return (
    text
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

const quote = (s: string) => `"${s.replace(/"/g, "")}"`;

/** The plain-language reading of a term (see the module comment). */
export interface PlainTranslation {
  /** PubMed-style translation, evaluated with the syntax module; "" when no word is left. */
  translation: string;
  /** One entry per word or phrase that maps to more than itself: NCBI's translationset. */
  translationSet: { from: string; to: string }[];
  /** The alternatives per word or phrase, for ranking (lower case). */
  concepts: string[][];
  /** Stop words left out (NCBI's warninglist.phrasesignored). */
  ignored: string[];
}

/**
 * Imitates automatic term mapping for a plain-language term.
 * @param meshHeadings lower-cased MeSH headings the records carry: a word naming one maps to it.
 * @param vocabulary the words of the records (as `tokens` makes them): a variant no record has is left out.
 */
export function translatePlainTerm(
  term: string,
  meshHeadings: ReadonlySet<string>,
  vocabulary: ReadonlySet<string>,
): PlainTranslation {
  const clauses: string[] = [];
  const translationSet: PlainTranslation["translationSet"] = [];
  const concepts: string[][] = [];
  const ignored: string[] = [];
  const parts = term.match(/"[^"]*"|[^\s"]+/g) ?? [];
  for (const part of parts) {
    if (part.startsWith('"')) {
      const phrase = tokens(part).join(" ");
      if (!phrase) continue;
      clauses.push(`${quote(phrase)}[All Fields]`);
      concepts.push([phrase]);
      continue;
    }
    for (const word of tokens(part)) {
      if (STOP_WORDS.has(word)) {
        ignored.push(word);
        continue;
      }
      const one = singular(word);
      const entry = ENTRY_TERMS[one] ?? ENTRY_TERMS[word];
      const mesh = new Set<string>(entry?.mesh ?? []);
      if (meshHeadings.has(one)) mesh.add(one);
      else if (meshHeadings.has(word)) mesh.add(word);
      // The word as typed, and its other number and entry terms where some record has them (PubMed's translation
      // lists the variants its index holds).
      const words = [...new Set([one, plural(one), ...(entry?.words ?? [])])].filter(
        (w) => w !== word && vocabulary.has(w),
      );
      words.push(word);
      words.sort();
      const alternatives = [
        ...[...mesh].sort().map((m) => `${quote(m)}[MeSH Terms]`),
        ...words.map((w) => `${quote(w)}[All Fields]`),
      ];
      const clause = alternatives.length > 1 ? `(${alternatives.join(" OR ")})` : alternatives[0]!;
      clauses.push(clause);
      concepts.push([...new Set([...words, ...mesh])]);
      if (mesh.size > 0 || entry) translationSet.push({ from: word, to: alternatives.join(" OR ") });
    }
  }
  return { translation: clauses.join(" AND "), translationSet, concepts, ignored };
}

/** A held record prepared for searching. */
interface Indexed {
  record: StandInRecord;
  /**
   * What the syntax module evaluates: the ParsedArticle itself (it has every field of a PubmedQueryRecord), so that
   * the module's per-record cache is shared by every stand-in and by tests that evaluate the same records.
   */
  query: PubmedQueryRecord;
  /** " word word " strings of the fields, for ranking and the vocabulary. */
  title: string;
  abstract: string;
  /** MeSH headings, keywords, authors and journal. */
  tags: string;
  edat: string | null;
  pdat: string | null;
}

function spaced(text: string | null | undefined): string {
  return ` ${tokens(text ?? "").join(" ")} `;
}

/** Ranking fields per record, shared by every stand-in of the process (tokenizing 3,000 abstracts takes ~0.1 s). */
const rankingFields = new WeakMap<StandInRecord, Pick<Indexed, "title" | "abstract" | "tags">>();
function rankingFieldsOf(r: StandInRecord): Pick<Indexed, "title" | "abstract" | "tags"> {
  let f = rankingFields.get(r);
  if (!f) {
    const a = r.article;
    f = {
      title: spaced(a.title),
      abstract: spaced(a.abstract),
      tags: spaced([...a.mesh_terms, ...a.keywords, a.authors ?? "", a.journal ?? ""].join(" ; ")),
    };
    rankingFields.set(r, f);
  }
  return f;
}

/** Whether a " word word " field has the word or phrase (`word*` as a prefix). */
function fieldHas(field: string, w: string): boolean {
  if (w.endsWith("*")) return field.includes(` ${tokens(w).join(" ")}`);
  const t = tokens(w).join(" ");
  return t !== "" && field.includes(` ${t} `);
}

/** The relevance score of a record for a query's concepts (each a list of alternatives). */
function score(x: Indexed, concepts: string[][]): number {
  let s = 0;
  for (const alternatives of concepts) {
    let best = 0;
    for (const w of alternatives) {
      const v = (fieldHas(x.title, w) ? 3 : 0) + (fieldHas(x.abstract, w) ? 1 : 0) + (fieldHas(x.tags, w) ? 1 : 0);
      if (v > best) best = v;
    }
    s += best;
  }
  return s;
}

/**
 * "YYYY", "YYYY/MM", "YYYY/MM/DD" (also with "-") → the first (`end` false) or last day it covers, ISO; null when
 * unreadable.
 */
export function ncbiDate(text: string, end: boolean): string | null {
  const m = /^(\d{4})(?:[/-](\d{1,2})(?:[/-](\d{1,2}))?)?$/.exec(text.trim());
  if (!m) return null;
  const y = Number(m[1]);
  const month = m[2] ? Number(m[2]) : end ? 12 : 1;
  if (month < 1 || month > 12) return null;
  const lastDay = new Date(Date.UTC(y, month, 0)).getUTCDate();
  const day = m[3] ? Number(m[3]) : end ? lastDay : 1;
  if (day < 1 || day > lastDay) return null;
  return `${m[1]}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

const slashed = (iso: string) => iso.replaceAll("-", "/");
const DATE_FIELDS: Record<string, string> = {
  edat: "Date - Entry",
  pdat: "Date - Publication",
  mdat: "Date - Modification",
};

/** A random WebEnv in NCBI's current form ("MCID_" and 24 hex digits). */
function newWebEnv(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `MCID_${Buffer.from(bytes).toString("hex")}`;
}

/** An answer before faults and latency: status, headers, body. */
interface Answer {
  status: number;
  type: string;
  body: string;
  headers?: Record<string, string>;
}

const xmlAnswer = (body: string, status = 200): Answer => ({ status, type: XML_TYPE, body });
const jsonAnswer = (body: unknown, status = 200): Answer => ({ status, type: JSON_TYPE, body: JSON.stringify(body) });

/**
 * Starts the stand-in on 127.0.0.1 at a free port.
 * @throws Error when the records cannot be loaded or the server cannot listen.
 */
export function startEutilsStandIn(opts: EutilsStandInOptions = {}): EutilsStandIn {
  const records = opts.records ?? loadStandInRecords();
  const now = opts.now ?? Date.now;
  const enforceRate = opts.enforceRate ?? true;
  const windowMs = 1000 - (opts.rateToleranceMs ?? 100);
  const limitWithoutKey = opts.limits?.withoutKey ?? LIMIT_WITHOUT_KEY;
  const limitWithKey = opts.limits?.withKey ?? LIMIT_WITH_KEY;
  let latencyMs = opts.latencyMs ?? 0;

  const byPmid = new Map<number, StandInRecord>();
  const indexed: Indexed[] = [];
  const meshHeadings = new Set<string>();
  for (const r of records) {
    if (byPmid.has(r.pmid)) continue;
    byPmid.set(r.pmid, r);
    const a = r.article;
    for (const m of a.mesh_terms) meshHeadings.add(m.toLowerCase());
    indexed.push({
      record: r,
      query: a,
      ...rankingFieldsOf(r),
      edat: a.entrez_date ?? a.publication_date,
      pdat: a.publication_date,
    });
  }

  /** Every word of the records' searchable fields, built at the first plain-language term. */
  let vocabulary: Set<string> | null = null;
  const words = () => {
    if (vocabulary) return vocabulary;
    vocabulary = new Set<string>();
    for (const x of indexed)
      for (const field of [x.title, x.abstract, x.tags]) for (const w of field.split(" ")) if (w) vocabulary.add(w);
    return vocabulary;
  };

  const requests: EutilsRequest[] = [];
  const faults: { fault: EutilsFault; path?: "esearch" | "efetch" }[] = [];
  /** WebEnv → result sets, query_key n at index n−1. */
  const histories = new Map<string, number[][]>();
  /** Per client (API key or IP): arrival times (performance.now()) within the last second. */
  const arrivals = new Map<string, number[]>();
  /** Resolvers of requests left hanging, so `stop()` can end them. */
  const hanging = new Set<() => void>();
  let unreachable: false | "hang" | "refuse" = false;

  // ---- esearch -------------------------------------------------------------------------------------------------

  /** How a term is read and what it matches, before date limits and order. */
  interface Reading {
    translation: string;
    /** Alternatives per query word, for ranking. */
    concepts: string[][];
    translationSet: PlainTranslation["translationSet"];
    /** Stop words dropped (warninglist.phrasesignored). */
    ignored: string[];
    /** Words no record has (errorlist.phrasesnotfound). */
    notFound: string[];
    /** warninglist.outputmessages. */
    messages: string[];
    matches: Indexed[];
  }
  /** Readings by term: the records never change, so a term is evaluated once. */
  const readings = new Map<string, Reading>();

  /** Reads a term as PubMed syntax or, failing that, as plain language (see the module comment). */
  function read(term: string): Reading {
    const known = readings.get(term);
    if (known) return known;
    const messages: string[] = [];
    let node: PubmedQueryNode | null = null;
    let reading: Reading | null = null;
    if (isPubmedSyntax(term)) {
      try {
        node = parsePubmedQuery(term);
        const ranked = pubmedQueryWords(node).map((w) => [w]);
        reading = {
          translation: translatePubmedQuery(node),
          concepts: ranked,
          translationSet: [],
          ignored: [],
          notFound: [],
          messages,
          matches: [],
        };
      } catch (error) {
        // NCBI repairs a query it cannot read (unbalanced parentheses…) and says so in warninglist.
        messages.push(error instanceof Error ? error.message : String(error));
      }
    }
    if (!reading) {
      const plain = translatePlainTerm(term.replace(/[()[\]]/g, " "), meshHeadings, words());
      node = plain.translation ? parsePubmedQuery(plain.translation) : null;
      const notFound: string[] = [];
      for (const alternatives of plain.concepts) {
        const one = parsePubmedQuery(alternatives.map((w) => `${quote(w)}[All Fields]`).join(" OR "));
        if (!indexed.some((x) => matchesRecord(one, x.query))) notFound.push(alternatives[0]!);
      }
      reading = {
        translation: plain.translation,
        concepts: plain.concepts,
        translationSet: plain.translationSet,
        ignored: plain.ignored,
        notFound,
        messages,
        matches: [],
      };
    }
    const evaluated = node;
    reading.matches = evaluated ? indexed.filter((x) => matchesRecord(evaluated, x.query)) : [];
    readings.set(term, reading);
    return reading;
  }

  function esearch(p: Record<string, string>): Answer {
    const json = (p.retmode ?? "xml").toLowerCase() === "json";
    const fail = (message: string): Answer =>
      json
        ? jsonAnswer({ header: { type: "esearch", version: "0.3" }, esearchresult: { ERROR: message } })
        : xmlAnswer(
            `<?xml version="1.0" encoding="UTF-8" ?>\n${ESEARCH_DOCTYPE}\n<eSearchResult><ERROR>${escapeXml(message)}</ERROR></eSearchResult>\n`,
          );
    const db = p.db ?? "pubmed";
    if (db !== "pubmed") return fail(`Invalid db name specified: ${db}`);
    const term = (p.term ?? "").trim();
    if (!term) return fail("Empty term and query_key - nothing todo");

    const { translation: termTranslation, concepts, translationSet, ignored, notFound, messages, matches } = read(term);
    let translation = termTranslation;
    const outputMessages = [...messages];

    // Date limits (NBK25499: reldate, or mindate with maxdate).
    const datetype = (p.datetype ?? "edat").toLowerCase();
    let from: string | null = null;
    let to: string | null = null;
    if (p.reldate && /^\d+$/.test(p.reldate)) {
      const today = new Date(now());
      to = today.toISOString().slice(0, 10);
      from = new Date(today.getTime() - Number(p.reldate) * DAY_MS).toISOString().slice(0, 10);
    } else if (p.mindate && p.maxdate) {
      from = ncbiDate(p.mindate, false);
      to = ncbiDate(p.maxdate, true);
      if (!from || !to) return fail(`Invalid date: ${!from ? p.mindate : p.maxdate}`);
    }
    const dateOf = (x: Indexed) => (datetype === "pdat" ? x.pdat : x.edat);
    if (from && to && translation)
      translation = `(${translation}) AND ${slashed(from)}:${slashed(to)}[${DATE_FIELDS[datetype] ?? DATE_FIELDS.edat}]`;

    const matched =
      from && to
        ? matches.filter((x) => {
            const d = dateOf(x);
            return d !== null && d >= from && d <= to;
          })
        : [...matches];

    // Order (NBK25499 sort).
    const sort = (p.sort ?? "").toLowerCase().replace(/[+ ]/g, "_");
    const byPmidDesc = (a: Indexed, b: Indexed) => b.record.pmid - a.record.pmid;
    const newer = (a: string | null, b: string | null) => (b ?? "").localeCompare(a ?? "");
    if (sort === "relevance") {
      const scores = new Map(matched.map((x) => [x, score(x, concepts)]));
      matched.sort(
        (a, b) => scores.get(b)! - scores.get(a)! || newer(a.pdat ?? a.edat, b.pdat ?? b.edat) || byPmidDesc(a, b),
      );
    } else if (sort === "pub_date" || sort === "pub_date_desc") {
      matched.sort((a, b) => newer(a.pdat, b.pdat) || byPmidDesc(a, b));
    } else if (sort === "first_author" || sort === "author") {
      matched.sort(
        (a, b) => (a.query.authors ?? "\uffff").localeCompare(b.query.authors ?? "\uffff") || byPmidDesc(a, b),
      );
    } else if (sort === "journal" || sort === "journalname") {
      matched.sort(
        (a, b) => (a.query.journal ?? "\uffff").localeCompare(b.query.journal ?? "\uffff") || byPmidDesc(a, b),
      );
    } else if (sort === "title") {
      matched.sort((a, b) => (a.query.title ?? "").localeCompare(b.query.title ?? "") || byPmidDesc(a, b));
    } else {
      matched.sort((a, b) => newer(a.edat, b.edat) || byPmidDesc(a, b));
    }
    const pmids = matched.map((x) => x.record.pmid);

    const count = pmids.length;
    if ((p.rettype ?? "").toLowerCase() === "count") {
      return json
        ? jsonAnswer({ header: { type: "esearch", version: "0.3" }, esearchresult: { count: String(count) } })
        : xmlAnswer(
            `<?xml version="1.0" encoding="UTF-8" ?>\n${ESEARCH_DOCTYPE}\n<eSearchResult><Count>${count}</Count></eSearchResult>\n`,
          );
    }
    const retstart = Math.max(0, Number.parseInt(p.retstart ?? "0", 10) || 0);
    const retmaxAsked = Number.parseInt(p.retmax ?? "20", 10);
    const retmax = Math.min(MAX_RETMAX, Math.max(0, Number.isNaN(retmaxAsked) ? 20 : retmaxAsked));
    const ids = pmids.slice(retstart, retstart + retmax);

    let webenv: string | null = null;
    let querykey: string | null = null;
    if ((p.usehistory ?? "").toLowerCase() === "y") {
      const given = p.WebEnv ?? p.webenv;
      webenv = given && histories.has(given) ? given : newWebEnv();
      const sets = histories.get(webenv) ?? [];
      sets.push(pmids);
      histories.set(webenv, sets);
      querykey = String(sets.length);
    }
    if (count === 0) outputMessages.push("No items found.");

    if (json) {
      const r: Record<string, unknown> = {
        count: String(count),
        retmax: String(ids.length),
        retstart: String(retstart),
      };
      if (querykey) r.querykey = querykey;
      if (webenv) r.webenv = webenv;
      r.idlist = ids.map(String);
      r.translationset = translationSet;
      r.querytranslation = translation;
      if (notFound.length) r.errorlist = { phrasesnotfound: notFound, fieldsnotfound: [] };
      if (ignored.length || outputMessages.length) {
        r.warninglist = { phrasesignored: ignored, quotedphrasesnotfound: [], outputmessages: outputMessages };
      }
      return jsonAnswer({ header: { type: "esearch", version: "0.3" }, esearchresult: r });
    }
    const parts = [`<Count>${count}</Count><RetMax>${ids.length}</RetMax><RetStart>${retstart}</RetStart>`];
    if (querykey && webenv) parts.push(`<QueryKey>${querykey}</QueryKey><WebEnv>${webenv}</WebEnv>`);
    parts.push(ids.length ? `<IdList>\n${ids.map((id) => `<Id>${id}</Id>\n`).join("")}</IdList>` : "<IdList/>");
    parts.push(
      translationSet.length
        ? `<TranslationSet>${translationSet.map((t) => `<Translation>     <From>${escapeXml(t.from)}</From>     <To>${escapeXml(t.to)}</To>    </Translation>`).join("")}</TranslationSet>`
        : "<TranslationSet/>",
    );
    parts.push(`<QueryTranslation>${escapeXml(translation)}</QueryTranslation>`);
    if (notFound.length)
      parts.push(
        `<ErrorList>${notFound.map((w) => `<PhraseNotFound>${escapeXml(w)}</PhraseNotFound>`).join("")}</ErrorList>`,
      );
    if (ignored.length || outputMessages.length) {
      parts.push(
        `<WarningList>${ignored.map((w) => `<PhraseIgnored>${escapeXml(w)}</PhraseIgnored>`).join("")}${outputMessages.map((m) => `<OutputMessage>${escapeXml(m)}</OutputMessage>`).join("")}</WarningList>`,
      );
    }
    return xmlAnswer(
      `<?xml version="1.0" encoding="UTF-8" ?>\n${ESEARCH_DOCTYPE}\n<eSearchResult>${parts.join("")}</eSearchResult>\n`,
    );
  }

  // ---- efetch --------------------------------------------------------------------------------------------------

  function efetch(p: Record<string, string>): Answer {
    const fail = (message: string) =>
      xmlAnswer(
        `<?xml version="1.0" encoding="UTF-8" ?>\n${EFETCH_ERROR_DOCTYPE}\n<eFetchResult>\n\t<ERROR>${escapeXml(message)}</ERROR>\n</eFetchResult>\n`,
      );
    const db = p.db ?? "";
    if (db !== "pubmed") return fail(db ? `Invalid db name specified: ${db}` : "Empty database name - nothing todo");
    let pmids: number[];
    const webenv = p.WebEnv ?? p.webenv;
    if (p.id !== undefined && p.id.trim() !== "") {
      pmids = [
        ...new Set(
          p.id
            .split(/[\s,]+/)
            .filter(Boolean)
            .map(Number)
            .filter((n) => Number.isInteger(n) && n > 0),
        ),
      ];
    } else if (webenv) {
      const key = Number.parseInt(p.query_key ?? "", 10);
      const set = histories.get(webenv)?.[key - 1];
      if (!set) return fail(`Unable to obtain query #${p.query_key ?? ""}`);
      const retstart = Math.max(0, Number.parseInt(p.retstart ?? "0", 10) || 0);
      const retmaxAsked = Number.parseInt(p.retmax ?? "20", 10);
      const retmax = Math.min(MAX_RETMAX, Math.max(0, Number.isNaN(retmaxAsked) ? 20 : retmaxAsked));
      pmids = set.slice(retstart, retstart + retmax);
    } else {
      return fail("Empty id list - nothing todo");
    }
    const held = pmids.map((pmid) => byPmid.get(pmid)).filter((r): r is StandInRecord => r !== undefined);
    const body = held.length
      ? `<?xml version="1.0" ?>\n${PUBMED_DOCTYPE}\n<PubmedArticleSet>\n${held.map((r) => r.xml).join("\n")}\n</PubmedArticleSet>\n`
      : `<?xml version="1.0" ?>\n${PUBMED_DOCTYPE}\n<PubmedArticleSet></PubmedArticleSet>\n`;
    return xmlAnswer(body);
  }

  // ---- the server ----------------------------------------------------------------------------------------------

  function rateLimited(client: string, key: string | undefined, t: number): Answer | null {
    const limit = key ? limitWithKey : limitWithoutKey;
    const times = (arrivals.get(client) ?? []).filter((at) => t - at < windowMs);
    times.push(t);
    arrivals.set(client, times);
    if (!enforceRate || times.length <= limit) return null;
    return {
      ...jsonAnswer(
        { error: "API rate limit exceeded", "api-key": client, count: String(times.length), limit: String(limit) },
        429,
      ),
      headers: { "X-RateLimit-Limit": String(limit), "X-RateLimit-Remaining": "0" },
    };
  }

  function faultAnswer(
    fault: Extract<EutilsFault, { kind: "status" }>,
    client: string,
    key: string | undefined,
  ): Answer {
    const headers: Record<string, string> =
      fault.retryAfter !== undefined ? { "Retry-After": String(fault.retryAfter) } : {};
    if (fault.status === 429) {
      const limit = key ? limitWithKey : limitWithoutKey;
      return {
        ...jsonAnswer(
          { error: "API rate limit exceeded", "api-key": client, count: String(limit + 1), limit: String(limit) },
          429,
        ),
        headers: { "X-RateLimit-Limit": String(limit), "X-RateLimit-Remaining": "0", ...headers },
      };
    }
    if (fault.status === 500)
      return { ...jsonAnswer({ error: "error forwarding request", "api-key": client }, 500), headers };
    const reason = fault.status === 502 ? "Bad Gateway" : "Service Unavailable";
    return {
      status: fault.status,
      type: "text/html; charset=UTF-8",
      body: `<html><head><title>${fault.status} ${reason}</title></head><body><h1>${reason}</h1></body></html>\n`,
      headers,
    };
  }

  const hang = (req: Request) =>
    new Promise<Response>((resolve) => {
      const end = () => {
        hanging.delete(end);
        resolve(new Response(null, { status: 504 }));
      };
      hanging.add(end);
      req.signal.addEventListener("abort", end, { once: true });
    });

  async function handle(req: Request, server: Bun.Server<undefined>): Promise<Response> {
    const url = new URL(req.url);
    const params: Record<string, string> = {};
    const add = (k: string, v: string) => (params[k] = params[k] === undefined ? v : `${params[k]},${v}`);
    for (const [k, v] of url.searchParams) add(k, v);
    if (req.method === "POST") {
      const type = req.headers.get("content-type") ?? "";
      if (type.includes("multipart/form-data")) {
        for (const [k, v] of await req.formData()) if (typeof v === "string") add(k, v);
      } else {
        for (const [k, v] of new URLSearchParams(await req.text())) add(k, v);
      }
    }
    const entry: EutilsRequest = { path: url.pathname, method: req.method, params, at: Date.now(), status: 0 };
    requests.push(entry);
    if (unreachable) return hang(req);

    const key = params.api_key || undefined;
    const client = key ?? server.requestIP(req)?.address ?? "127.0.0.1";
    const endpoint = url.pathname.endsWith("/esearch.fcgi")
      ? "esearch"
      : url.pathname.endsWith("/efetch.fcgi")
        ? "efetch"
        : null;

    let answer = rateLimited(client, key, performance.now());
    let truncate = false;
    let delay = latencyMs;
    if (!answer && endpoint) {
      const i = faults.findIndex((f) => f.path === undefined || f.path === endpoint);
      const fault = i >= 0 ? faults.splice(i, 1)[0]!.fault : null;
      if (fault?.kind === "hang") return hang(req);
      if (fault?.kind === "status") answer = faultAnswer(fault, client, key);
      if (fault?.kind === "truncated") truncate = true;
      if (fault?.kind === "slow") delay += fault.ms;
    }
    if (!answer) {
      // Let requests that arrived meanwhile be stamped first: this one's work (a search takes tens of ms) would
      // otherwise delay their arrival times.
      await new Promise((resolve) => setImmediate(resolve));
      if (!endpoint || (req.method !== "GET" && req.method !== "POST")) {
        answer = {
          status: 404,
          type: "text/html; charset=UTF-8",
          body: "<html><body><h1>404 Not Found</h1></body></html>\n",
        };
      } else {
        answer = endpoint === "esearch" ? esearch(params) : efetch(params);
      }
    }
    if (truncate) answer = { ...answer, body: answer.body.slice(0, Math.floor(answer.body.length * 0.6)) };
    if (delay > 0) await Bun.sleep(delay);
    entry.status = answer.status;
    return new Response(answer.body, {
      status: answer.status,
      headers: { "Content-Type": answer.type, ...answer.headers },
    });
  }

  const serve = (port: number) =>
    Bun.serve({
      hostname: "127.0.0.1",
      port,
      // A hung request must stay open as long as the client waits (Bun closes idle connections after 10 s by default).
      idleTimeout: 0,
      fetch: handle,
    });
  let server = serve(0);
  const port = server.port!;

  return {
    url: `http://127.0.0.1:${port}/entrez/eutils/`,
    port,
    requests,
    records: byPmid,
    script(fault, times = 1, path) {
      if (times <= 0) {
        for (let i = faults.length - 1; i >= 0; i--)
          if (path === undefined || faults[i]!.path === path) faults.splice(i, 1);
        return;
      }
      for (let i = 0; i < times; i++) faults.push({ fault, path });
    },
    setLatency(ms) {
      latencyMs = Math.max(0, ms);
    },
    setUnreachable(on, mode = "hang") {
      const next = on ? mode : false;
      if (unreachable === "refuse" && next !== "refuse") server = serve(port);
      if (next === "refuse" && unreachable !== "refuse") {
        for (const end of [...hanging]) end();
        void server.stop(true);
      }
      unreachable = next;
    },
    maxRequestsPerSecond(since = 0) {
      const times = requests
        .filter((r) => r.at >= since)
        .map((r) => r.at)
        .sort((a, b) => a - b);
      let best = 0;
      for (let i = 0, j = 0; j < times.length; j++) {
        while (times[j]! - times[i]! >= windowMs) i++;
        best = Math.max(best, j - i + 1);
      }
      return best;
    },
    async stop() {
      for (const end of [...hanging]) end();
      await server.stop(true);
    },
  };
}

/**
 * Starts the stand-in as a process of its own (so that its work is not counted in the caller's CPU time, as the
 * benchmarks need) with `latencyMs` added to every answer. @returns its base URL and a stop function.
 */
export async function spawnEutilsStandIn(latencyMs: number): Promise<{ url: string; stop: () => void }> {
  const proc = Bun.spawn([process.execPath, import.meta.path, "--latency-ms", String(latencyMs)], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = proc.stdout.getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the E-utilities stand-in exited before it was ready");
    text += new TextDecoder().decode(value);
    const line = text.split("\n").find((l) => l.startsWith("{"));
    if (line)
      return { url: (JSON.parse(line) as { PUBMED_EUTILS_URL: string }).PUBMED_EUTILS_URL, stop: () => proc.kill() };
  }
}

// As a process of its own (the browser tests' server and the benchmarks use it so, with NCBI's rate enforced and its
// latency): `bun tests/support/eutils-stand-in.ts [--latency-ms N]` prints one JSON line with the URL, then serves
// until SIGTERM.
if (import.meta.main) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const standIn = startEutilsStandIn({ latencyMs: Number(arg("latency-ms") ?? 0) });
  // The parent process reads this line for the address.
  console.log(JSON.stringify({ ready: true, PUBMED_EUTILS_URL: standIn.url }));
  const stop = () => void standIn.stop().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
