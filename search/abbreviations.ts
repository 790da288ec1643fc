/**
 * Abbreviation definitions in biomedical text ("nasopharyngeal carcinoma (NPC)"), after Schwartz & Hearst (2003).
 * Used by the summarizer (an abstract's own definitions) and by the topic reader (search/concepts.ts), which learns
 * an abbreviation's long forms from the abstracts that define it.
 */

/**
 * Finds "long form (SF)" definitions in a text with the algorithm of Schwartz &
 * Hearst (2003, "A simple algorithm for identifying abbreviation definitions in
 * biomedical text", PSB 8:451-462): every character of the short form must
 * appear, in order, in the words before the parenthesis, the first one at the
 * start of a word.
 *
 * @returns Short form (case kept) → long form, first definition wins.
 */
export function findAbbreviations(text: string): Map<string, string> {
  const found = new Map<string, string>();
  const re = /\(\s*([\p{L}\p{N}][\p{L}\p{N}-]{1,9})\s*[);,]/gu;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const sf = m[1] ?? "";
    if (!/\p{L}/u.test(sf) || found.has(sf)) continue;
    const before = text.slice(Math.max(0, m.index - 200), m.index).trimEnd();
    const words = before.split(" ");
    const maxWords = Math.min(sf.length + 5, sf.length * 2);
    const candidate = words.slice(-maxWords).join(" ");
    const lf = bestLongForm(sf, candidate);
    if (lf !== null && lf.length > sf.length && !lf.toLowerCase().includes(sf.toLowerCase())) found.set(sf, lf);
  }
  return found;
}

/** The matching step of Schwartz & Hearst (2003), Figure 2. */
function bestLongForm(shortForm: string, longForm: string): string | null {
  let s = shortForm.length - 1;
  let l = longForm.length - 1;
  const isAlnum = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
  while (s >= 0) {
    const c = (shortForm[s] ?? "").toLowerCase();
    if (!isAlnum(c)) {
      s--;
      continue;
    }
    while (l >= 0 && ((longForm[l] ?? "").toLowerCase() !== c || (s === 0 && l > 0 && isAlnum(longForm[l - 1])))) l--;
    if (l < 0) return null;
    l--;
    s--;
  }
  const start = longForm.lastIndexOf(" ", l) + 1;
  return longForm.slice(start).trim() || null;
}
