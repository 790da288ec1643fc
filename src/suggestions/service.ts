import type { AppDeps } from "../deps.ts";
import { ApiError } from "../http/errors.ts";
import { hasActiveReviewAccess } from "../subscriptions/service.ts";
import { renumberByFirstUse } from "../reviews/citation-order.ts";
import { extractiveSummarizer } from "../reviews/summary/extractive.ts";
import type { Summarizer } from "../reviews/summary/types.ts";
import { enqueueEmail } from "../email/jobs.ts";
import { isUniqueViolation } from "../users/repository.ts";
import * as preferences from "../users/preferences.ts";
import { buildProfile, type Profile } from "./profile.ts";
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
import { summarizeByPart, withoutArticles } from "./section-summary.ts";
import { fetchNewThisWeek, type WeeklyPubmedClient } from "./pubmed-new.ts";
import { eutilsClientFor } from "../pubmed/client.ts";
import { chooseCheckingHeadings } from "./heading-pubmed.ts";
import * as repo from "./repository.ts";
import type { SuggestedArticle, WeeklySuggestions } from "./schemas.ts";

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
 * A section's summary with its citations in order of first use, and the section's articles reordered to match: the
 * cited ones first, in citation order, then the others in their own order. So [n] is the section's n-th article as
 * the page and the API list it, and [1] is the first cited (docs/product.md §3). Pure.
 * @param citedPmids The summarizer's numbering (`citedPmids[n - 1]` is [n]).
 */
export function orderSectionByCitations<E extends { pmid: number }>(
  summary: string,
  citedPmids: readonly number[],
  entries: readonly E[],
): { summary: string; entries: E[] } {
  const ordered = renumberByFirstUse(summary, citedPmids);
  const rank = new Map(ordered.pmids.map((p, i) => [p, i]));
  const last = ordered.pmids.length;
  // Array.prototype.sort is stable: the uncited keep their order after the cited.
  const reordered = [...entries].sort((a, b) => (rank.get(a.pmid) ?? last) - (rank.get(b.pmid) ?? last));
  return { summary: ordered.text, entries: reordered };
}

/**
 * Computes and stores `userId`'s suggestions for the ISO week of `now` (or `week`), then queues the week's digest
 * unless it was queued before or the user turned it off.
 * - Idempotent: a week that already has a batch is left as it is unless `replace` (interests edited: recompute).
 * - Only for users whose subscription gives access when it runs; an empty profile (no interests, no likes) stores
 *   nothing, so the page keeps saying that suggestions are being prepared.
 * - The batch and its digest job are written in one transaction: a crash leaves neither or both, and the job retries.
 * - Where PubMed on demand is on, PubMed's new records on the user's interests are fetched first (pubmed-new.ts), so
 *   that they rank with the rest, and the MeSH headings Potentially Disruptive names are checked against PubMed's
 *   counts (heading-pubmed.ts); PubMed failing or slow never fails the week. `opts.pubmed` overrides the
 *   configuration: a client (tests pass one for a stand-in) or null (no PubMed); by default a client is built from the
 *   configuration when PUBMED_ON_DEMAND is on.
 * - Pertinent For You's summary is one paragraph per part of the profile (`summarizeByPart`); the other sections'
 *   summaries take the whole profile as their topic.
 */
export async function computeWeeklySuggestions(
  deps: WeeklyDeps,
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

  const pubmed = weeklyPubmedClient(deps, userId, opts.pubmed);
  if (pubmed) await fetchNewThisWeek(deps, pubmed, profile, { userId, week, now });
  const { sections, articles } = await chooseWeeksSections(deps, profile, exclude, pubmed, now);
  const summaries = await summarizeSections(deps, opts.summarizer ?? extractiveSummarizer, profile, sections);

  const withDigest = opts.sendDigest !== false && user.weekly_digest && SECTIONS.some((s) => sections[s].length > 0);
  const message = withDigest ? await digestMessage(deps, { user, userId, week, sections, articles }) : null;
  return storeWeek(deps, { userId, week, sections, summaries, message, replace: opts.replace, now });
}

/** What computing a user's week reads and writes through. */
type WeeklyDeps = Pick<AppDeps, "db" | "search" | "jobs" | "config" | "secretKey">;

/** The articles of each section, in the order the page lists them. */
type WeekSections = Record<Section, SectionEntry[]>;

/**
 * The PubMed client of a run: the caller's (`given`: a client, or null for none) when given, else one built from the
 * configuration when PUBMED_ON_DEMAND is on.
 */
function weeklyPubmedClient(
  deps: WeeklyDeps,
  userId: string,
  given: WeeklyPubmedClient | null | undefined,
): WeeklyPubmedClient | null {
  if (given !== undefined) return given;
  return deps.config.PUBMED_ON_DEMAND
    ? eutilsClientFor(deps.config, deps.db, { log: (line) => console.warn(`pubmed: ${line}`), userId })
    : null;
}

/**
 * The week's candidates for `profile` (without `exclude`), read and ranked into the four sections, with the
 * articles read for them. With a PubMed client, the headings Potentially Disruptive names are checked against
 * PubMed's counts.
 */
async function chooseWeeksSections(
  deps: WeeklyDeps,
  profile: Profile,
  exclude: ReadonlySet<number>,
  pubmed: WeeklyPubmedClient | null,
  now: Date,
): Promise<{ sections: WeekSections; articles: Map<number, CandidateArticle> }> {
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
  const signals = { ...meshStats, cdIndexes };
  const sections = pubmed
    ? await chooseCheckingHeadings(deps, pubmed, (counts) =>
        chooseSections(candidates, articles, { ...signals, pubmed: counts }, now),
      )
    : chooseSections(candidates, articles, signals, now);
  return { sections, articles };
}

/**
 * Each section's summary (null for an empty section or when the summarizer declines), its citations numbered by
 * first use. Reorders each summarized section of `sections` in place to match (orderSectionByCitations).
 */
async function summarizeSections(
  deps: WeeklyDeps,
  summarizer: Summarizer,
  profile: Profile,
  sections: WeekSections,
): Promise<Record<Section, string | null>> {
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
    const inputs = chosen.map((a) => ({
      ...a,
      abstract_sections: Array.isArray(a.abstract_sections) ? a.abstract_sections : [],
    }));
    const result =
      section === "pertinent_articles"
        ? await summarizeByPart(summarizer, profile, sections[section], inputs)
        : await summarizer.summarize(profile.topic, inputs);
    if (result.summary === null) {
      summaries[section] = null;
      continue;
    }
    const ordered = orderSectionByCitations(result.summary, result.citedPmids, sections[section]);
    sections[section] = ordered.entries;
    summaries[section] = ordered.summary;
  }
  return summaries;
}

/** The week's digest email to `user`: each section's articles with their titles, and an unsubscribe link. */
async function digestMessage(
  deps: WeeklyDeps,
  run: {
    user: { email: string; full_name: string | null };
    userId: string;
    week: string;
    sections: WeekSections;
    articles: ReadonlyMap<number, CandidateArticle>;
  },
) {
  const { user, userId, sections, articles } = run;
  const digestArticles = (entries: SectionEntry[]) =>
    entries.map((e) => ({ ...e, title: articles.get(e.pmid)?.title ?? null }));
  return weeklyDigestEmail({
    to: user.email,
    name: user.full_name || user.email,
    week: run.week,
    sections: Object.fromEntries(SECTIONS.map((s) => [s, digestArticles(sections[s])])) as Record<
      Section,
      ReturnType<typeof digestArticles>
    >,
    origin: siteOrigin(deps.config),
    unsubscribeUrl: `${siteOrigin(deps.config)}/unsubscribe?token=${encodeURIComponent(await unsubscribeToken(deps.secretKey, userId))}`,
    supportEmail: deps.config.SUPPORT_EMAIL,
  });
}

/**
 * Stores the week's batch and, with a message whose digest was not queued before, queues the digest in the same
 * transaction: a crash leaves neither or both.
 * @returns "exists" when another run stored the week first (without `replace`), else "computed".
 */
async function storeWeek(
  deps: WeeklyDeps,
  run: {
    userId: string;
    week: string;
    sections: WeekSections;
    summaries: Record<Section, string | null>;
    message: ReturnType<typeof weeklyDigestEmail> | null;
    replace: boolean | undefined;
    now: Date;
  },
): Promise<WeeklyOutcome> {
  const { userId, sections, summaries, message, now } = run;
  try {
    const queued = await deps.db.transaction().execute(async (trx) => {
      if (!run.replace && (await repo.findBatch(trx, userId, run.week))) return "exists" as const;
      const id = await repo.replaceBatch(trx, { userId, week: run.week, sections, summaries });
      const batch = await repo.findBatch(trx, userId, run.week);
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
 * The user's latest batch in docs/product.md §3's shape, without the articles the user has liked since it was written
 * (and the summary sentences quoting only them; section-summary.ts `withoutArticles`).
 * @throws ApiError 403 without access to suggestions; 404 SUGGESTIONS_NOT_READY before the first batch.
 */
export async function latestSuggestions(deps: Pick<AppDeps, "db">, userId: string): Promise<WeeklySuggestions> {
  if (!(await hasActiveReviewAccess(deps.db, userId))) throw new ApiError(403, SUGGESTIONS_ACCESS_REQUIRED);
  const latest = await repo.latestBatch(deps.db, userId);
  if (!latest) throw new ApiError(404, SUGGESTIONS_NOT_READY);
  const { batch, sections } = latest;
  // The batch was written when the week's run chose it, without what the user liked then; what they liked since is
  // left out now, with the summary's sentences quoting it (issue 35: no section suggests a liked article).
  const liked = await repo.likedAmong(
    deps.db,
    userId,
    SECTIONS.flatMap((s) => (sections[s] ?? []).map((a) => a.pmid)),
  );
  const shown = {} as Record<Section, ReturnType<typeof withoutArticles<SuggestedArticle>>>;
  for (const s of SECTIONS) shown[s] = withoutArticles(batch[`${s}_summary`], sections[s] ?? [], liked);
  return {
    id: batch.id,
    week: batch.week,
    created_at: new Date(batch.created_at).toISOString(),
    new_weekly_articles: shown.new_weekly_articles.entries,
    new_yearly_articles: shown.new_yearly_articles.entries,
    pertinent_articles: shown.pertinent_articles.entries,
    disruptive_articles: shown.disruptive_articles.entries,
    new_weekly_articles_summary: shown.new_weekly_articles.summary,
    new_yearly_articles_summary: shown.new_yearly_articles.summary,
    pertinent_articles_summary: shown.pertinent_articles.summary,
    disruptive_articles_summary: shown.disruptive_articles.summary,
  };
}

/** Turns the weekly digest on or off for `userId`. */
export async function setWeeklyDigest(deps: Pick<AppDeps, "db">, userId: string, on: boolean): Promise<void> {
  await preferences.setWeeklyDigest(deps.db, userId, on);
}
