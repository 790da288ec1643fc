/**
 * Inside the Share popover (docs/product.md §2, §7, §8): search a colleague by name or address (debounced 300 ms, limit
 * 5; a blank query clears the results without a call), pick one, send. Success: a toast, and the popover closes.
 * Failure: the server's detail or 'Failed to share article. Please try again.'; the popover stays open to retry.
 * Test ids: `share-search`, `share-result` (data-email), `share-send`, `share-status`.
 */
import { useEffect, useId, useLayoutEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { Article } from "../article-card/types.ts";
import { api, detailOr } from "../lib/api.ts";
import { showError, showSuccess } from "../lib/toast.tsx";
import {
  FETCH_USERS_FAILED,
  USER_SEARCH_DEBOUNCE_MS,
  USER_SEARCH_TOO_SHORT,
  noUsersFound,
  searchPlan,
  searchUsers,
  type FoundUser,
} from "./user-search.ts";
import * as css from "./social.css.ts";

export const SHARE_FAILED = "Failed to share article. Please try again.";

/** The success toast of a share. */
export function sharedWith(user: FoundUser): string {
  return `Article shared with ${user.full_name || user.email}.`;
}

export function ShareForm({
  article,
  onDone,
  onResize,
}: {
  article: Article;
  onDone: () => void;
  onResize: () => void;
}) {
  const id = useId();
  const [text, setText] = useState("");
  const [debounced, setDebounced] = useState("");
  const [selected, setSelected] = useState<FoundUser | null>(null);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    const timer = setTimeout(() => setDebounced(text), USER_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const plan = searchPlan(debounced);
  const q = plan.kind === "search" ? plan.q : "";
  const search = useQuery({
    queryKey: ["users", "search", q],
    queryFn: ({ signal }) => searchUsers(q, signal),
    enabled: q !== "",
    staleTime: 30_000,
    retry: false,
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: one toast per failure: errorUpdatedAt changes exactly then
  useEffect(() => {
    if (search.isError) showError(detailOr(search.error, FETCH_USERS_FAILED));
  }, [search.errorUpdatedAt]);
  const results = plan.kind === "search" ? (search.data ?? []) : [];
  // The popover grows with its results: keep it inside the viewport.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the popover's size follows the number of results
  useLayoutEffect(onResize, [results.length, plan.kind, onResize]);

  const send = async () => {
    if (!selected || sending) return;
    setSending(true);
    try {
      await api("POST", "/shares/{article_pmid}", {
        path: { article_pmid: article.pmid },
        body: { recipient_email: selected.email },
      });
      showSuccess(sharedWith(selected));
      onDone();
    } catch (err) {
      showError(detailOr(err, SHARE_FAILED));
    } finally {
      setSending(false);
    }
  };

  let status: string | null = null;
  if (plan.kind === "too-short") status = USER_SEARCH_TOO_SHORT;
  else if (plan.kind === "search" && search.isPending) status = "Searching…";
  else if (plan.kind === "search" && search.isError) status = FETCH_USERS_FAILED;
  else if (plan.kind === "search" && results.length === 0) status = noUsersFound(plan.q);

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <h3 className={css.popoverTitle}>Share this article</h3>
      <label htmlFor={`${id}-q`} className={css.hint}>
        Colleague (name or e-mail)
      </label>
      <input
        id={`${id}-q`}
        className={css.field}
        type="search"
        autoComplete="off"
        // The popover opened on purpose: typing a name is the next step.
        // biome-ignore lint/a11y/noAutofocus: opened on purpose: typing is next
        autoFocus
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (searchPlan(e.target.value).kind === "clear") setDebounced("");
        }}
        placeholder="Search users…"
        data-testid="share-search"
      />
      <p className={css.hint} role="status" data-testid="share-status">
        {status}
      </p>
      {results.length > 0 ? (
        <ul className={css.results} aria-label="Users">
          {results.map((u) => (
            <li key={u.id}>
              <button
                type="button"
                className={css.result}
                aria-pressed={selected?.id === u.id}
                data-testid="share-result"
                data-email={u.email}
                onClick={() => setSelected(u)}
              >
                <span>{u.full_name || u.email}</span>
                <span className={css.resultEmail}>{u.email}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className={css.popoverActions}>
        <button type="submit" className={css.sendButton} disabled={!selected || sending} data-testid="share-send">
          {sending ? "Sending…" : selected ? `Share with ${selected.full_name || selected.email}` : "Share"}
        </button>
      </div>
    </form>
  );
}
