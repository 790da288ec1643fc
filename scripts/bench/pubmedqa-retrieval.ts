// Retrieval quality of PostgresSearchIndex on PubMedQA (Jin et al., EMNLP 2019, the 1,000 expert-annotated
// instances, "PQA-L"): each instance's abstract is indexed, each QUESTION is searched, and we count how often
// the question's own PMID comes back in the top 10 (hit@10) and its mean reciprocal rank (MRR@10).
//
//   bun scripts/bench/pubmedqa-retrieval.ts [--backend pglite|postgres|both] [--file sample/pubmedqa/ori_pqal.json.gz]
//        [--database-url postgres://postgres@127.0.0.1:5432/postgres] [--exhaustive] [--show-misses]
//
// What is indexed per instance: no title (PubMedQA has none; QUESTION is usually the title rephrased, so
// indexing it would make the task trivial), the CONTEXTS joined as the abstract with their section labels
// ("BACKGROUND: …"), the MESHES as MeSH terms, YEAR. The conclusion (LONG_ANSWER) is left out, as in
// PubMedQA's own setting. PostgreSQL runs in a fresh database (lr_bench_pubmedqa_<random>) dropped at the end.

import { sql, type Kysely } from "kysely";
import postgres from "postgres";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { parseArgs } from "node:util";
import { openDatabase } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrator.ts";
import type { DB } from "../../src/db/types.ts";
import { PostgresSearchIndex } from "../../search/postgres-index.ts";
import type { IndexableArticle } from "../../search/search-index.ts";

interface Instance {
  QUESTION: string;
  CONTEXTS: string[];
  LABELS: string[];
  MESHES: string[];
  YEAR: string | null;
}

export interface RetrievalReport {
  questions: number;
  hitAt1: number;
  hitAt10: number;
  mrrAt10: number;
  /** Median and 95th-percentile search latency, ms. */
  p50: number;
  p95: number;
  misses: { pmid: number; question: string; rank: number | null }[];
}

/** Maps one PubMedQA instance to what the index needs (abstract = labelled contexts, MeSH, year; no title). */
export function toArticle(pmid: number, x: Instance): IndexableArticle {
  const abstract = x.CONTEXTS.map((c, i) => (x.LABELS[i] ? `${x.LABELS[i]}: ${c}` : c)).join("\n");
  const year = x.YEAR ? Number.parseInt(x.YEAR, 10) : NaN;
  return {
    pmid,
    title: null,
    abstract,
    mesh_terms: x.MESHES ?? [],
    keywords: [],
    publication_year: Number.isFinite(year) ? year : null,
  };
}

/** Loads the instances into `db` (articles + index) and measures retrieval of each question's own PMID. */
export async function evaluate(
  db: Kysely<DB>,
  data: Record<string, Instance>,
  candidateBudget?: number,
): Promise<RetrievalReport> {
  const articles = Object.entries(data).map(([pmid, x]) => toArticle(Number(pmid), x));
  const payload = JSON.stringify(articles);
  await sql`
    INSERT INTO articles (pmid, title, abstract, publication_year, mesh_terms, content_hash)
    SELECT x.pmid, x.title, x.abstract, x.publication_year, ARRAY(SELECT jsonb_array_elements_text(x.mesh_terms)), md5(x.pmid::text)
    FROM jsonb_to_recordset(${payload}::text::jsonb) AS x(pmid integer, title text, abstract text, publication_year integer, mesh_terms jsonb)`.execute(
    db,
  );
  await new PostgresSearchIndex(db).index(articles.map((a) => a.pmid));
  const index = new PostgresSearchIndex(db, { candidateBudget });

  let hit1 = 0;
  let hit10 = 0;
  let rr = 0;
  const times: number[] = [];
  const misses: RetrievalReport["misses"] = [];
  for (const [key, x] of Object.entries(data)) {
    const pmid = Number(key);
    const t0 = performance.now();
    const { hits } = await index.search(x.QUESTION, { limit: 10 });
    times.push(performance.now() - t0);
    const at = hits.findIndex((h) => h.pmid === pmid);
    if (at === 0) hit1++;
    if (at >= 0) {
      hit10++;
      rr += 1 / (at + 1);
    } else misses.push({ pmid, question: x.QUESTION, rank: null });
  }
  times.sort((a, b) => a - b);
  const n = articles.length;
  return {
    questions: n,
    hitAt1: hit1 / n,
    hitAt10: hit10 / n,
    mrrAt10: rr / n,
    p50: times[Math.floor(0.5 * (n - 1))] ?? NaN,
    p95: times[Math.ceil(0.95 * n) - 1] ?? NaN,
    misses,
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      backend: { type: "string", default: "both" },
      file: { type: "string", default: "sample/pubmedqa/ori_pqal.json.gz" },
      "database-url": { type: "string" },
      "show-misses": { type: "boolean", default: false },
      // Scores every matching abstract (exhaustive BM25), to compare with the bounded candidate set.
      exhaustive: { type: "boolean", default: false },
    },
  });
  const raw = readFileSync(values.file);
  const data = JSON.parse((values.file.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8")) as Record<
    string,
    Instance
  >;
  const backends = values.backend === "both" ? ["pglite", "postgres"] : [values.backend];
  const budget = values.exhaustive ? Number.MAX_SAFE_INTEGER : undefined;
  for (const backend of backends) {
    let report: RetrievalReport;
    if (backend === "pglite") {
      const handle = openDatabase({ dataDir: "memory://" });
      try {
        await migrateToLatest(handle.db);
        report = await evaluate(handle.db, data, budget);
      } finally {
        await handle.close();
      }
    } else if (backend === "postgres") {
      const adminUrl =
        values["database-url"] ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
      const name = `lr_bench_pubmedqa_${Math.random().toString(36).slice(2, 8)}`;
      const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await admin.unsafe(`CREATE DATABASE ${name}`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const handle = openDatabase({ databaseUrl: url.toString(), dataDir: "", poolSize: 2 });
      try {
        await migrateToLatest(handle.db);
        report = await evaluate(handle.db, data, budget);
      } finally {
        await handle.close();
        await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
    } else throw new Error(`unknown backend ${backend}`);
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
    console.log(
      `${backend}: ${report.questions} questions, hit@1 ${pct(report.hitAt1)}, hit@10 ${pct(report.hitAt10)}, ` +
        `MRR@10 ${report.mrrAt10.toFixed(3)}, search p50 ${report.p50.toFixed(1)} ms, p95 ${report.p95.toFixed(1)} ms`,
    );
    if (values["show-misses"]) for (const m of report.misses) console.log(`  miss ${m.pmid}: ${m.question}`);
  }
}

if (import.meta.main) await main();
