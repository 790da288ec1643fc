/**
 * Features of the sentence-role classifier, shared by training (scripts/train-sentence-roles.ts) and inference
 * (classifier.ts) so that both see exactly the same strings. Per sentence: word unigrams and bigrams (lowercased, any
 * token with a digit mapped to "<num>"), the sentence's first words, its position in the abstract, cue features of
 * reported statistics (p values, confidence intervals, percentages, ratios), its length, and the first words and cues
 * of its neighbours. Position and context carry much of the signal: on PubMed 200k RCT (Dernoncourt F, Lee JY. "PubMed
 * 200k RCT: a dataset for sequential sentence classification in medical abstracts", IJCNLP 2017) models that see
 * the surrounding sentences beat those that classify each sentence alone.
 */

/** The five roles of NLM's structured-abstract categories. */
export type SentenceRole = "BACKGROUND" | "OBJECTIVE" | "METHODS" | "RESULTS" | "CONCLUSIONS";

/** The roles in the fixed order the model's weight vectors use. */
export const SENTENCE_ROLES: readonly SentenceRole[] = ["BACKGROUND", "OBJECTIVE", "METHODS", "RESULTS", "CONCLUSIONS"];

const TOKEN = /[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*|[%<>=≤≥±]/gu;

/** Lowercased word tokens of a sentence; a token holding a digit becomes "<num>". */
export function roleTokens(sentence: string): string[] {
  const out: string[] = [];
  for (const m of sentence.toLowerCase().matchAll(TOKEN)) out.push(/\p{N}/u.test(m[0]) ? "<num>" : m[0]);
  return out;
}

const P_VALUE = /\b[pP]\s*(?:[<=>≤≥]|values?\b)|\bp\s*-\s*value/u;
const CI = /\b(?:95\s*%\s*)?CI\b|confidence intervals?/iu;
const RATIO = /\b(?:OR|RR|HR|aOR|aHR|IRR|SMD|MD|WMD)\b|odds ratios?|hazard ratios?|relative risks?/u;
const N_EQUALS = /\b[nN]\s*=\s*\d/u;

/** Cue names of a sentence (statistics it reports), shared by its own features and its neighbours'. */
function cues(sentence: string): string[] {
  const out: string[] = [];
  if (P_VALUE.test(sentence)) out.push("p");
  if (CI.test(sentence)) out.push("ci");
  if (sentence.includes("%")) out.push("pct");
  if (RATIO.test(sentence)) out.push("ratio");
  if (N_EQUALS.test(sentence)) out.push("n=");
  if (sentence.endsWith("?")) out.push("q");
  return out;
}

function bucket(value: number, edges: readonly number[]): number {
  let b = 0;
  while (b < edges.length && value >= (edges[b] as number)) b++;
  return b;
}

/**
 * Feature strings of every sentence of one abstract, in order.
 * @param sentences The abstract's sentences (as splitSentences gives them), in order.
 * @returns features[i] lists sentence i's features (duplicates removed); binary features, value 1.
 */
export function abstractFeatures(sentences: readonly string[]): string[][] {
  const n = sentences.length;
  const tokens = sentences.map(roleTokens);
  const sentenceCues = sentences.map(cues);
  const opener = (i: number) => {
    const t = tokens[i] ?? [];
    return `${t[0] ?? ""}_${t[1] ?? ""}`;
  };
  return sentences.map((_, i) => {
    const t = tokens[i] as string[];
    const f = new Set<string>(["bias"]);
    for (const w of t) f.add(`w:${w}`);
    for (let k = 0; k + 1 < t.length; k++) f.add(`b:${t[k]}_${t[k + 1]}`);
    f.add(`f1:${t[0] ?? ""}`);
    f.add(`f2:${opener(i)}`);
    // Position: relative (tenths), from the start and from the end, and the abstract's length.
    const rel = n <= 1 ? 0 : Math.min(9, Math.floor((10 * i) / n));
    f.add(`rel:${rel}`);
    f.add(`idx:${Math.min(i, 4)}`);
    f.add(`end:${Math.min(n - 1 - i, 4)}`);
    f.add(`n:${bucket(n, [4, 7, 10, 14])}`);
    f.add(`len:${bucket(t.length, [8, 15, 25, 40])}`);
    const digits = t.filter((w) => w === "<num>").length;
    f.add(`num:${bucket(digits, [1, 2, 4, 8])}`);
    for (const c of sentenceCues[i] as string[]) {
      f.add(`c:${c}`);
      f.add(`c:${c}@${Math.min(4, Math.floor((5 * i) / Math.max(1, n)))}`);
    }
    // Neighbours: how the previous and next sentences open, and what they report.
    if (i > 0) {
      f.add(`p2:${opener(i - 1)}`);
      for (const c of sentenceCues[i - 1] as string[]) f.add(`pc:${c}`);
    } else f.add("p:none");
    if (i + 1 < n) {
      f.add(`n2:${opener(i + 1)}`);
      for (const c of sentenceCues[i + 1] as string[]) f.add(`nc:${c}`);
    } else f.add("n:none");
    return [...f];
  });
}
