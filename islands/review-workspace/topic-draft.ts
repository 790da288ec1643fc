/**
 * The state of a review's topic form (./TopicForm.tsx): the topic, the optional filters, whether the filters are open,
 * and the topic's error. It lives in the review's view rather than in the form, because the form goes while a start is
 * under way and comes back, with what was typed, if the start fails.
 */
import { useState } from "react";
import { filterQuery, type FilterValues } from "../review-method/filter-values.ts";
import type { ReviewDraft } from "./review-draft.ts";

/** The topic form's state and its setters (see useTopicDraft). */
export interface TopicDraft {
  topic: string;
  setTopic: (value: string) => void;
  filters: FilterValues;
  setFilters: (value: FilterValues) => void;
  /** Whether the "Filters (optional)" disclosure is open. */
  filtersOpen: boolean;
  setFiltersOpen: (open: boolean) => void;
  /** The topic's error under the field (empty topic, or the server's refusal), cleared as the topic is edited. */
  topicError: string | null;
  setTopicError: (message: string | null) => void;
}

/**
 * The topic form's state, starting from `draft` (what was typed earlier and not submitted); every change to the topic
 * or the filters is told to `onDraftChange`, so the workspace can keep it while another review is shown (issue 35).
 */
export function useTopicDraft(
  draft: ReviewDraft | undefined,
  onDraftChange: ((draft: ReviewDraft | undefined) => void) | undefined,
): TopicDraft {
  const [topic, setTopicState] = useState(draft?.topic ?? "");
  const [topicError, setTopicError] = useState<string | null>(null);
  const [filters, setFiltersState] = useState<FilterValues>(draft?.filters ?? {});
  const setTopic = (value: string) => {
    setTopicState(value);
    onDraftChange?.({ topic: value, filters });
  };
  const setFilters = (value: FilterValues) => {
    setFiltersState(value);
    onDraftChange?.({ topic, filters: value });
  };
  // Open when filters were set before: what applies to the next submit stays in view.
  const [filtersOpen, setFiltersOpen] = useState(() => Object.keys(filterQuery(draft?.filters ?? {})).length > 0);
  return { topic, setTopic, filters, setFilters, filtersOpen, setFiltersOpen, topicError, setTopicError };
}
