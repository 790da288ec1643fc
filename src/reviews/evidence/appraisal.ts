/**
 * The follow-up and the losses to follow-up an abstract states, as verbatim clauses (issue 37 item 1: the appraisal
 * shows them with their source). Read by their unambiguous wording ("follow-up of 24 months", "followed for a mean of
 * 4.2 years", "lost to follow-up", "dropped out", "withdrew", "completed the study"); the clause is the text between
 * the sentence's punctuation around the match. Measured against the gold set's labels by the extraction benchmark.
 */
import type { AbstractView } from "./abstract-view.ts";

// A follow-up with its length: "follow-up of 24 months", "mean follow-up was 4.2 years", "followed for 2 years",
// "followed up for a median of 36 months", "at 12-month follow-up", "with a minimum 2-year follow-up".
const FOLLOW_UP =
  /\b(?:follow(?:ed)?[- ]?up|followed)\b[^.;]{0,60}?\d+(?:[.·]\d+)?\s*(?:-\s*)?(?:years?|months?|weeks?|days?|yrs?|mo)\b|\b\d+(?:[.·]\d+)?[- ](?:years?|months?|weeks?|days?)[- ](?:of\s+)?follow[- ]?up\b/iu;
const LOSS =
  /\b(?:lost to follow[- ]?up|loss(?:es)? to follow[- ]?up|drop(?:ped)?[- ]?outs?|dropped out|withdr[ae]w|withdrawn|discontinued|completed (?:the )?(?:study|trial|follow[- ]?up|treatment)|were not available for follow[- ]?up)\b/iu;

/** The clause of `text` around [start, end): from the last ",;:(" before to the next ",;)" or sentence end after. */
function clauseAround(text: string, start: number, end: number): string {
  const before = text.slice(0, start);
  const from =
    Math.max(before.lastIndexOf("; "), before.lastIndexOf(": "), before.lastIndexOf(", "), before.lastIndexOf("(")) + 1;
  const tail = text.slice(end);
  const stop = tail.search(/[;)]|,\s(?![^,;]{0,12}\d)|\.\s|\.$/u);
  const to = stop < 0 ? text.length : end + stop;
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
      if (m) followUp = clauseAround(s.text, m.index, m.index + m[0].length);
    }
    if (loss === null) {
      const m = LOSS.exec(s.text);
      if (m) loss = clauseAround(s.text, m.index, m.index + m[0].length);
    }
  }
  return { follow_up: followUp, loss_to_follow_up: loss };
}

function rank(role: string): number {
  return role === "METHODS" ? 0 : role === "RESULTS" ? 1 : 2;
}
