import type { estypes } from "@elastic/elasticsearch";
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

/**
 * Settings and mappings of a new index version, as created for a bulk load: no replicas and no refresh (each replica
 * would index every document again, each refresh would write a segment); `servingSettings` restores both before the
 * alias points at it (Elasticsearch's "Tune for indexing speed" guide).
 */
export function indexDefinition(
  layout: IndexLayout = DEFAULT_LAYOUT,
): Required<Pick<estypes.IndicesCreateRequest, "settings" | "mappings">> {
  const text: estypes.MappingTextProperty = { type: "text", analyzer: ANALYZER };
  return {
    settings: {
      number_of_shards: layout.shards,
      number_of_replicas: 0,
      refresh_interval: "-1",
      analysis: analysisSettings(),
    },
    mappings: {
      dynamic: "strict",
      _meta: { litreview_mapping_version: MAPPING_VERSION },
      properties: {
        pmid: { type: "integer" },
        title: text,
        abstract: text,
        mesh_terms: { ...text, fields: { keyword: { type: "keyword" } } },
        keywords: { ...text, fields: { keyword: { type: "keyword" } } },
        publication_types: { type: "keyword" },
        publication_year: { type: "integer" },
        publication_date: { type: "date", format: "yyyy-MM-dd" },
        journal: { type: "text", fields: { keyword: { type: "keyword", ignore_above: 256 } } },
      },
    },
  };
}

/**
 * The settings a version serves with, applied after its bulk load: its replicas, and the refresh interval reset to
 * Elasticsearch's default with `null` ("To revert a setting to the default value, use a null value", update index
 * settings API). Not "1s": an explicit interval, even the default one, opts the index out of search-idle shards
 * (`index.refresh_interval`: "To opt out of this behavior, set an explicit value for the refresh interval, even if it
 * matches the default value"), so a shard that no search reached for `index.search.idle.after` (30 s) would still
 * refresh every second while the daily sync writes. Named with the `index.` prefix, which the API accepts as well:
 * the client's type for `refresh_interval` has no `null` (elastic/elasticsearch-js#2014).
 */
export function servingSettings(layout: IndexLayout = DEFAULT_LAYOUT): estypes.IndicesIndexSettings {
  return { "index.number_of_replicas": layout.replicas, "index.refresh_interval": null };
}
