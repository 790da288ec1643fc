// Search latency benchmark for the PostgreSQL full-text adapter (PostgresSearchIndex).
//
//   bun scripts/bench/bench-search.ts --records 100000 [--database-url postgres://postgres@127.0.0.1:5432/postgres]
//        [--rounds 5] [--limit 20] [--reuse] [--keep] [--compare-exact] [--verbose]
//        [--corpus bench-data/pubmed-<records>.xml.gz] [--seed sample/pubmed/merged-pubmedarticleset.xml.gz]
//
// Loads a corpus of N records into a fresh database (lr_bench_search_<N>) on the server of --database-url
// (default TEST_DATABASE_URL, else the local server), runs the 50 fixed queries below a warm-up round plus
// --rounds times in shuffled order, and prints p50/p95/p99/max latency in milliseconds, as measured by the
// caller (query analysis, candidate drawing, scoring and the round trips), with the machine's load average
// (the benchmark server is shared). --compare-exact also ranks each query with an unbounded candidate
// budget (exhaustive BM25) and reports how much of that top 10 the bounded search returns. --reuse keeps an
// already loaded database of the right size; --keep does not drop it at the end.
//
// The corpus is synthetic (say so wherever numbers are quoted). By default it is the benchmark file of
// scripts/bench/generate-corpus.ts (bench-data/pubmed-<N>.xml.gz: records recombined from the real sample),
// loaded through the ingest pipeline (search/ingest.ts: parse, upsert, PostgresSearchIndex.index()). When
// that file is missing, a simpler built-in generator inserts articles directly: each record takes the title
// and MeSH headings of one record of --seed, about 60% of its abstract sentences plus one to four sentences
// drawn from the whole pool, and a year in 1975-2025 skewed to recent years, then indexes them in batches.
// The benchmark file goes through the ingest as a deployment's would; the built-in generator's load drops the
// GIN indexes and builds them after it. Then VACUUM ANALYZE runs, as after any bulk load.

import { sql, type Kysely } from "kysely";
import postgres from "postgres";
import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { gunzipSync } from "node:zlib";
import { parseArgs } from "node:util";
import { openDatabase } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrator.ts";
import type { DB } from "../../src/db/types.ts";
import { ingestFiles } from "../../search/ingest.ts";
import { PostgresSearchIndex } from "../../search/postgres-index.ts";
import type { IndexableArticle } from "../../search/search-index.ts";

import { BENCH_QUERIES } from "./queries.ts";

interface Seed {
  title: string;
  sentences: string[];
  mesh: string[];
  keywords: string[];
}

/** Reads seed records from PubMed XML with a small tolerant scanner (titles, abstract sentences, MeSH, keywords). */
function readSeeds(path: string): Seed[] {
  const raw = readFileSync(path);
  const xml = (path.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8");
  const text = (s: string) =>
    s
      .replace(/<[^>]+>/g, "")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
      .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
      .replace(/&amp;/g, "&")
      .trim();
  const seeds: Seed[] = [];
  for (const m of xml.matchAll(/<(PubmedArticle|MedlineCitation)[\s>][\s\S]*?<\/\1>/g)) {
    const b = m[0];
    const title = text(b.match(/<ArticleTitle[^>]*>([\s\S]*?)<\/ArticleTitle>/)?.[1] ?? "");
    if (!title) continue;
    const abstract = [...b.matchAll(/<AbstractText[^>]*>([\s\S]*?)<\/AbstractText>/g)]
      .map((x) => text(x[1]!))
      .join(" ");
    seeds.push({
      title,
      sentences: abstract ? abstract.split(/(?<=[.!?])\s+(?=[A-Z(])/) : [],
      mesh: [...b.matchAll(/<DescriptorName[^>]*>([\s\S]*?)<\/DescriptorName>/g)].map((x) => text(x[1]!)),
      keywords: [...b.matchAll(/<Keyword[^>]*>([\s\S]*?)<\/Keyword>/g)].map((x) => text(x[1]!)),
    });
  }
  return seeds;
}

/** Deterministic PRNG (mulberry32) so that a corpus of N records is the same on every run. */
function prng(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The i-th synthetic record (PMIDs 1..N). */
function synthesise(seeds: Seed[], pool: string[], rnd: () => number, pmid: number): IndexableArticle {
  const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)]!;
  const seed = pick(seeds);
  const sentences = seed.sentences.filter(() => rnd() < 0.6);
  if (seed.sentences.length > 0) {
    const extra = 1 + Math.floor(rnd() * 4);
    for (let j = 0; j < extra; j++) sentences.splice(Math.floor(rnd() * (sentences.length + 1)), 0, pick(pool));
  }
  return {
    pmid,
    title: seed.title,
    abstract: sentences.length ? sentences.join(" ") : null,
    mesh_terms: [...seed.mesh.filter(() => rnd() < 0.8), ...pick(seeds).mesh.slice(0, 1)],
    keywords: seed.keywords,
    publication_year: 1975 + Math.floor(Math.sqrt(rnd()) * 51),
  };
}

async function dropSearchIndexes(db: Kysely<DB>): Promise<void> {
  await sql`DROP INDEX IF EXISTS article_search_document_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS article_search_title_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS article_search_tiers_idx`.execute(db);
}

async function buildSearchIndexes(db: Kysely<DB>, started: number): Promise<void> {
  await sql`SET maintenance_work_mem = '512MB'`.execute(db);
  await sql`CREATE INDEX article_search_document_idx ON article_search USING gin (document)`.execute(db);
  await sql`CREATE INDEX article_search_title_idx ON article_search USING gin (title_document)`.execute(db);
  await sql`CREATE INDEX article_search_tiers_idx ON article_search_tiers USING gin (tiers)`.execute(db);
  await vacuumAnalyze(db, started);
}

async function vacuumAnalyze(db: Kysely<DB>, started: number): Promise<void> {
  await sql`VACUUM ANALYZE article_search`.execute(db);
  await sql`VACUUM ANALYZE article_search_tiers`.execute(db);
  await sql`VACUUM ANALYZE search_lexeme_stats`.execute(db);
  await sql`VACUUM ANALYZE articles`.execute(db);
  console.error(`load + index build: ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/**
 * Loads the generator's benchmark file through the ingest pipeline, indexes and all, exactly as `npm run ingest`
 * builds a deployment's index (GIN pending lists merged by the ingest's refresh).
 */
async function loadCorpusFile(db: Kysely<DB>, file: string): Promise<number> {
  const started = performance.now();
  let last = 0;
  const result = await ingestFiles({ db, search: new PostgresSearchIndex(db) }, [file], {
    onProgress: (p) => {
      if (p.file !== null && p.seconds - last >= 30) {
        last = p.seconds;
        console.error(
          `ingested ${p.records} records in ${p.seconds.toFixed(0)} s (${Math.round(p.recordsPerSecond)}/s)`,
        );
      }
    },
    onError: (m) => console.error(m),
  });
  console.error(`ingest: ${result.ingested} records, ${result.errors} errors, ${result.seconds.toFixed(0)} s`);
  await vacuumAnalyze(db, started);
  return result.ingested;
}

async function loadSynthetic(db: Kysely<DB>, records: number, seedPath: string): Promise<void> {
  const seeds = readSeeds(seedPath);
  const pool = seeds.flatMap((s) => s.sentences);
  if (seeds.length === 0 || pool.length === 0) throw new Error(`no usable records in ${seedPath}`);
  console.error(`seed: ${seeds.length} records, ${pool.length} sentences from ${seedPath}`);
  const rnd = prng(20261121);
  const index = new PostgresSearchIndex(db);
  await dropSearchIndexes(db);
  const started = performance.now();
  const batch = 2_000;
  for (let i = 0; i < records; i += batch) {
    const rows = Array.from({ length: Math.min(batch, records - i) }, (_, j) =>
      synthesise(seeds, pool, rnd, i + j + 1),
    );
    const payload = JSON.stringify(rows);
    await sql`
      INSERT INTO articles (pmid, title, abstract, publication_year, publication_date, mesh_terms, keywords, content_hash)
      SELECT x.pmid, x.title, x.abstract, x.publication_year, make_date(x.publication_year, 1, 1),
             ARRAY(SELECT jsonb_array_elements_text(x.mesh_terms)), ARRAY(SELECT jsonb_array_elements_text(x.keywords)),
             md5(x.pmid::text)
      FROM jsonb_to_recordset(${payload}::text::jsonb)
        AS x(pmid integer, title text, abstract text, publication_year integer, mesh_terms jsonb, keywords jsonb)`.execute(
      db,
    );
    await index.index(rows.map((r) => r.pmid));
    if ((i / batch) % 25 === 0 || i + batch >= records)
      console.error(
        `loaded ${Math.min(i + batch, records)} / ${records} in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
  }
  await buildSearchIndexes(db, started);
  // As an ingest ends: the impact lists of frequent lexemes (docs/decisions/0022-impact-ordered-postings.md).
  const listsStarted = performance.now();
  const built = await index.refreshLists();
  console.error(`impact lists: ${built} built in ${((performance.now() - listsStarted) / 1000).toFixed(0)} s`);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

function shuffle<T>(a: T[], rnd: () => number): T[] {
  const out = [...a];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The command line, checked. @throws Error when --records, --rounds or --limit is not a positive integer. */
function readOptions() {
  const { values } = parseArgs({
    options: {
      records: { type: "string", default: "100000" },
      "database-url": { type: "string" },
      rounds: { type: "string", default: "5" },
      limit: { type: "string", default: "20" },
      seed: { type: "string", default: "sample/pubmed/merged-pubmedarticleset.xml.gz" },
      corpus: { type: "string" },
      reuse: { type: "boolean", default: false },
      keep: { type: "boolean", default: false },
      "compare-exact": { type: "boolean", default: false },
      verbose: { type: "boolean", default: false },
    },
  });
  const records = Number(values.records);
  const rounds = Number(values.rounds);
  const limit = Number(values.limit);
  for (const [name, v] of [
    ["--records", records],
    ["--rounds", rounds],
    ["--limit", limit],
  ] as const)
    if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive integer`);
  const adminUrl =
    values["database-url"] ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const corpus = values.corpus ?? `bench-data/pubmed-${records}.xml.gz`;
  return { values, records, rounds, limit, adminUrl, corpus, fromFile: existsSync(corpus) };
}

type Options = ReturnType<typeof readOptions>;

/**
 * Makes the benchmark database ready: checks a reused one holds articles, else migrates the fresh one and loads the
 * corpus file through the ingest, or the built-in generator's records when the file is missing.
 * @throws Error when a reused database is empty, or when neither the corpus nor the seed file exists.
 */
async function prepareDatabase(db: Kysely<DB>, name: string, reuse: boolean, options: Options): Promise<void> {
  const { corpus, fromFile, records, values } = options;
  if (reuse) {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::integer AS n FROM article_search`.execute(db);
    if (!rows[0]?.n) throw new Error(`${name} exists but is empty; run without --reuse to rebuild it`);
    console.error(`reusing ${name}`);
    return;
  }
  await migrateToLatest(db);
  if (fromFile) {
    console.error(`corpus: ${corpus} through the ingest pipeline`);
    await loadCorpusFile(db, corpus);
  } else {
    if (!existsSync(values.seed)) throw new Error(`neither ${corpus} nor the seed file ${values.seed} exists`);
    console.error(`corpus: ${corpus} not found; built-in generator from ${values.seed}`);
    await loadSynthetic(db, records, values.seed);
  }
}

/**
 * A warm-up round of BENCH_QUERIES, then `rounds` rounds in shuffled order, each query timed as the caller sees it.
 * @returns every time (ms, sorted), each query's times, and the 1-minute load average before the timed rounds.
 */
async function timeQueries(index: PostgresSearchIndex, rounds: number, limit: number) {
  const rnd = prng(7);
  // Warm-up round: fills caches the way a running server has them.
  for (const q of BENCH_QUERIES) await index.search(q, { limit });
  const loadBefore = loadavg()[0]!;
  const all: number[] = [];
  const perQuery = new Map<string, number[]>();
  for (let r = 0; r < rounds; r++) {
    for (const q of shuffle([...BENCH_QUERIES], rnd)) {
      const t0 = performance.now();
      await index.search(q, { limit });
      const ms = performance.now() - t0;
      all.push(ms);
      perQuery.set(q, [...(perQuery.get(q) ?? []), ms]);
    }
  }
  all.sort((a, b) => a - b);
  return { all, perQuery, loadBefore };
}

/** Prints the latency percentiles and the eight slowest queries by median. */
function reportLatency(
  options: Options,
  size: { size: string; n: number } | undefined,
  { all, perQuery, loadBefore }: Awaited<ReturnType<typeof timeQueries>>,
): void {
  const { fromFile, corpus, rounds, limit } = options;
  const f = (x: number) => x.toFixed(1);
  console.log(
    `records: ${size?.n} (synthetic, ${fromFile ? corpus : "built-in generator"}), article_search: ${size?.size}, ` +
      `queries: ${BENCH_QUERIES.length} × ${rounds} rounds, limit ${limit}, load average ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log(
    `latency ms: p50 ${f(percentile(all, 50))}  p95 ${f(percentile(all, 95))}  p99 ${f(percentile(all, 99))}  max ${f(all[all.length - 1]!)}`,
  );
  const slowest = [...perQuery.entries()]
    .map(([q, t]) => ({
      q,
      median: percentile(
        [...t].sort((a, b) => a - b),
        50,
      ),
    }))
    .sort((a, b) => b.median - a.median)
    .slice(0, 8);
  console.log("slowest queries (median ms):");
  for (const s of slowest) console.log(`  ${f(s.median).padStart(6)}  ${s.q}`);
}

/**
 * Ranks each query's top 10 with the bounded search and with an unbounded candidate budget (exhaustive BM25), and
 * prints the mean overlap and score ratio (each query's too when `verbose`).
 */
async function compareExact(db: Kysely<DB>, index: PostgresSearchIndex, verbose: boolean): Promise<void> {
  const exact = new PostgresSearchIndex(db, { candidateBudget: Number.MAX_SAFE_INTEGER });
  let overlap = 0;
  let scoreRecall = 0;
  let counted = 0;
  for (const q of BENCH_QUERIES) {
    const [bounded, full] = await Promise.all([index.search(q, { limit: 10 }), exact.search(q, { limit: 10 })]);
    if (full.hits.length === 0) continue;
    const ids = new Set(full.hits.map((h) => h.pmid));
    const o = bounded.hits.filter((h) => ids.has(h.pmid)).length / full.hits.length;
    const sum = (hs: { score: number }[]) => hs.reduce((s, h) => s + h.score, 0);
    const r = sum(bounded.hits) / sum(full.hits);
    if (verbose) console.log(`  overlap ${o.toFixed(1)}  score ratio ${r.toFixed(3)}  ${q}`);
    overlap += o;
    scoreRecall += r;
    counted++;
  }
  console.log(
    `vs exhaustive BM25 over ${counted} queries: top-10 overlap ${(overlap / counted).toFixed(3)}, ` +
      `top-10 score ratio ${(scoreRecall / counted).toFixed(3)}`,
  );
}

async function main() {
  const options = readOptions();
  const { values, records, rounds, limit, adminUrl, fromFile } = options;
  const name = `lr_bench_search_${records}${fromFile ? "" : "_builtin"}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const exists = (await admin`SELECT 1 FROM pg_database WHERE datname = ${name}`).length > 0;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const reuse = values.reuse && exists;
  if (!reuse) {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.unsafe(`CREATE DATABASE ${name}`);
  }
  // The application's own driver (src/db/database.ts), as the server runs it.
  const handle = openDatabase({ databaseUrl: url.toString(), dataDir: "", poolSize: 2 });
  const db = handle.db;
  try {
    await prepareDatabase(db, name, reuse, options);
    const { rows: sizeRows } = await sql<{ size: string; n: number }>`
      SELECT pg_size_pretty(pg_total_relation_size('article_search')) AS size, (SELECT count(*)::integer FROM article_search) AS n`.execute(
      db,
    );
    const index = new PostgresSearchIndex(db);
    reportLatency(options, sizeRows[0], await timeQueries(index, rounds, limit));
    if (values["compare-exact"]) await compareExact(db, index, values.verbose);
  } finally {
    await handle.close();
    if (!values.keep && !values.reuse) await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
