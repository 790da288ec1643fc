// Row types of the tables created in migrations/, generated from the migrated schema into schema.gen.ts
// (`npm run db:types`, docs/decisions/0037-generated-database-types.md). This module keeps the names the code
// imports; edit column types in src/db/codegen.ts (overrides) or src/db/column-types.ts, never in schema.gen.ts.
// `npm run db:types` writes only schema.gen.ts, never this file: a `<Table>Table` alias is added by hand when code
// first needs the name, and one nothing imports is removed, so the list does not grow with every migration.
import type * as Gen from "./schema.gen.ts";

export type { DB } from "./schema.gen.ts";
export type * from "./column-types.ts";

export type ArticlesTable = Gen.Articles;
export type LiteratureReviewsTable = Gen.LiteratureReviews;
export type SubscriptionsTable = Gen.Subscriptions;
export type UsersTable = Gen.Users;
