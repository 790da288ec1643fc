import { ANALYZER, analysisSettings } from "./analysis.ts";

/**
 * The mapping of an index version. MAPPING_VERSION changes with any change here (a new version and a reindex):
 * 2 = the analysis aligned with PostgreSQL's (analysis.ts) instead of the built-in `english` analyzer.
 */
export const MAPPING_VERSION = 2;

/** Shards and replicas of a new index version (ELASTICSEARCH_SHARDS, ELASTICSEARCH_REPLICAS). */
export interface IndexLayout {
  shards: number;
  replicas: number;
}

/** One shard (a corpus up to ~10 M records, docs/scaling.md), one replica (Elasticsearch's default). */
export const DEFAULT_LAYOUT: IndexLayout = { shards: 1, replicas: 1 };

/** How often a serving index makes new writes searchable (Elasticsearch's default). */
export const SERVING_REFRESH = "1s";

/**
 * Settings and mappings of a new index version, as created for a bulk load: no replicas and no refresh (each replica
 * would index every document again, each refresh would write a segment); `servingSettings` restores both before the
 * alias points at it (Elasticsearch's "Tune for indexing speed" guide).
 */
export function indexDefinition(layout: IndexLayout = DEFAULT_LAYOUT) {
  const text = { type: "text", analyzer: ANALYZER } as const;
  return {
    settings: {
      number_of_shards: layout.shards,
      number_of_replicas: 0,
      refresh_interval: "-1",
      analysis: analysisSettings(),
    },
    mappings: {
      dynamic: "strict" as const,
      _meta: { litreview_mapping_version: MAPPING_VERSION },
      properties: {
        pmid: { type: "integer" as const },
        title: text,
        abstract: text,
        mesh_terms: { ...text, fields: { keyword: { type: "keyword" as const } } },
        keywords: { ...text, fields: { keyword: { type: "keyword" as const } } },
        publication_types: { type: "keyword" as const },
        publication_year: { type: "integer" as const },
        publication_date: { type: "date" as const, format: "yyyy-MM-dd" },
        journal: { type: "text" as const, fields: { keyword: { type: "keyword" as const, ignore_above: 256 } } },
      },
    },
  };
}

/** The settings a version serves with, applied after its bulk load. */
export function servingSettings(layout: IndexLayout = DEFAULT_LAYOUT) {
  return { number_of_replicas: layout.replicas, refresh_interval: SERVING_REFRESH };
}
