/**
 * A user's suggestion profile (issue 11): the research interests of their description and their most recent liked
 * articles, each a weighted source of queries. Pure.
 */

/** A liked article as the profile reads it. */
export interface ProfileLike {
  pmid: number;
  title: string | null;
  mesh_terms: string[];
  keywords: string[];
  liked_at: Date;
}

/** One source of candidates: an interest, or a liked article (its title, MeSH headings and keywords). */
export interface ProfileSource {
  kind: "interest" | "like";
  /** What the why-line names: the interest's text, or the liked article's title. */
  label: string;
  /** The text the index is asked about. */
  text: string;
  /** Weight in the fusion (interests 1; likes decay with age, see LIKE_HALF_LIFE_DAYS). */
  weight: number;
  /** The liked article's PMID (kind "like"). */
  pmid?: number;
}

export interface Profile {
  sources: ProfileSource[];
  /** Every liked PMID: never suggested. */
  likedPmids: number[];
  /** A short text naming the profile, for the section summaries' relevance (interests first, then liked titles). */
  topic: string;
}

/** At most this many interests are read (spec §9: 5 slots). */
export const MAX_INTERESTS = 5;
/** The most recent likes that become sources; older likes still exclude their articles. */
export const MAX_LIKE_SOURCES = 5;
/**
 * A like's weight halves every 90 days: what someone liked this month says more about what they read now than what
 * they liked last year. The half-life is a product choice, checked with the offline evaluation (docs/benchmarks.md).
 */
export const LIKE_HALF_LIFE_DAYS = 90;
/** Likes never weigh less than this, so that an old like still counts when it is all there is. */
const MIN_LIKE_WEIGHT = 0.25;

/** The interests of a description: split on commas (the settings page joins its 5 slots with commas), trimmed, unique. */
export function interestsOf(description: string | null): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of (description ?? "").split(",")) {
    const interest = raw.trim().replace(/\s+/g, " ");
    const key = interest.toLowerCase();
    if (interest && !seen.has(key)) {
      seen.add(key);
      out.push(interest);
    }
  }
  return out.slice(0, MAX_INTERESTS);
}

/**
 * Builds the profile of a user from their description and liked articles (any order).
 * @param now the time likes' ages are measured from.
 */
export function buildProfile(description: string | null, likes: readonly ProfileLike[], now: Date): Profile {
  const interests = interestsOf(description);
  const recent = [...likes].sort((a, b) => b.liked_at.getTime() - a.liked_at.getTime());
  const sources: ProfileSource[] = interests.map((i) => ({ kind: "interest", label: i, text: i, weight: 1 }));
  for (const like of recent.slice(0, MAX_LIKE_SOURCES)) {
    const text = [like.title ?? "", like.mesh_terms.join(". "), like.keywords.join(". ")].filter(Boolean).join(". ");
    if (!text.trim()) continue;
    const ageDays = Math.max(0, (now.getTime() - like.liked_at.getTime()) / 86_400_000);
    const weight = Math.max(MIN_LIKE_WEIGHT, 0.5 ** (ageDays / LIKE_HALF_LIFE_DAYS));
    sources.push({ kind: "like", label: like.title?.trim() || `PMID ${like.pmid}`, text, weight, pmid: like.pmid });
  }
  const topic = [...interests, ...recent.slice(0, 3).map((l) => l.title ?? "")].filter(Boolean).join("; ");
  return { sources, likedPmids: likes.map((l) => l.pmid), topic };
}
