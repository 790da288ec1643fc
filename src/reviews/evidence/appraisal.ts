/**
 * The follow-up and the losses to follow-up an abstract states, as verbatim clauses (issue 37 item 1: the appraisal
 * shows them with their source). Read by their unambiguous wording ("follow-up of 24 months", "followed for a mean of
 * 4.2 years", "lost to follow-up", "dropped out", "withdrew", "completed the study"); what is shown is the phrase of
 * the follow-up (with the words that open it and its range), and the sentence that states the losses.
 * Measured against the gold set's labels by the extraction benchmark.
 */
import type { AbstractView } from "./abstract-view.ts";

// A follow-up with its length: "follow-up of 24 months", "mean follow-up was 4.2 years", "followed for 2 years",
// "followed up for a median of 36 months", "at 12-month follow-up", "with a minimum 2-year follow-up".
const FOLLOW_UP =
  /\b(?:follow(?:ed)?[- ]?up|followed)\b[^.;]{0,60}?\d+(?:[.·]\d+)?\s*(?:-\s*)?(?:years?|months?|weeks?|days?|yrs?|mo)\b|\b\d+(?:[.·]\d+)?[- ](?:years?|months?|weeks?|days?)[- ](?:of\s+)?follow[- ]?up\b/iu;
const LOSS =
  /\b(?:lost to follow[- ]?up|loss(?:es)? to follow[- ]?up|drop(?:ped)?[- ]?outs?|dropped out|withdr[ae]w|withdrawn|discontinued|completed (?:the )?(?:study|trial|follow[- ]?up|treatment)|were not available for follow[- ]?up)\b/iu;

// Words a follow-up phrase may open with ("after a mean follow-up of 11.9 months", "with a minimum 2-year follow-up").
const LEAD =
  /(?:\b(?:after|with|at|over|during)\s+)?(?:\b(?:a|an|the)\s+)?(?:\b(?:mean|median|average|minimum|maximum|total|overall)\s+)?$/iu;

/**
 * The phrase of `text` at [start, end): the match, with the words that open it ("a mean", "after a median"), and
 * the bracket right after it when it gives a range ("(range, 1-115 months)"), closed.
 */
function phraseAround(text: string, start: number, end: number): string {
  const lead = LEAD.exec(text.slice(Math.max(0, start - 40), start));
  const from = lead ? start - lead[0].length : start;
  let to = end;
  const bracket = /^\s*\((?:range|IQR|SD|interquartile)[^()]{0,40}\)/iu.exec(text.slice(end));
  if (bracket) to += bracket[0].length;
  return text.slice(from, to).trim();
}

/** The follow-up and losses clauses of an abstract (the first of each, methods and results first); null when none. */
export function readFollowUp(view: AbstractView): { follow_up: string | null; loss_to_follow_up: string | null } {
  const order = [...view.sentences].sort((a, b) => rank(a.role) - rank(b.role) || a.index - b.index);
  let followUp: string | null = null;
  let loss: string | null = null;
  for (const s of order) {
    if (followUp === null) {
      const m = FOLLOW_UP.exec(s.text);
      if (m) followUp = phraseAround(s.text, m.index, m.index + m[0].length);
    }
    if (loss === null) {
      const m = LOSS.exec(s.text);
      if (m) loss = s.text;
    }
  }
  return { follow_up: followUp, loss_to_follow_up: loss };
}

function rank(role: string): number {
  return role === "METHODS" ? 0 : role === "RESULTS" ? 1 : 2;
}
