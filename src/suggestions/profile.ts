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

/**
 * One source of candidates: an interest; a recent liked article (its title, MeSH headings and keywords); or all the
 * liked articles together ("likes": the classic "more like this" query of the whole reading list, which keeps the
 * older likes in play when they are past MAX_LIKE_SOURCES).
 */
export interface ProfileSource {
  kind: "interest" | "like" | "likes";
  /** What the why-line names: the interest's text, or the liked article's title (the latest one's, for "likes"). */
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

/** At most this many interests are read (docs/product.md §9: 5 slots). */
export const MAX_INTERESTS = 5;
/** The most recent likes that become sources; older likes still exclude their articles. */
export const MAX_LIKE_SOURCES = 5;
/**
 * A like's weight halves every 90 days: what someone liked this month says more about what they read now than what
 * they liked last year. The half-life is a product choice, checked with the offline evaluation (docs/benchmarks.md).
 */
export const LIKE_HALF_LIFE_DAYS = 90;
/** Liked articles pooled into the "likes" source (most recent first). */
export const MAX_POOLED_LIKES = 20;
/** Likes never weigh less than this, so that an old like still counts when it is all there is. */
const MIN_LIKE_WEIGHT = 0.25;

/**
 * What the index is asked about a liked article: its title, MeSH headings and keywords, one sentence each. A title's
 * own final period is dropped first: "…abscess.. Abscess" would be read as a word "..", which abstracts also contain
 * and which, being rare, weighed more than any real word of the profile.
 */
export function likeText(like: Pick<ProfileLike, "title" | "mesh_terms" | "keywords">): string {
  return [like.title ?? "", ...like.mesh_terms, ...like.keywords]
    .map((part) => part.trim().replace(/[.\s]+$/, ""))
    .filter(Boolean)
    .join(". ");
}

/**
 * The interests of a description: split on commas (the settings page joins its 5 slots with commas), trimmed, unique.
 */
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
    const text = likeText(like);
    if (!text.trim()) continue;
    const ageDays = Math.max(0, (now.getTime() - like.liked_at.getTime()) / 86_400_000);
    const weight = Math.max(MIN_LIKE_WEIGHT, 0.5 ** (ageDays / LIKE_HALF_LIFE_DAYS));
    sources.push({ kind: "like", label: like.title?.trim() || `PMID ${like.pmid}`, text, weight, pmid: like.pmid });
  }
  // The whole reading list as one more source, once there is more than one like to combine.
  const pooled = recent
    .slice(0, MAX_POOLED_LIKES)
    .map(likeText)
    .filter((t) => t.trim());
  if (pooled.length > 1)
    sources.push({
      kind: "likes",
      label: recent[0]!.title?.trim() || `PMID ${recent[0]!.pmid}`,
      text: pooled.join(". "),
      weight: 1,
    });
  const topic = [...interests, ...recent.slice(0, 3).map((l) => l.title ?? "")].filter(Boolean).join("; ");
  return { sources, likedPmids: likes.map((l) => l.pmid), topic };
}
