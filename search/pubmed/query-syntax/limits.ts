/**
 * The limits a search strategy typed by a user is held to before it is evaluated (issue 34): how many terms, how
 * deeply nested, how many different characters. With them, and the strategy's length limit (src/reviews/schemas.ts
 * MAX_STRATEGY_LENGTH), the cost of evaluating a strategy is bounded by construction: per article, a few tsvector
 * lookups and at most one substring search per term and source (evaluate.ts), and a SQL condition whose size and depth
 * are bounded (PostgreSQL, and above all the embedded engine, whose stack is small, recurse over a condition's depth).
 * docs/decisions/0048-bounded-strategy-evaluation.md gives the measurements behind the numbers.
 */
import { PubmedQuerySyntaxError, type PubmedQueryNode } from "./types.ts";
import { foldCase } from "./words.ts";

/**
 * Most terms (words, phrases, tagged terms, dates) in one strategy: our choice, a strategy of several concepts with
 * a few dozen synonyms each, and about what the 2,000-character limit holds at 20 characters a term (`child*[tiab] OR `
 * is 16). The evaluation's cost per article grows linearly with it; at 100, the costliest strategy the limits allow
 * takes 0.6–0.8 s over the sample on the embedded database (docs/benchmarks.md, "Hardening, fourth round").
 */
export const MAX_STRATEGY_TERMS = 100;

/**
 * Deepest nesting of AND, OR and NOT: our choice, well above a strategy that groups synonyms by concept (two or three
 * levels), and low enough to keep the SQL condition shallow (the embedded engine's stack is small). Parentheses nest,
 * and so does each switch of operator outside them, since PubMed reads operators left to right (`a OR b AND c` is
 * `(a OR b) AND c`); a run of one operator (`a OR b OR c`, `a NOT b NOT c`) is one level.
 */
export const MAX_STRATEGY_DEPTH = 10;

/**
 * Most different characters in one strategy, not counting case or white space: our choice. English text has 26
 * letters, 10 digits and a dozen signs (the benchmark's typical strategy uses 24 in all); adding the Greek alphabet and
 * accented letters stays under 100. Since issue 34 no cost depends on it (case is folded once per text, whatever the
 * query's letters); it refuses, with a clear message, input that is not a search strategy (the probe of hundreds of
 * distinct letters), should a later change bring back work per distinct character.
 */
export const MAX_STRATEGY_DISTINCT_CHARACTERS = 120;

/** The number of terms of a parsed query. */
export function termCount(node: PubmedQueryNode): number {
  if (node.kind === "term") return 1;
  if (node.kind === "not") return termCount(node.include) + termCount(node.exclude);
  return node.children.reduce((n, c) => n + termCount(c), 0);
}

/** The nesting depth of a parsed query as MAX_STRATEGY_DEPTH counts it (a term alone is 0). */
export function nestingDepth(node: PubmedQueryNode): number {
  if (node.kind === "term") return 0;
  if (node.kind === "not") {
    // A chain `a NOT b NOT c` is one level: its innermost include and every exclusion sit below it.
    const parts: PubmedQueryNode[] = [];
    let at: PubmedQueryNode = node;
    while (at.kind === "not") {
      parts.push(at.exclude);
      at = at.include;
    }
    parts.push(at);
    return 1 + Math.max(...parts.map(nestingDepth));
  }
  return 1 + Math.max(...node.children.map(nestingDepth));
}

/** The different characters of a strategy, not counting case or white space. */
export function distinctCharacters(text: string): number {
  return new Set(foldCase(text.normalize("NFC")).replace(/\s+/gu, "")).size;
}

/**
 * Checks a parsed strategy against the limits above.
 * @param text the strategy as typed; `node` its parse (parse.ts parsePubmedQuery).
 * @throws PubmedQuerySyntaxError naming the limit and the strategy's own count, for the user.
 */
export function checkStrategyLimits(text: string, node: PubmedQueryNode): void {
  const characters = distinctCharacters(text);
  if (characters > MAX_STRATEGY_DISTINCT_CHARACTERS)
    throw new PubmedQuerySyntaxError(
      `It uses ${characters} different characters (not counting upper and lower case); at most ${MAX_STRATEGY_DISTINCT_CHARACTERS} are allowed.`,
    );
  const terms = termCount(node);
  if (terms > MAX_STRATEGY_TERMS)
    throw new PubmedQuerySyntaxError(`It has ${terms} terms; at most ${MAX_STRATEGY_TERMS} are allowed.`);
  const depth = nestingDepth(node);
  if (depth > MAX_STRATEGY_DEPTH)
    throw new PubmedQuerySyntaxError(
      `Its operators are nested ${depth} levels deep; at most ${MAX_STRATEGY_DEPTH} are allowed. Parentheses nest, ` +
        "and so does each switch between AND, OR and NOT outside them (PubMed reads operators left to right).",
    );
}
