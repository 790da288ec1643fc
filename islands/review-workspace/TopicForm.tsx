/**
 * The topic form of a review that waits for its topic (docs/product.md §4, §5): the topic input with its character
 * count and error, the note and button shown while the error banner keeps the form disabled, and the optional filters.
 * Checks the topic before it is sent: an empty topic, or one past the server's limit, is refused here.
 */
import { lazy, Suspense, useEffect, useRef, type FormEvent } from "react";
import { isPubmedSyntax } from "../../search/pubmed/query-syntax/parse.ts";
import { topicLimit, topicTooLongMessage } from "../../src/rules/review-topic.ts";
import { DETAIL_MSG } from "./detail-messages.ts";
import type { TopicDraft } from "./topic-draft.ts";
import * as css from "./ReviewWorkspace.css.ts";

// Loaded when opened: the optional filters of a new review (issue 13).
const FilterFields = lazy(() => import("../review-method/FilterFields.tsx").then((m) => ({ default: m.FilterFields })));

const count = (n: number) => n.toLocaleString("en-US");

/** Props of {@link TopicForm}. */
export interface TopicFormProps {
  /** The review's id, prefix of the ids the input's description points to. */
  id: string;
  /** The form's state, kept by the review's view (./topic-draft.ts). */
  draft: TopicDraft;
  /** True while the workspace's error banner is up: the form is then disabled (docs/product.md §5). */
  bannerShown: boolean;
  /** True while the start call is under way: the form is disabled. */
  pending: boolean;
  /** Closes the error banner, offered while the banner keeps the form disabled. */
  dismissBanner?: () => void;
  /** Starts the review with the trimmed topic, once the form has accepted it. */
  onSubmit: (query: string) => void;
}

/** The topic form; see the module's comment. */
export function TopicForm({ id, draft, bannerShown, pending, dismissBanner, onSubmit }: TopicFormProps) {
  const { topic, setTopic, filters, setFilters, filtersOpen, setFiltersOpen, topicError, setTopicError } = draft;
  const topicInput = useRef<HTMLInputElement>(null);
  // Set when the user closes the banner from the topic form: the input, enabled again, then takes focus.
  const focusTopicWhenUnlocked = useRef(false);
  useEffect(() => {
    if (!bannerShown && focusTopicWhenUnlocked.current) {
      focusTopicWhenUnlocked.current = false;
      topicInput.current?.focus();
    }
  }, [bannerShown]);

  // The limit shown as the user types is the server's (src/rules/review-topic.ts): 500 characters for a plain topic,
  // 2,000 for a search strategy in PubMed's syntax, counted on the trimmed topic as the server counts it.
  const query = topic.trim();
  const strategy = isPubmedSyntax(query);
  const limit = topicLimit(strategy);
  const tooLong = query.length > limit ? topicTooLongMessage(strategy) : null;
  const fieldError = topicError ?? tooLong;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (pending || bannerShown) return;
    if (!query) {
      setTopicError(DETAIL_MSG.topicEmpty);
      return;
    }
    if (tooLong) {
      // Refused here, with the server's own message, rather than sent to be refused.
      topicInput.current?.focus();
      return;
    }
    onSubmit(query);
  };

  return (
    <form className={css.topicForm} onSubmit={submit} noValidate data-testid="review-topic-form">
      <div className={css.topicRow}>
        <input
          ref={topicInput}
          className={css.topicInput}
          type="text"
          name="user_query"
          aria-label="Review topic"
          placeholder={DETAIL_MSG.topicPlaceholder}
          value={topic}
          onChange={(e) => {
            setTopic(e.target.value);
            setTopicError(null);
          }}
          disabled={bannerShown || pending}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={`${id}-topic-count${fieldError ? ` ${id}-topic-error` : ""}${bannerShown ? ` ${id}-topic-locked` : ""}`}
          autoComplete="off"
          // Shown right after the user pressed New Review or picked a waiting review: typing is next.
          // biome-ignore lint/a11y/noAutofocus: shown on New Review: typing is next
          autoFocus
          data-testid="review-topic-input"
        />
        <button
          type="submit"
          className={css.primaryButton}
          disabled={bannerShown || pending}
          data-testid="review-topic-submit"
        >
          Submit Review
        </button>
      </div>
      <p
        id={`${id}-topic-count`}
        className={tooLong ? css.topicCountOver : css.topicCount}
        data-testid="review-topic-count"
        data-over={tooLong ? "true" : "false"}
      >
        {`${count(query.length)} / ${count(limit)} characters${strategy ? " (a search strategy in PubMed's syntax)" : ""}`}
      </p>
      {fieldError ? (
        <p id={`${id}-topic-error`} className={css.fieldError} role="alert" data-testid="review-topic-error">
          {fieldError}
        </p>
      ) : null}
      {bannerShown ? (
        <p id={`${id}-topic-locked`} className={css.lockedNote} data-testid="review-topic-locked">
          The topic can be edited again once the error above is closed.{" "}
          <button
            type="button"
            className={css.linkButton}
            onClick={() => {
              focusTopicWhenUnlocked.current = true;
              dismissBanner?.();
            }}
          >
            Close the error and edit the topic
          </button>
        </p>
      ) : null}
      <details
        className={css.filtersDisclosure}
        open={filtersOpen}
        onToggle={(e) => setFiltersOpen(e.currentTarget.open)}
      >
        <summary data-testid="review-filters-toggle">Filters (optional)</summary>
        {filtersOpen ? (
          <Suspense fallback={null}>
            <FilterFields value={filters} onChange={setFilters} disabled={bannerShown || pending} />
          </Suspense>
        ) : null}
      </details>
    </form>
  );
}
