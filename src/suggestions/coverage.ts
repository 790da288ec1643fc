/**
 * Every interest gets its place in a section (issue 24; docs/decisions/0017-weekly-suggestions.md, amendment of
 * 2026-11-26). Fused ranking alone (fusion.ts) serves the dominant part of a profile: three likes, each a source, and
 * their pooled reading list outweigh an interest that no like shares, so a reader with three interests and likes of
 * the third saw ten articles on one topic. Here a section is filled in two passes:
 * 1. **Quota, interleaved.** The profile's groups take turns: each interest is a group, and the likes (single likes
 *    and the pooled reading list together) one more. In each of `quotaRounds` rounds, each group in turn takes its
 *    best article not yet taken: for an interest, the best-ranked by that interest's own query; for the likes, the
 *    highest sum of the like sources' contributions. The section's first pages thus show one article per group.
 * 2. **Fill by score.** The rest of the section takes the fused ranking's best, as before.
 * This is the "round-robin with a quota, then by score" way of diversifying a fused list by query aspect (explicit
 * aspect coverage in Santos, Macdonald & Ounis, "Search result diversification", Foundations and Trends in
 * Information Retrieval 9(1), 2015), with each declared interest as an aspect. A group whose list holds nothing the
 * section accepts is skipped: the quota never makes room for a poor match, it only reorders what the sources found.
 * Pure.
 */
import type { FusedCandidate } from "./fusion.ts";
import type { ProfileSource } from "./profile.ts";

/** An aspect of the profile that a section should represent: one interest, or the likes together. */
export interface SourceGroup {
  /** "interest:<text>" or "likes". */
  key: string;
  sources: ProfileSource[];
}

/** The groups of a profile's sources, interests first in their order, then the likes (when there are any). */
export function sourceGroups(sources: readonly ProfileSource[]): SourceGroup[] {
  const groups: SourceGroup[] = [];
  const likes: ProfileSource[] = [];
  for (const s of sources) {
    if (s.kind === "interest") groups.push({ key: `interest:${s.text}`, sources: [s] });
    else likes.push(s);
  }
  if (likes.length > 0) groups.push({ key: "likes", sources: likes });
  return groups;
}

/**
 * Rounds of the quota for `groups` groups in a section of `size`: half the section at most goes to the quota (the
 * other half follows the fused score), and each group has at least one round. 3 interests and likes in 10: 1 round;
 * 2 groups: 2 rounds.
 */
export function quotaRounds(groups: number, size: number): number {
  return groups <= 1 ? 0 : Math.max(1, Math.floor(size / 2 / groups));
}

/** One chosen candidate and the source its why-line names. */
export interface CoveredPick {
  candidate: FusedCandidate<ProfileSource>;
  source: ProfileSource;
}

/**
 * Chooses at most `size` candidates of `list` (fused, best first) that `accept` takes: the interleaved quota of each
 * group of `sources` first, then by fused score (see the module comment). A quota pick names its group's source in
 * the why-line; a fill pick names the source that contributed most. `accept` must be pure (it may be asked about one
 * candidate more than once).
 */
export function pickCovering(
  list: readonly FusedCandidate<ProfileSource>[],
  sources: readonly ProfileSource[],
  size: number,
  accept: (c: FusedCandidate<ProfileSource>) => boolean,
): CoveredPick[] {
  const groups = sourceGroups(sources);
  const rounds = quotaRounds(groups.length, size);
  const taken = new Set<number>();
  const out: CoveredPick[] = [];
  const contributionsOf = (c: FusedCandidate<ProfileSource>) =>
    c.contributions ?? [{ source: c.best, rank: 1, contribution: c.score }];
  // Each group's candidates, best for the group first (its sources' summed contributions; the fused order breaks ties).
  const queues = groups.map((g) => {
    const members = new Set(g.sources);
    const scored: { c: FusedCandidate<ProfileSource>; score: number; source: ProfileSource; order: number }[] = [];
    list.forEach((c, order) => {
      let score = 0;
      let source: ProfileSource | null = null;
      let bestContribution = -1;
      for (const k of contributionsOf(c)) {
        if (!members.has(k.source)) continue;
        score += k.contribution;
        if (k.contribution > bestContribution) {
          bestContribution = k.contribution;
          source = k.source;
        }
      }
      if (source) scored.push({ c, score, source, order });
    });
    scored.sort((x, y) => y.score - x.score || x.order - y.order);
    return { scored, next: 0 };
  });
  for (let round = 0; round < rounds && out.length < size; round++) {
    for (const q of queues) {
      if (out.length >= size) break;
      while (q.next < q.scored.length) {
        const { c, source } = q.scored[q.next++]!;
        if (taken.has(c.pmid) || !accept(c)) continue;
        taken.add(c.pmid);
        out.push({ candidate: c, source });
        break;
      }
    }
  }
  for (const c of list) {
    if (out.length >= size) break;
    if (taken.has(c.pmid) || !accept(c)) continue;
    taken.add(c.pmid);
    out.push({ candidate: c, source: c.best });
  }
  return out;
}

/**
 * The PMIDs of `list` the quota may reach for: those within the first `depth` of any source's own ranking. The weekly
 * run reads these articles besides the fused head, since an interest that the likes outweigh ranks its best articles
 * far down the fused list.
 */
export function sourceHeads(list: readonly FusedCandidate<ProfileSource>[], depth: number): number[] {
  return list.filter((c) => (c.contributions ?? []).some((k) => k.rank <= depth)).map((c) => c.pmid);
}
