import { sql, type Kysely } from "kysely";
import type { DB } from "../../src/db/types.ts";
import { bm25Idf, queryTermWeight, type QuerySegment, type WeightedTerm } from "../query.ts";

/** A query as the statistics see it: its weighted lexemes, phrases, exclusions and the corpus figures. */
export interface QueryAnalysis {
  terms: WeightedTerm[];
  /** Quoted phrases of two or more indexed words: a boost for documents containing them. */
  phrases: { query: string; weight: number; df: number }[];
  /** tsquery text every hit must match (the exclusions), or null. */
  filter: string | null;
  documents: number;
  avgLength: number;
  /** Impact lists of the query's lexemes that have one (see LIST_MIN_DF). */
  lists: Map<string, { floor: number; avgdl: number }>;
}

/**
 * Turns segments into weighted lexemes (with df from the statistics), phrase boosts, the exclusion filter
 * and the corpus statistics, in one round trip. Also sets the transaction-local planner settings.
 */
export async function analyse(db: Kysely<DB>, segments: QuerySegment[], maxTerms: number): Promise<QueryAnalysis> {
  const payload = JSON.stringify(segments);
  const { rows } = await sql<{
    seg: number;
    kind: string;
    lexeme: string | null;
    qtf: number | null;
    df: number | null;
    title_df: number | null;
    tsq: string | null;
    floor: number | null;
    list_avgdl: number | null;
  }>`
    WITH settings AS (
      SELECT set_config('jit', 'off', true), set_config('max_parallel_workers_per_gather', '0', true),
             set_config('enable_seqscan', 'off', true)
    ), seg AS (
      SELECT s.i::integer AS i, s.value->>'kind' AS kind, s.value->>'text' AS txt
      FROM jsonb_array_elements(${payload}::text::jsonb) WITH ORDINALITY AS s(value, i)
    )
    SELECT seg.i AS seg, seg.kind, u.lexeme, coalesce(array_length(u.positions, 1), 1) AS qtf,
           coalesce(st.df, 0)::float8 AS df, coalesce(st.title_df, 0)::float8 AS title_df, NULL::text AS tsq,
           tl.floor::float8 AS floor, tl.avgdl AS list_avgdl
    FROM seg CROSS JOIN LATERAL unnest(to_tsvector('english', seg.txt)) u
    LEFT JOIN search_lexeme_stats st ON st.lexeme = u.lexeme
    LEFT JOIN search_term_lists tl ON tl.lexeme = u.lexeme
    WHERE seg.kind <> 'exclude'
    UNION ALL
    SELECT seg.i, seg.kind, NULL, NULL, NULL, NULL, phraseto_tsquery('english', seg.txt)::text, NULL, NULL
    FROM seg WHERE seg.kind <> 'free' AND length(to_tsvector('english', seg.txt)) > 0
    UNION ALL
    SELECT 0, 'stats', lexeme, NULL, df::float8, NULL, NULL, NULL, NULL FROM search_lexeme_stats WHERE lexeme IN (' documents', ' length')
    UNION ALL
    SELECT 0, 'settings', NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM settings`.execute(db);

  let documents = 0;
  let totalLength = 0;
  const qtf = new Map<string, { qtf: number; df: number; titleDf: number }>();
  const segLexemes = new Map<number, Set<string>>();
  const phraseQueries = new Map<number, string>();
  const excluded: string[] = [];
  const lists = new Map<string, { floor: number; avgdl: number }>();
  for (const r of rows) {
    if (r.kind === "settings") continue;
    if (r.kind === "stats") {
      if (r.lexeme === " documents") documents = Number(r.df);
      else totalLength = Number(r.df);
    } else if (r.tsq !== null) {
      if (r.kind === "exclude") excluded.push(r.tsq);
      else phraseQueries.set(r.seg, r.tsq);
    } else if (r.lexeme !== null) {
      const prev = qtf.get(r.lexeme);
      qtf.set(r.lexeme, {
        qtf: (prev?.qtf ?? 0) + Number(r.qtf ?? 1),
        df: Number(r.df ?? 0),
        titleDf: Number(r.title_df ?? 0),
      });
      segLexemes.set(r.seg, (segLexemes.get(r.seg) ?? new Set()).add(r.lexeme));
      if (r.floor !== null && r.list_avgdl !== null)
        lists.set(r.lexeme, { floor: Number(r.floor), avgdl: Number(r.list_avgdl) });
    }
  }
  const idf = (df: number) => bm25Idf(documents, df);
  const terms = [...qtf.entries()]
    .filter(([, s]) => s.df > 0)
    .map(([lexeme, s]) => ({ lexeme, df: s.df, titleDf: s.titleDf, weight: idf(s.df) * queryTermWeight(s.qtf) }))
    .sort((a, b) => b.weight - a.weight || a.lexeme.localeCompare(b.lexeme))
    .slice(0, maxTerms);
  // A phrase is scored as one more term found once, with the idf of its words summed (the idf of a
  // conjunction of independent terms); a phrase with an unindexed word cannot match and is dropped.
  const phrases: QueryAnalysis["phrases"] = [];
  for (const [seg, query] of phraseQueries) {
    const lexemes = [...(segLexemes.get(seg) ?? [])];
    if (lexemes.length < 2 || lexemes.some((l) => !(qtf.get(l)?.df ?? 0))) continue;
    const dfs = lexemes.map((l) => qtf.get(l)!.df);
    phrases.push({ query, weight: dfs.reduce((sum, df) => sum + idf(df), 0), df: Math.min(...dfs) });
  }
  return {
    terms,
    phrases,
    filter: excluded.length ? excluded.map((q) => `!(${q})`).join(" & ") : null,
    documents,
    avgLength: documents > 0 ? Math.max(totalLength / documents, 1) : 1,
    lists,
  };
}
