// Row types of the tables created in migrations/, generated from the migrated schema into schema.gen.ts
// (`npm run db:types`, docs/decisions/0037-generated-database-types.md). This module keeps the names the code
// imports; edit column types in src/db/codegen.ts (overrides) or src/db/column-types.ts, never in schema.gen.ts.
import type * as Gen from "./schema.gen.ts";

export type { DB } from "./schema.gen.ts";
export type * from "./column-types.ts";

export type AccountArchivesTable = Gen.AccountArchives;
export type ArticleDisruptionTable = Gen.ArticleDisruption;
export type ArticlesTable = Gen.Articles;
export type ArticleSearchTable = Gen.ArticleSearch;
export type ArticleSearchTiersTable = Gen.ArticleSearchTiers;
export type DataExportsTable = Gen.DataExports;
export type EmailOutboxTable = Gen.EmailOutbox;
export type IngestRunsTable = Gen.IngestRuns;
export type JobsTable = Gen.Jobs;
export type KnownLoginClientsTable = Gen.KnownLoginClients;
export type LikesTable = Gen.Likes;
export type LiteratureReviewArticlesTable = Gen.LiteratureReviewArticles;
export type LiteratureReviewsTable = Gen.LiteratureReviews;
export type MeshHeadingStatsTable = Gen.MeshHeadingStats;
export type NcbiRateGateTable = Gen.NcbiRateGate;
export type PasswordResetTokensTable = Gen.PasswordResetTokens;
export type PubmedFetchUsageTable = Gen.PubmedFetchUsage;
export type PubmedSearchCacheTable = Gen.PubmedSearchCache;
export type PubmedSyncFilesTable = Gen.PubmedSyncFiles;
export type RateLimitsTable = Gen.RateLimits;
export type RevokedAccessTokensTable = Gen.RevokedAccessTokens;
export type SearchLexemeStatsTable = Gen.SearchLexemeStats;
export type SearchTermImpactsTable = Gen.SearchTermImpacts;
export type SearchTermListsTable = Gen.SearchTermLists;
export type ShareInvitationsTable = Gen.ShareInvitations;
export type SharesTable = Gen.Shares;
export type StripeCustomersTable = Gen.StripeCustomers;
export type StripeEventsTable = Gen.StripeEvents;
export type SubscriptionsTable = Gen.Subscriptions;
export type SuggestionArticlesTable = Gen.SuggestionArticles;
export type SuggestionSourceCacheTable = Gen.SuggestionSourceCache;
export type UsersTable = Gen.Users;
export type WeeklySuggestionsTable = Gen.WeeklySuggestions;
