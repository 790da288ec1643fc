import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import { EutilsClient } from "../../search/pubmed/eutils.ts";
import { DatabaseRateGate, ncbiRateLimit } from "../../search/pubmed/rate-gate.ts";

/**
 * The E-utilities client of this deployment, as every process builds it (the review pipeline, the weekly run,
 * `npm run pubmed:fetch`): PUBMED_EUTILS_URL, NCBI_API_KEY and NCBI_EMAIL from the configuration, and a rate gate in
 * `db` (ncbi_rate_gate row "eutils") at NCBI's 3 requests a second, or 10 with an API key, shared by every process
 * that opens the same database (search/pubmed/rate-gate.ts).
 * @param opts.log receives the client's retry and failure lines (none by default).
 */
export function eutilsClientFor(
  config: Pick<Config, "PUBMED_EUTILS_URL" | "NCBI_API_KEY" | "NCBI_EMAIL">,
  db: Database,
  opts: { log?: (line: string) => void } = {},
): EutilsClient {
  return new EutilsClient({
    baseUrl: config.PUBMED_EUTILS_URL,
    apiKey: config.NCBI_API_KEY,
    email: config.NCBI_EMAIL,
    gate: new DatabaseRateGate(db, { requestsPerSecond: ncbiRateLimit(config.NCBI_API_KEY) }),
    log: opts.log,
  });
}
