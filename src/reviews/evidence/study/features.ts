/**
 * Features of a whole study for the learned design and appraisal classifiers (study/classify.ts): what the PubMed
 * record says of it (publication types, study-design and subject MeSH headings) and the words of its abstract, those
 * of the objective and methods sentences apart (what was done), as single words and pairs ("non randomized",
 * "retrospectively reviewed"). The title is left out on purpose: it often names a design the study did not follow
 * ("Case-control studies of two kinds of method…" for a two-arm comparison). Pure.
 */
import type { SummaryArticle } from "../../summary/types.ts";
import type { AbstractView } from "../abstract-view.ts";
import { participantCandidates } from "../participants/candidates.ts";

// MeSH headings that say how a study was done or on whom (the "Epidemiologic Studies" and "Clinical Studies as
// Topic" branches, the check tags), kept as features; other headings name topics.
const DESIGN_MESH =
  /stud(?:y|ies)|trial|random|blind|review|report|analysis|cohort|case|retrospective|prospective|follow-up|control|^humans$|^animals$|^male$|^female$|^child|^adult|^aged|^infant|^adolescent|^pregnancy$|^in vitro|^cells, cultured$|^mice$|^rats$/iu;

/** The features of one article (its record and its abstract's view). */
export function studyFeatures(article: SummaryArticle, view: AbstractView): string[] {
  const f = new Set<string>();
  for (const t of article.publication_types ?? []) f.add(`pt:${t.toLowerCase()}`);
  for (const m of article.mesh_terms ?? []) if (DESIGN_MESH.test(m)) f.add(`mesh:${m.toLowerCase()}`);
  if (view.sentences.length === 0) f.add("no_abstract");
  // Whom the abstract counts: studies of patients count people; laboratory and methods papers count other things, and
  // a case report describes one person.
  const candidates = participantCandidates(view);
  const people = candidates.filter((c) => c.arms === null && c.features.includes("noun:PEOPLE")).length;
  f.add(`people_counts:${Math.min(people, 4)}`);
  if (candidates.some((c) => c.features.includes("single_person"))) f.add("one_person");
  if (candidates.some((c) => c.features.includes("arms"))) f.add("group_sizes");
  f.add(`structured:${view.sentences.some((s) => s.labelled)}`);
  f.add(`sentences:${Math.min(12, Math.floor(view.sentences.length / 2))}`);
  for (const s of view.sentences) {
    const methods = s.role === "METHODS" || s.role === "OBJECTIVE";
    let prev = "<s>";
    for (const t of s.tokens) {
      if (t.kind !== "word") {
        if (t.kind === "number") prev = "<num>";
        continue;
      }
      f.add(`w:${t.norm}`);
      if (methods) {
        f.add(`mw:${t.norm}`);
        f.add(`mb:${prev}_${t.norm}`);
      } else f.add(`b:${prev}_${t.norm}`);
      prev = t.norm;
    }
  }
  return [...f];
}
