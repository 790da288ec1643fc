import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import { EutilsClient } from "../../search/pubmed/eutils.ts";
import { DatabaseRateGate, ncbiRateLimit } from "../../search/pubmed/rate-gate.ts";

/** The configuration the E-utilities client is built from. */
export type EutilsConfig = Pick<
  Config,
  "PUBMED_EUTILS_URL" | "NCBI_API_KEY" | "NCBI_EMAIL" | "PUBMED_EUTILS_REQUESTS_PER_SECOND"
>;

/**
 * Requests a second the deployment's gate allows: NCBI's documented 3 without an API key and 10 with one
 * (https://www.ncbi.nlm.nih.gov/books/NBK25497/, "Usage Guidelines and Requirements"), unless
 * PUBMED_EUTILS_REQUESTS_PER_SECOND names another rate for a mirror or a stand-in. Against NCBI's own host
 * (*.ncbi.nlm.nih.gov) the configured rate is capped at NCBI's, so no setting can make the deployment exceed it.
 */
export function eutilsRequestsPerSecond(config: EutilsConfig): number {
  const ncbi = ncbiRateLimit(config.NCBI_API_KEY);
  const asked = config.PUBMED_EUTILS_REQUESTS_PER_SECOND;
  if (asked === undefined) return ncbi;
  const host = new URL(config.PUBMED_EUTILS_URL).hostname.toLowerCase();
  const isNcbi = host === "ncbi.nlm.nih.gov" || host.endsWith(".ncbi.nlm.nih.gov");
  return isNcbi ? Math.min(asked, ncbi) : asked;
}

/**
 * The E-utilities client of this deployment, as every process builds it (the review pipeline, the weekly run,
 * `npm run pubmed:fetch`): PUBMED_EUTILS_URL, NCBI_API_KEY and NCBI_EMAIL from the configuration, and a rate gate in
 * `db` (ncbi_rate_gate row "eutils") at NCBI's 3 requests a second, or 10 with an API key (eutilsRequestsPerSecond),
 * shared by every process that opens the same database (search/pubmed/rate-gate.ts).
 * @param opts.log receives the client's retry and failure lines (none by default).
 * @param opts.userId the user the requests are made for: her requests share the budget fairly with other users' (one
 *   pending slot at a time, the gate's fairness key "user:<id>"). Unset for the operator's tools.
 */
export function eutilsClientFor(
  config: EutilsConfig,
  db: Database,
  opts: { log?: (line: string) => void; userId?: string } = {},
): EutilsClient {
  const fairnessKey = opts.userId === undefined ? undefined : `user:${opts.userId}`;
  return new EutilsClient({
    baseUrl: config.PUBMED_EUTILS_URL,
    apiKey: config.NCBI_API_KEY,
    email: config.NCBI_EMAIL,
    gate: new DatabaseRateGate(db, { requestsPerSecond: eutilsRequestsPerSecond(config), fairnessKey }),
    log: opts.log,
  });
}
