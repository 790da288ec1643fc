/**
 * What the review's evidence table reads from one article, in its detail dialog (issue 33 item 6): design and level,
 * the appraisal items the abstract states, the participants and every between-group result, each with the sentence
 * it was read from marked in the abstract below. Loaded from GET /api/v1/articles/{pmid}/evidence when the dialog
 * opens (part of the dialog's lazily loaded chunk). Test ids: `article-evidence`, `article-evidence-participants`,
 * `article-evidence-effect`.
 */
import { useQuery } from "@tanstack/react-query";
import { DESIGN_INFO } from "../../src/articles/evidence.ts";
import { appraisalPhrases, effectPhrase, participantsPhrase } from "../../src/reviews/evidence/phrases.ts";
import { api } from "../lib/api.ts";
import type { components } from "../lib/api-types.gen.ts";
import * as css from "./ArticleCard.css.ts";

export type StudyEvidence = components["schemas"]["StudyEvidence"];

/** The query key of one article's evidence. */
export const evidenceKey = (pmid: number) => ["article", pmid, "evidence"] as const;

/** GET /articles/{pmid}/evidence. */
export function fetchEvidence(pmid: number, signal?: AbortSignal): Promise<StudyEvidence> {
  return api("GET", "/articles/{article_pmid}/evidence", { path: { article_pmid: pmid }, signal });
}

/** One article's evidence, fetched once per page (it does not change while the page is open). */
export function useArticleEvidence(pmid: number | null | undefined) {
  return useQuery({
    queryKey: evidenceKey(pmid ?? 0),
    queryFn: ({ signal }) => fetchEvidence(pmid as number, signal),
    enabled: typeof pmid === "number" && pmid > 0,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The sentences of the abstract that the evidence's numbers were read from. */
export function evidenceSources(e: StudyEvidence | undefined): string[] {
  if (!e) return [];
  return [e.participants_text, ...e.effects.map((x) => x.text)].filter((s): s is string => typeof s === "string");
}

/** The evidence block of the dialog; nothing while loading, on error, or when the abstract states nothing. */
export function ArticleEvidence({ evidence }: { evidence: StudyEvidence | undefined }) {
  if (!evidence) return null;
  const design = evidence.design ? DESIGN_INFO[evidence.design].label : null;
  const participants = participantsPhrase(evidence);
  const appraisal = appraisalPhrases(evidence.appraisal);
  if (!design && !participants && evidence.effects.length === 0 && appraisal.length === 0) return null;
  return (
    <section className={css.evidence} aria-label="Evidence read from the abstract" data-testid="article-evidence">
      <p className={css.evidenceLine}>
        {design ? <strong>{design}</strong> : null}
        {evidence.evidence_level !== null ? ` · OCEBM level ${evidence.evidence_level}` : null}
        {appraisal.length > 0 ? ` · ${appraisal.join(" · ")}` : null}
      </p>
      {participants ? (
        <p className={css.evidenceLine} data-testid="article-evidence-participants">
          Participants: <span className={css.evidenceNumber}>{participants}</span>
        </p>
      ) : null}
      {evidence.effects.length > 0 ? (
        <ul className={css.evidenceList}>
          {evidence.effects.map((e, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: an article's effects, fixed once read
            <li key={i} data-testid="article-evidence-effect">
              <span className={css.evidenceNumber}>{effectPhrase(e)}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <p className={css.evidenceNote}>Read from the abstract; the sentences these come from are marked below.</p>
    </section>
  );
}
