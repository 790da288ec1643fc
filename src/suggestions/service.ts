import type { AppDeps } from "../deps.ts";
import { ApiError } from "../http/errors.ts";
import { hasActiveReviewAccess } from "../subscriptions/service.ts";
import { extractiveSummarizer } from "../reviews/summary/extractive.ts";
import type { Summarizer } from "../reviews/summary/types.ts";
import { enqueueEmail } from "../email/jobs.ts";
import { isUniqueViolation } from "../users/repository.ts";
import * as preferences from "../users/preferences.ts";
import { buildProfile } from "./profile.ts";
import { ensureMeshStats, readHeadingStats } from "./disruption.ts";
import { readCdIndexes } from "./cd-index.ts";
import {
  DISRUPTIVE_POOL,
  SECTIONS,
  candidatePmidsToRead,
  chooseSections,
  retrieveCandidates,
  type CandidateArticle,
  type Section,
  type SectionEntry,
} from "./sections.ts";
import { siteOrigin, unsubscribeToken } from "./digest.ts";
import { weeklyDigestEmail } from "./emails.ts";
import { isoWeek } from "./week.ts";
import { fetchNewThisWeek, type WeeklyPubmedClient } from "./pubmed-new.ts";
import { eutilsClientFor } from "../pubmed/client.ts";
import * as repo from "./repository.ts";
import type { WeeklySuggestions } from "./schemas.ts";

/**
 * The detail of GET /suggestions/weekly/latest before the user's first batch (the page shows 'Suggestions Preparing').
 */
export const SUGGESTIONS_NOT_READY = "Suggestions not generated yet";
/** The detail of a suggestions call without access (docs/product.md §2's gate text). */
export const SUGGESTIONS_ACCESS_REQUIRED =
  "The Weekly Suggestions feature requires an active Plus, Pro, or Max subscription.";

/** What one user's run did. */
export type WeeklyOutcome = "computed" | "exists" | "no-access" | "empty-profile" | "no-user";

/**
 * Renumbers a summary's citations from the summarizer's order (`citedPmids[n-1]`) to the section's order, so that
 * [n] is the n-th article of the section as the page and the API list it. Pure.
 */
export function renumberCitations(
  summary: string,
  citedPmids: readonly number[],
  sectionPmids: readonly number[],
): string {
  const position = new Map(sectionPmids.map((p, i) => [p, i + 1]));
  return summary.replace(/\[(\d+(?:\s*[,–-]\s*\d+)*)\]/g, (whole, inner: string) => {
    const numbers = inner.split(/\s*,\s*/).map((n) => {
      const pmid = citedPmids[Number(n) - 1];
      return pmid === undefined ? undefined : position.get(pmid);
    });
    return numbers.every((n) => n !== undefined) ? `[${numbers.join(", ")}]` : whole;
  });
}

/**
 * Computes and stores `userId`'s suggestions for the ISO week of `now` (or `week`), then queues the week's digest
 * unless it was queued before or the user turned it off.
 * - Idempotent: a week that already has a batch is left as it is unless `replace` (interests edited: recompute).
 * - Only for users whose subscription gives access when it runs; an empty profile (no interests, no likes) stores
 *   nothing, so the page keeps saying that suggestions are being prepared.
 * - The batch and its digest job are written in one transaction: a crash leaves neither or both, and the job retries.
 * - Where PubMed on demand is on, PubMed's new records on the user's interests are fetched first (pubmed-new.ts), so
 *   that they rank with the rest; PubMed failing or slow never fails the week. `opts.pubmed` overrides the
 *   configuration: a client (tests pass one for a stand-in) or null (no PubMed); by default a client is built from the
 *   configuration when PUBMED_ON_DEMAND is on.
 */
export async function computeWeeklySuggestions(
  deps: Pick<AppDeps, "db" | "search" | "jobs" | "config" | "secretKey">,
  userId: string,
  opts: {
    now?: Date;
    week?: string;
    replace?: boolean;
    summarizer?: Summarizer;
    sendDigest?: boolean;
    pubmed?: WeeklyPubmedClient | null;
  } = {},
): Promise<WeeklyOutcome> {
  const now = opts.now ?? new Date();
  const week = opts.week ?? isoWeek(now);
  const user = await repo.readSuggestionUser(deps.db, userId);
  if (!user?.is_active) return "no-user";
  if (!(await hasActiveReviewAccess(deps.db, userId, now))) return "no-access";
  if (!opts.replace && (await repo.findBatch(deps.db, userId, week))) return "exists";

  const [likes, likedPmids, recent] = await Promise.all([
    repo.readProfileLikes(deps.db, userId),
    repo.readLikedPmids(deps.db, userId),
    repo.recentlySuggested(deps.db, userId, week, now),
  ]);
  const profile = buildProfile(user.description, likes, now);
  if (profile.sources.length === 0) return "empty-profile";
  const exclude = new Set([...likedPmids, ...recent]);

  const pubmed =
    opts.pubmed !== undefined
      ? opts.pubmed
      : deps.config.PUBMED_ON_DEMAND
        ? eutilsClientFor(deps.config, deps.db, { log: (line) => console.warn(`pubmed: ${line}`), userId })
        : null;
  if (pubmed) await fetchNewThisWeek(deps, pubmed, profile, { userId, week, now });

  // "New this week" may reach back into last year in the first days of January, and forward into next year: a record
  // entered PubMed this week often carries the date of a journal issue still to come.
  const weekAgoYear = new Date(now.getTime() - 7 * 86_400_000).getUTCFullYear();
  const candidates = await retrieveCandidates(deps, profile, exclude, weekAgoYear, now.getUTCFullYear() + 1, now);
  // Only the candidates a section can take are read (candidatePmidsToRead).
  const pool = candidates.anyDate.slice(0, DISRUPTIVE_POOL);
  const rows = await repo.readCandidateArticles(deps.db, candidatePmidsToRead(candidates));
  const articles = new Map<number, CandidateArticle>(rows.map((r) => [r.pmid, r]));
  const poolPmids = new Set(pool.map((c) => c.pmid));
  await ensureMeshStats(deps.db);
  const [meshStats, cdIndexes] = await Promise.all([
    readHeadingStats(
      deps.db,
      rows.filter((r) => poolPmids.has(r.pmid)).flatMap((r) => r.mesh_terms),
    ),
    readCdIndexes(deps.db, [...poolPmids]),
  ]);
  const sections = chooseSections(candidates, articles, { ...meshStats, cdIndexes }, now);

  const summarizer = opts.summarizer ?? extractiveSummarizer;
  const summaries = {} as Record<Section, string | null>;
  const full = new Map(
    (
      await repo.readSummaryArticles(
        deps.db,
        SECTIONS.flatMap((s) => sections[s].map((e) => e.pmid)),
      )
    ).map((r) => [r.pmid, r]),
  );
  for (const section of SECTIONS) {
    const chosen = sections[section].map((e) => full.get(e.pmid)!).filter(Boolean);
    if (chosen.length === 0) {
      summaries[section] = null;
      continue;
    }
    const result = await summarizer.summarize(
      profile.topic,
      chosen.map((a) => ({ ...a, abstract_sections: Array.isArray(a.abstract_sections) ? a.abstract_sections : [] })),
    );
    summaries[section] = result.summary
      ? renumberCitations(
          result.summary,
          result.citedPmids,
          chosen.map((a) => a.pmid),
        )
      : null;
  }

  const digestArticles = (entries: SectionEntry[]) =>
    entries.map((e) => ({ ...e, title: articles.get(e.pmid)?.title ?? null }));
  const withDigest = opts.sendDigest !== false && user.weekly_digest && SECTIONS.some((s) => sections[s].length > 0);
  const message = withDigest
    ? weeklyDigestEmail({
        to: user.email,
        name: user.full_name || user.email,
        week,
        sections: Object.fromEntries(SECTIONS.map((s) => [s, digestArticles(sections[s])])) as Record<
          Section,
          ReturnType<typeof digestArticles>
        >,
        origin: siteOrigin(deps.config),
        unsubscribeUrl: `${siteOrigin(deps.config)}/unsubscribe?token=${encodeURIComponent(await unsubscribeToken(deps.secretKey, userId))}`,
        supportEmail: deps.config.SUPPORT_EMAIL,
      })
    : null;

  try {
    const queued = await deps.db.transaction().execute(async (trx) => {
      if (!opts.replace && (await repo.findBatch(trx, userId, week))) return "exists" as const;
      const id = await repo.replaceBatch(trx, { userId, week, sections, summaries });
      const batch = await repo.findBatch(trx, userId, week);
      if (message && !batch?.digest_queued_at) {
        await enqueueEmail(deps, message, { db: trx });
        await repo.markDigestQueued(trx, id, now);
        return "queued" as const;
      }
      return "stored" as const;
    });
    if (queued === "exists") return "exists";
    if (queued === "queued") deps.jobs.wake?.();
  } catch (err) {
    // Another worker stored this week's batch at the same moment: the week is done.
    if (isUniqueViolation(err)) return "exists";
    throw err;
  }
  return "computed";
}

/**
 * The user's latest batch in docs/product.md §3's shape.
 * @throws ApiError 403 without access to suggestions; 404 SUGGESTIONS_NOT_READY before the first batch.
 */
export async function latestSuggestions(deps: Pick<AppDeps, "db">, userId: string): Promise<WeeklySuggestions> {
  if (!(await hasActiveReviewAccess(deps.db, userId))) throw new ApiError(403, SUGGESTIONS_ACCESS_REQUIRED);
  const latest = await repo.latestBatch(deps.db, userId);
  if (!latest) throw new ApiError(404, SUGGESTIONS_NOT_READY);
  const { batch, sections } = latest;
  return {
    id: batch.id,
    week: batch.week,
    created_at: new Date(batch.created_at).toISOString(),
    new_weekly_articles: sections.new_weekly_articles ?? [],
    new_yearly_articles: sections.new_yearly_articles ?? [],
    pertinent_articles: sections.pertinent_articles ?? [],
    disruptive_articles: sections.disruptive_articles ?? [],
    new_weekly_articles_summary: batch.new_weekly_articles_summary,
    new_yearly_articles_summary: batch.new_yearly_articles_summary,
    pertinent_articles_summary: batch.pertinent_articles_summary,
    disruptive_articles_summary: batch.disruptive_articles_summary,
  };
}

/** Turns the weekly digest on or off for `userId`. */
export async function setWeeklyDigest(deps: Pick<AppDeps, "db">, userId: string, on: boolean): Promise<void> {
  await preferences.setWeeklyDigest(deps.db, userId, on);
}
