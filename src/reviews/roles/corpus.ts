/**
 * The labelled corpus of the sentence-role classifier: the structured abstracts of real PubMed XML, whose sections
 * carry NLM's categories (AbstractText@NlmCategory), turned into sequences of (sentence, role) pairs the way the
 * classifier meets unstructured text: the sections are joined into one plain text and split with splitSentences, and
 * each sentence takes the role of the section it came from. Used by the training script, the benchmark and the tests;
 * never by the product at run time.
 */
import { readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { join } from "node:path";
import { parsePubmedFile } from "../../../search/pubmed/parser.ts";
import type { AbstractSection } from "../../db/types.ts";
import { classifySection, normalizeWhitespace, splitSentences } from "../sentences.ts";
import { SENTENCE_ROLES, type SentenceRole } from "./features.ts";

/** One abstract as a sequence of sentences with their roles (null: the sentence spans two sections). */
export interface LabelledAbstract {
  pmid: number;
  sentences: string[];
  /** roles[i] is the role of sentences[i]; null when it straddles a section boundary (not scored, not trained on). */
  roles: (SentenceRole | null)[];
}

/** The XML directories the corpus is read from, relative to the repository root: the sample and the shared data. */
export const CORPUS_DIRS = ["sample/pubmed", "/work/shared/data/pubmed"] as const;

/**
 * FNV-1a 32-bit hash of the PMID's decimal string (Fowler, Noll & Vo): a stable, platform-independent split key.
 * @returns an unsigned 32-bit integer.
 */
export function pmidHash(pmid: number): number {
  let h = 0x811c9dc5;
  for (const ch of String(pmid)) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Which part of the corpus an abstract belongs to: 1 in 5 PMIDs (by hash) is held out and never trained on. */
export function splitOf(pmid: number): "train" | "heldout" {
  return pmidHash(pmid) % 5 === 0 ? "heldout" : "train";
}

/**
 * The sentences of a structured abstract as unlabelled text, each with its section's role; null when the abstract is
 * not usable as labelled data (fewer than 3 sections, or a section whose role is unknown, e.g. NLM's UNASSIGNED).
 */
export function labelAbstract(pmid: number, sections: readonly AbstractSection[]): LabelledAbstract | null {
  if (sections.length < 3) return null;
  const parts: { role: SentenceRole; text: string }[] = [];
  for (const s of sections) {
    const kind = classifySection(s.label ?? "", s.nlm_category ?? null);
    const text = normalizeWhitespace(s.text ?? "");
    if (text === "") continue;
    if (kind === "UNLABELLED") return null;
    parts.push({ role: kind, text });
  }
  if (parts.length < 3 || new Set(parts.map((p) => p.role)).size < 2) return null;
  // The labels hidden: the sections become one text, split as any unstructured abstract is.
  const starts: number[] = [];
  let joined = "";
  for (const p of parts) {
    if (joined !== "") joined += " ";
    starts.push(joined.length);
    joined += p.text;
  }
  const partAt = (offset: number) => {
    let k = 0;
    while (k + 1 < starts.length && (starts[k + 1] as number) <= offset) k++;
    return k;
  };
  const sentences = splitSentences(joined);
  const roles: (SentenceRole | null)[] = [];
  let cursor = 0;
  for (const sentence of sentences) {
    const at = joined.indexOf(sentence, cursor);
    const start = at < 0 ? cursor : at;
    const end = start + sentence.length - 1;
    cursor = start + sentence.length;
    const first = partAt(start);
    roles.push(first === partAt(end) ? (parts[first] as { role: SentenceRole }).role : null);
  }
  return { pmid, sentences, roles };
}

/**
 * Reads every structured abstract of the PubMed XML files (.xml.gz) in `dirs`, files in sorted order, each PMID once
 * (its first occurrence), sorted by PMID.
 * @param root Repository root that relative directories are resolved against; a missing directory is skipped.
 */
export async function loadLabelledAbstracts(
  root: string,
  dirs: readonly string[] = CORPUS_DIRS,
): Promise<LabelledAbstract[]> {
  const byPmid = new Map<number, LabelledAbstract | null>();
  for (const dir of dirs) {
    const path = dir.startsWith("/") ? dir : join(root, dir);
    let files: string[];
    try {
      files = readdirSync(path)
        .filter((f) => f.endsWith(".xml.gz"))
        .sort();
    } catch {
      continue;
    }
    for (const file of files) {
      for await (const ev of parsePubmedFile(join(path, file), { readInWorker: false })) {
        if (ev.type !== "article" || byPmid.has(ev.article.pmid)) continue;
        byPmid.set(ev.article.pmid, labelAbstract(ev.article.pmid, ev.article.abstract_sections));
      }
    }
  }
  return [...byPmid.values()].filter((a): a is LabelledAbstract => a !== null).sort((a, b) => a.pmid - b.pmid);
}

/** Per-class and overall agreement of predicted with gold roles (null gold roles are skipped). */
export interface RoleScores {
  sentences: number;
  accuracy: number;
  /** Per role: precision, recall, F1 and the number of gold sentences (support). */
  perClass: Record<SentenceRole, { precision: number; recall: number; f1: number; support: number }>;
  /** confusion[gold][predicted] counts. */
  confusion: Record<SentenceRole, Record<SentenceRole, number>>;
}

/** Accuracy, per-class precision/recall/F1 and the confusion matrix over pairs of gold and predicted roles. */
export function scoreRoles(pairs: Iterable<{ gold: SentenceRole | null; predicted: SentenceRole }>): RoleScores {
  const zeroRow = () => Object.fromEntries(SENTENCE_ROLES.map((r) => [r, 0])) as Record<SentenceRole, number>;
  const confusion = Object.fromEntries(SENTENCE_ROLES.map((r) => [r, zeroRow()])) as RoleScores["confusion"];
  let n = 0;
  let correct = 0;
  for (const { gold, predicted } of pairs) {
    if (gold === null) continue;
    n++;
    if (gold === predicted) correct++;
    confusion[gold][predicted]++;
  }
  const perClass = {} as RoleScores["perClass"];
  for (const r of SENTENCE_ROLES) {
    const tp = confusion[r][r];
    const support = SENTENCE_ROLES.reduce((s, p) => s + confusion[r][p], 0);
    const predictedCount = SENTENCE_ROLES.reduce((s, g) => s + confusion[g][r], 0);
    const precision = predictedCount === 0 ? 0 : tp / predictedCount;
    const recall = support === 0 ? 0 : tp / support;
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    perClass[r] = { precision, recall, f1, support };
  }
  return { sentences: n, accuracy: n === 0 ? 0 : correct / n, perClass, confusion };
}

/** PubMedQA's expert-annotated instances (sample/pubmedqa/ori_pqal.json.gz), relative to the repository root. */
export const PUBMEDQA_FILE = "sample/pubmedqa/ori_pqal.json.gz";

/**
 * The structured abstracts of PubMedQA's 1,000 expert-annotated instances (Jin Q, et al. "PubMedQA: a dataset for
 * biomedical research question answering", EMNLP 2019), as extra training data: each instance keeps its abstract's
 * sections with their printed labels (CONTEXTS, LABELS) less the conclusion, which it gives apart (LONG_ANSWER) and
 * which is put back at the end as CONCLUSIONS. Labels are mapped with classifySection, as printed labels without an
 * NLM category are; an abstract with a label that maps to no role, or that joins two ("METHODS AND RESULTS"), is left
 * out. Sorted by PMID; [] when the file is missing.
 */
export function loadPubmedQaAbstracts(root: string): LabelledAbstract[] {
  let raw: Record<string, { CONTEXTS?: string[]; LABELS?: string[]; LONG_ANSWER?: string }>;
  try {
    raw = JSON.parse(gunzipSync(readFileSync(join(root, PUBMEDQA_FILE))).toString("utf8"));
  } catch {
    return [];
  }
  const out: LabelledAbstract[] = [];
  for (const [id, item] of Object.entries(raw)) {
    const pmid = Number(id);
    const contexts = item.CONTEXTS ?? [];
    const labels = item.LABELS ?? [];
    if (!Number.isSafeInteger(pmid) || contexts.length !== labels.length || !item.LONG_ANSWER) continue;
    if (labels.some((l) => /\bAND\b/u.test(l) && classifySection(l, null) !== "OBJECTIVE")) continue;
    const sections: AbstractSection[] = contexts.map((text, i) => ({
      label: labels[i] as string,
      nlm_category: null,
      text,
    }));
    sections.push({ label: "CONCLUSIONS", nlm_category: "CONCLUSIONS", text: item.LONG_ANSWER });
    const a = labelAbstract(pmid, sections);
    if (a !== null) out.push(a);
  }
  return out.sort((a, b) => a.pmid - b.pmid);
}
