import type { Config } from "./config.ts";
import type { Database } from "./db/database.ts";
import type { SearchIndex } from "../search/search-index.ts";
import type { JobQueue } from "./jobs/queue.ts";

/** Everything a request handler or job may use, built once in server.ts (or per test). */
export interface AppDeps {
  config: Config;
  db: Database;
  search: SearchIndex;
  jobs: JobQueue;
  /** HS256 key for access tokens (from SECRET_KEY, or random per process in development and tests). */
  secretKey: Uint8Array;
}
