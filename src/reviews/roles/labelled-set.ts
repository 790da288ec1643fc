/**
 * The hand-labelled set of tests/fixtures/sentence-roles-labelled.json (sentences of unstructured sample abstracts,
 * every sentence of each abstract in order, with a role judged by reading them) regrouped into abstracts, for the
 * benchmark and the tests.
 */
import type { SentenceRole } from "./features.ts";

/** One hand-labelled sentence as stored; role null: not part of the abstract's argument (e.g. a copyright line). */
export interface LabelledSentence {
  pmid: number;
  /** Position of the sentence in its abstract, from 0. */
  index: number;
  sentence: string;
  role: SentenceRole | null;
  /**
   * How the abstract was chosen: "hash" (sample abstracts in PMID-hash order), "quoted" (quoted by bench-evidence),
   * "bench-quoted" (every abstract bench-evidence quoted that no other label judged, 2026-11-26).
   */
  set?: string;
}

/**
 * The stored sentences grouped into abstracts (sentences in index order), abstracts in file order.
 * @throws Error when an abstract's indices are not 0..n-1 (a broken fixture).
 */
export function labelledAbstracts(file: {
  sentences: readonly { pmid: number; index: number; sentence: string; role: string | null; set?: string }[];
}): { pmid: number; set: string; sentences: string[]; roles: (SentenceRole | null)[] }[] {
  const groups = new Map<number, LabelledSentence[]>();
  for (const s of file.sentences) {
    const list = groups.get(s.pmid) ?? [];
    list.push(s as LabelledSentence);
    groups.set(s.pmid, list);
  }
  return [...groups].map(([pmid, list]) => {
    const ordered = [...list].sort((a, b) => a.index - b.index);
    ordered.forEach((s, i) => {
      if (s.index !== i) throw new Error(`labelled set: PMID ${pmid} lacks sentence ${i}`);
    });
    return {
      pmid,
      set: ordered[0]?.set ?? "",
      sentences: ordered.map((s) => s.sentence),
      roles: ordered.map((s) => s.role),
    };
  });
}
