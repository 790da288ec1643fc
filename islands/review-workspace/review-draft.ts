/**
 * What was typed into a review's topic form and not yet submitted: the workspace (./ReviewWorkspace.tsx) keeps it while
 * another review is shown, and the review's view (./ReviewDetail.tsx) starts from it. Types only, so that the
 * workspace's first paint does not import the review's view for it.
 */
import type { FilterValues } from "../review-method/filter-values.ts";

/** What was typed into a review's topic form and not yet submitted. */
export interface ReviewDraft {
  topic: string;
  filters: FilterValues;
}
