import { z } from "zod";

/**
 * Application configuration, parsed once from the environment with zod.
 * Fails fast (throws with every bad variable listed) so a misconfigured server never starts half-way. Rules across
 * variables (CONFIG_RULES below) are part of the schema too, each held where it matters: loadConfig's `role` says
 * which (docs/decisions/0046-config-rules.md).
 */
/** An optional variable where an empty value (e.g. `FOUNDER_NAME=` in an env file) means unset. */
const optionalText = <T extends z.ZodType>(inner: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), inner.optional());

const baseSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Folder of the embedded PGlite database (used when DATABASE_URL is unset). */
  DATA_DIR: z.string().min(1).default("./data"),
  /** postgres://… selects a PostgreSQL server instead of embedded PGlite. */
  DATABASE_URL: z.string().url().optional(),
  /** http(s)://… selects the Elasticsearch search adapter instead of PostgreSQL full-text search. */
  ELASTICSEARCH_URL: z.string().url().optional(),
  /**
   * Credentials of the cluster, kept out of ELASTICSEARCH_URL (a password there must be percent-encoded, and "%", "/"
   * or "#" in it break the URL): a user and password, or an API key (the base64 "id:key" Elasticsearch returns).
   */
  ELASTICSEARCH_USERNAME: optionalText(z.string().trim()),
  ELASTICSEARCH_PASSWORD: optionalText(z.string()),
  ELASTICSEARCH_API_KEY: optionalText(z.string().trim()),
  /** Time limit of one request to the cluster, and the client's retries of a failed one (connection, 502–504). */
  ELASTICSEARCH_REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  ELASTICSEARCH_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  /** Primary shards and replicas of each new index version (docs/scaling.md: 3 primaries past ~10 M records). */
  ELASTICSEARCH_SHARDS: z.coerce.number().int().min(1).max(64).default(1),
  ELASTICSEARCH_REPLICAS: z.coerce.number().int().min(0).max(5).default(1),
  /** The alias the Elasticsearch adapter searches and writes (versions behind it: <alias>-v1, -v2…). */
  ELASTICSEARCH_INDEX: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9_-]*$/, "ELASTICSEARCH_INDEX: lower-case letters, digits, - and _")
    .default("litreview-articles"),
  /** Time limits of the server's database statements and connections (PostgreSQL), see src/db/database.ts. */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(15_000),
  DATABASE_LOCK_TIMEOUT_MS: z.coerce.number().int().min(0).default(5_000),
  DATABASE_CONNECT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(5),
  SMTP_URL: z.string().optional(),
  /** Stripe's secret API key (sk_…): turns on checkout, cancel and prices (src/subscriptions/stripe.ts). */
  STRIPE_SECRET_KEY: optionalText(z.string().trim()),
  /** Signing secret of the webhook endpoint (whsec_…): the only thing needed to verify Stripe's deliveries. */
  STRIPE_WEBHOOK_SECRET: optionalText(z.string().trim()),
  /**
   * Another address for Stripe's API (default https://api.stripe.com), e.g. a local stand-in in tests or
   * stripe-mock: http(s)://host[:port], no path.
   */
  STRIPE_API_URL: optionalText(
    z
      .string()
      .url()
      .refine((u) => /^https?:\/\/[^/]+\/?$/i.test(u), "must be http(s)://host[:port] without a path"),
  ),
  /**
   * HS256 key for access tokens (at least 32 characters). Unset on the embedded default: a random key is generated
   * once and kept in DATA_DIR (src/auth/secret-key.ts); unset with DATABASE_URL: the server and workers refuse to start
   * (the rule "shared-secret-key" below).
   */
  SECRET_KEY: z.string().min(32).optional(),
  ACCESS_TOKEN_EXPIRE_MINUTES: z.coerce
    .number()
    .int()
    .positive()
    .default(60 * 24 * 8),
  /**
   * Which parts this process runs: "inline" (default) serves HTTP and runs the job worker and schedules; "only" runs
   * the worker and schedules without serving pages or the API; "off" serves HTTP only (compose's web replicas).
   */
  WORKER: z.enum(["only", "inline", "off"]).default("inline"),
  /**
   * How often, ms, a process re-reads in one query the reviews its open status streams follow, the net under lost
   * change notifications (src/reviews/status-streams.ts). Unset, the default: STREAM_SWEEP_MS there, 5 s.
   */
  REVIEW_STREAM_SWEEP_MS: optionalText(z.coerce.number().int().min(100).max(600_000)),
  /** Directory listing of NLM's PubMed daily update files, read by `npm run pubmed:sync` (search/pubmed/sync.ts). */
  PUBMED_UPDATES_URL: z.string().url().default("https://ftp.ncbi.nlm.nih.gov/pubmed/updatefiles/"),
  /** Directory listing of the annual baseline files, read by `npm run pubmed:sync -- --baseline`. */
  PUBMED_BASELINE_URL: z.string().url().default("https://ftp.ncbi.nlm.nih.gov/pubmed/baseline/"),
  /** "daily": the in-process scheduler runs the update sync once a day (05:00 UTC) where jobs run. */
  PUBMED_SYNC: z.enum(["off", "daily"]).default("off"),
  /**
   * PubMed on demand (docs/decisions/0026-pubmed-on-demand.md): NCBI's E-utilities, asked when a review's topic finds
   * little in the local index, by the weekly run for new records and by `npm run pubmed:fetch`. "off" sends nothing
   * to NCBI. The topic's text leaves the machine when it is on.
   */
  PUBMED_ON_DEMAND: z
    .enum(["on", "off", "true", "false", "1", "0"])
    .default("on")
    .transform((v) => v === "on" || v === "true" || v === "1"),
  /** Base URL of the E-utilities (a mirror or a test stand-in works as well); ends with a slash. */
  PUBMED_EUTILS_URL: z
    .string()
    .url()
    .default("https://eutils.ncbi.nlm.nih.gov/entrez/eutils/")
    .transform((u) => (u.endsWith("/") ? u : `${u}/`)),
  /** NCBI API key: 10 requests a second for the whole deployment instead of 3. */
  NCBI_API_KEY: optionalText(z.string().trim()),
  /** The operator's contact address, sent with every E-utilities request as NCBI asks. */
  NCBI_EMAIL: optionalText(z.string().trim().email()),
  /**
   * Requests a second to PUBMED_EUTILS_URL for the whole deployment (the shared rate gate). Unset, the default:
   * NCBI's 3, or 10 with NCBI_API_KEY (https://www.ncbi.nlm.nih.gov/books/NBK25497/). For a mirror or a local
   * stand-in with a limit of its own (the tests run theirs faster); against NCBI's own host a value above NCBI's
   * limit is capped at it (src/pubmed/client.ts, docs/decisions/0041-injected-intervals.md).
   */
  PUBMED_EUTILS_REQUESTS_PER_SECOND: optionalText(z.coerce.number().positive().max(1000)),
  /** Records one review may fetch from PubMed (the top N of PubMed's Best Match). */
  PUBMED_ON_DEMAND_MAX_RECORDS: z.coerce.number().int().min(1).max(10_000).default(200),
  /** Time budget of a review's whole PubMed step; past it the review goes on with the local index. */
  PUBMED_FETCH_BUDGET_MS: z.coerce.number().int().min(100).default(20_000),
  /** Records one user's reviews may fetch from PubMed per UTC day. */
  PUBMED_USER_DAILY_RECORDS: z.coerce.number().int().min(0).default(2_000),
  /**
   * PubMed look-ups (esearch requests sent to NCBI; an answer from the cache is free) one user's reviews and weekly
   * suggestions may make per UTC day. 100: a researcher's working day of distinct topics; 0 turns look-ups off.
   */
  PUBMED_USER_DAILY_SEARCHES: z.coerce.number().int().min(0).default(100),
  /**
   * An OpenAI-compatible chat API (vLLM, Ollama, llama.cpp…, ending in /v1): summaries by a language model, verified.
   */
  LLM_BASE_URL: z.string().url().optional(),
  LLM_MODEL: z.string().trim().min(1).default("llama3.1"),
  LLM_API_KEY: z.string().trim().min(1).optional(),
  /** Time budget of a review's model call (request to last byte); past it the extractive summary is used. */
  LLM_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  /** Model calls at once per process; the worker gets as many extra loops (docs/decisions/0031). */
  LLM_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  /** Seed the demo corpus on first start with an empty article table. */
  SEED_SAMPLE: z
    .enum(["true", "false", "1", "0"])
    .default("true")
    .transform((v) => v === "true" || v === "1"),
  SUPPORT_EMAIL: z.string().email().default("support@litreview.example"),
  /** Publisher named in the legal pages (data controller, party to the terms of use). */
  COMPANY_NAME: z.string().trim().min(1).default("LitReview"),
  /**
   * The founder card of the landing page's team section. Without FOUNDER_NAME the section shows no card (the page
   * never invents a person); role and photo are optional. The photo's host is allowed in the pages' CSP img-src.
   */
  FOUNDER_NAME: optionalText(z.string().trim()),
  FOUNDER_ROLE: optionalText(z.string().trim()),
  FOUNDER_PHOTO_URL: optionalText(
    z
      .string()
      .url()
      .refine((u) => /^https?:\/\//i.test(u), "must be an http(s) URL"),
  ),
  FIRST_SUPERUSER: z.string().email().optional(),
  FIRST_SUPERUSER_PASSWORD: z.string().min(8).optional(),
  /** Public origin used in e-mails and checkout return URLs. */
  PUBLIC_URL: z.string().url().optional(),
  /**
   * Reverse proxies in front of the app: "off" (default; the socket's address is the client) or the number of hops
   * whose forwarded header is trusted (docs/decisions/0012-abuse-limits.md).
   */
  TRUST_PROXY: z
    .string()
    .default("off")
    .transform((v, ctx) => {
      const t = v.trim().toLowerCase();
      if (t === "off" || t === "false" || t === "0" || t === "") return 0;
      if (t === "true") return 1;
      const n = Number(t);
      if (!Number.isInteger(n) || n < 0 || n > 10) {
        ctx.addIssue({ code: "custom", message: 'must be "off" or a number of proxy hops (1 to 10)' });
        return z.NEVER;
      }
      return n;
    }),
  /**
   * Accounts one client (address or IPv6 /64) may create an hour (docs/decisions/0012-abuse-limits.md). Raise it for
   * an enrolment day behind one address that TRUST_PROXY cannot tell apart, or for a test harness.
   */
  SIGNUPS_PER_CLIENT_PER_HOUR: z.coerce.number().int().min(1).default(10),
  /**
   * Login attempts one client may make a minute (the burst limit of docs/decisions/0012-abuse-limits.md; the
   * per-account rules do not change). Raise it like SIGNUPS_PER_CLIENT_PER_HOUR, e.g. for a test harness.
   */
  LOGINS_PER_CLIENT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** The header the trusted proxies write the client's address to. */
  TRUST_PROXY_HEADER: z.enum(["x-forwarded-for", "forwarded", "x-real-ip"]).default("x-forwarded-for"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  NODE_ENV: z.string().default("development"),
});

/**
 * Whether a PUBLIC_URL may be used in production: https, or http on a loopback host (localhost, 127.0.0.0/8, ::1).
 * @param url An absolute URL (already checked by zod).
 */
export function publicUrlIsSafe(url: string): boolean {
  const u = new URL(url);
  if (u.protocol === "https:") return true;
  if (u.protocol !== "http:") return false;
  const host = u.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || /^127(?:\.\d{1,3}){3}$/.test(host) || host === "::1";
}

export type Config = z.infer<typeof baseSchema>;

/**
 * What a process does, which decides the start-up rules it is held to (docs/decisions/0046-config-rules.md):
 * - "server": src/server.ts; serves HTTP and, unless WORKER=only, runs jobs too (WORKER=only makes it a worker, and
 *   each rule that concerns serving says so in its check);
 * - "worker": a process that runs jobs outside the server, e.g. `npm run suggestions:weekly -- --run`: it signs
 *   unsubscribe links the web processes must accept, so it needs the same SECRET_KEY;
 * - "cli": a tool that reads or writes the database only (migrate, outbox, retention, ingest, search:reindex…): held to
 *   the rules of every role alone, never asked for keys it does not use.
 */
export type ConfigRole = "server" | "worker" | "cli";

/** Every role; a rule for all of them holds wherever the configuration is loaded. */
const ALL_ROLES: readonly ConfigRole[] = ["server", "worker", "cli"];

/**
 * A start-up rule across variables. An "error" refuses the configuration (loadConfig throws, the process does not
 * start); a "warning" is printed once at load and the process starts.
 */
export interface ConfigRule {
  /** Stable name, for tests and the ADR. */
  name: string;
  /** The roles the rule holds for. */
  roles: readonly ConfigRole[];
  severity: "error" | "warning";
  /** The variable the message is reported under. */
  path: keyof Config;
  /** The message printed, saying what is wrong and what to set. */
  message: string;
  /** Whether `c` breaks the rule. */
  broken: (c: Config) => boolean;
}

/** The message of the shared-secret-key rule; also thrown by resolveSecretKey (src/auth/secret-key.ts). */
export const SECRET_KEY_REQUIRED_MESSAGE =
  "SECRET_KEY is not set. With DATABASE_URL every server process must sign access tokens with the same key: set SECRET_KEY to a random value of at least 32 characters (for example: openssl rand -base64 48).";

/** The start-up rules across variables, in the order they are reported (docs/decisions/0046-config-rules.md). */
export const CONFIG_RULES: readonly ConfigRule[] = [
  {
    // Several processes share one database then, and a key generated per process (or per container, lost at each
    // restart) would end sessions, and refuse workers' unsubscribe links, whenever a request reached another process.
    name: "shared-secret-key",
    roles: ["server", "worker"],
    severity: "error",
    path: "SECRET_KEY",
    message: SECRET_KEY_REQUIRED_MESSAGE,
    broken: (c) => c.DATABASE_URL !== undefined && c.SECRET_KEY === undefined,
  },
  {
    // Links in e-mails and the List-Unsubscribe header (RFC 8058 §3.1 requires an HTTPS URI there) are built from
    // PUBLIC_URL, so production refuses a plain-HTTP origin unless it is this machine (a local trial). Every role:
    // the tools that send e-mails (subscription expire-trials, suggestions:weekly --run) build links from it too.
    name: "public-url-https",
    roles: ALL_ROLES,
    severity: "error",
    path: "PUBLIC_URL",
    message: "must be an https:// URL in production (http:// only for localhost)",
    broken: (c) => c.NODE_ENV === "production" && c.PUBLIC_URL !== undefined && !publicUrlIsSafe(c.PUBLIC_URL),
  },
  {
    // A warning, not a refusal: checkout alone works (a test account, a first trial of the integration). Only a
    // process that serves HTTP receives Stripe's deliveries.
    name: "stripe-webhook-secret",
    roles: ["server"],
    severity: "warning",
    path: "STRIPE_SECRET_KEY",
    message:
      "STRIPE_SECRET_KEY is set without STRIPE_WEBHOOK_SECRET: checkout works, but Stripe's webhook deliveries will be refused, so payments will not be recorded",
    broken: (c) => c.WORKER !== "only" && c.STRIPE_SECRET_KEY !== undefined && c.STRIPE_WEBHOOK_SECRET === undefined,
  },
  {
    // The cluster takes one kind of credentials: with an API key and a user as well, the client sends the key and the
    // user is silently ignored (search/elasticsearch/connection.ts), so an operator who rotated one of them would
    // not know which one the cluster sees. Every role opens the index (ingest and search:reindex are tools).
    name: "elasticsearch-one-credential",
    roles: ALL_ROLES,
    severity: "error",
    path: "ELASTICSEARCH_API_KEY",
    message:
      "ELASTICSEARCH_API_KEY is set together with a user (ELASTICSEARCH_USERNAME, ELASTICSEARCH_PASSWORD or a user in ELASTICSEARCH_URL): keep one kind of credentials, the API key or the user and password",
    broken: (c) =>
      c.ELASTICSEARCH_URL !== undefined &&
      c.ELASTICSEARCH_API_KEY !== undefined &&
      (c.ELASTICSEARCH_USERNAME !== undefined ||
        c.ELASTICSEARCH_PASSWORD !== undefined ||
        // splitCredentials reads everything up to the URL's last "@" as a user (a password may hold "/" or "#").
        c.ELASTICSEARCH_URL.includes("@")),
  },
  {
    // ensureFirstSuperuser (src/users/service.ts) needs both and used to skip silently when one was missing.
    name: "first-superuser-pair",
    roles: ["server", "worker"],
    severity: "warning",
    path: "FIRST_SUPERUSER",
    message:
      "FIRST_SUPERUSER and FIRST_SUPERUSER_PASSWORD go together: with only one of them set, no administrator is created",
    broken: (c) => (c.FIRST_SUPERUSER === undefined) !== (c.FIRST_SUPERUSER_PASSWORD === undefined),
  },
];

/** The rules `role` is held to, errors and warnings. */
export function rulesFor(role: ConfigRole): ConfigRule[] {
  return CONFIG_RULES.filter((r) => r.roles.includes(role));
}

/**
 * The schema of `role`: every variable's own checks, then that role's error rules (a model-level check, run once
 * every variable is valid). Warnings are not part of it: they do not refuse anything (see loadConfig).
 */
export function configSchema(role: ConfigRole) {
  const errors = rulesFor(role).filter((r) => r.severity === "error");
  return baseSchema.superRefine((c, ctx) => {
    for (const rule of errors) {
      if (rule.broken(c)) ctx.addIssue({ code: "custom", path: [rule.path], message: rule.message });
    }
  });
}

/** The warnings of `role`'s rules that `config` breaks, as printed lines ("VARIABLE: message"). */
export function configWarnings(config: Config, role: ConfigRole): string[] {
  return rulesFor(role)
    .filter((r) => r.severity === "warning" && r.broken(config))
    .map((r) => issueLine(r.path, r.message));
}

/** "PATH: message", without repeating the variable when the message starts with its name. */
function issueLine(path: string, message: string): string {
  return message.startsWith(`${path} `) ? message : `${path}: ${message}`;
}

/** Options of loadConfig. */
export interface LoadConfigOptions {
  /** What this process does (default "cli": only the rules every role is held to). */
  role?: ConfigRole;
  /** Where warnings go (default console.warn, one line each). */
  warn?: (line: string) => void;
}

/**
 * Parses `env` (default `process.env`) into a typed Config, held to the start-up rules of `opts.role`
 * (CONFIG_RULES). Warnings of broken warning rules go to `opts.warn`.
 * @throws Error listing each invalid variable and each broken error rule, one per line.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  opts: LoadConfigOptions = {},
): Config {
  const role = opts.role ?? "cli";
  const parsed = configSchema(role).safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${issueLine(i.path.join("."), i.message)}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const warn = opts.warn ?? ((line: string) => console.warn(line));
  for (const line of configWarnings(parsed.data, role)) warn(line);
  return parsed.data;
}
