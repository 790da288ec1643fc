/**
 * The toast region and store (docs/product.md §8, §9), loaded by ./toast.tsx on the first toast of a page (issue 25:
 * no page's first paint needs it). Success toasts are titled 'Success!', error toasts 'Something went wrong!', shown
 * in the top-end corner.
 *
 * The state and timers come from react-hot-toast's headless build (about 1.6 KB gzip, against about 10 KB for
 * a styled toast library), and the markup and styles are ours. Timers pause while any of these holds, which is
 * what "pause when the page is idle" means here:
 * - the pointer is over a toast's close button, or keyboard focus is on it (time to read or reach it);
 * - the document is hidden (another tab is in front or the window is minimised), read from `visibilitychange`.
 *
 * A toast lets clicks through to what lies under it (only its buttons take them), and the stack sits below the
 * top bar: a toast never blocks a control the user needs (issue 8). At most two show at once, a newer one replacing
 * the oldest, and the stack steps down from the corner so as not to cover what the user just used or an element
 * marked `data-toast-avoid` (the query bubble, the plan prices), see ./toast-placement.ts (issue 24).
 *
 * The toast store is module state: the page's client bundle shares this module between islands (one copy per page).
 */
import { useEffect, useRef } from "react";
import { createRoot } from "react-dom/client";
import { toast, useToaster, type Toast } from "react-hot-toast/headless";
import * as css from "./toast.css.ts";
import type { ToastRequest } from "./toast-request.ts";
import { useToastPause } from "./toast-pause.ts";
import { useStackTop } from "./toast-stack-top.ts";

const SUCCESS_TITLE = "Success!";
const ERROR_TITLE = "Something went wrong!";
const SUCCESS_MS = 5000;
// Errors usually carry a server message worth reading in full, so they stay longer.
const ERROR_MS = 8000;
// A toast with a button (Undo) stays as long: time to reach the button.
const ACTION_MS = 8000;
/** At most this many toasts show at once (issue 24); a newer one dismisses the oldest. */
export const MAX_TOASTS = 2;

// The button of a toast that offers one, by toast id: the toast store keeps only the message. Keyed by message, so it
// holds one entry per distinct message.
const actions = new Map<string, { label: string; run: () => void }>();

// The toasts each form showed, by form name, so that the form's success can dismiss its earlier ones.
const formToasts = new Map<string, Set<string>>();

/**
 * Puts one toast on screen. The same message shown again replaces the toast on screen (and its action) instead of
 * stacking a copy, so a failure that happens twice does not fill the corner. A success of a form (`request.form`)
 * first dismisses the toasts that form showed before: what it said of a failed attempt no longer holds.
 */
export function present(request: ToastRequest): void {
  const { kind, message, form } = request;
  const id = `${kind === "info" && request.action ? "action" : kind}:${message}`;
  if (form !== undefined) {
    const earlier = formToasts.get(form) ?? new Set<string>();
    if (kind === "success") {
      for (const old of earlier) if (old !== id) toast.dismiss(old);
      earlier.clear();
    }
    earlier.add(id);
    formToasts.set(form, earlier);
  }
  if (kind === "success") toast.success(message, { id, duration: SUCCESS_MS });
  else if (kind === "error") {
    toast.error(message, {
      id,
      duration: ERROR_MS,
      // An error interrupts: screen readers announce it at once, success waits for a pause.
      ariaProps: { role: "alert", "aria-live": "assertive" },
    });
  } else if (request.action) {
    actions.set(id, request.action);
    toast(message, { id, duration: ACTION_MS });
  } else toast(message, { id, duration: SUCCESS_MS });
}

/**
 * Mounts the region once, in its own root at the end of <body>, and resolves once it is in the document: toasts are
 * put on screen only then, so that the live region exists before its first message (screen readers skip messages
 * of a region inserted together with them).
 */
export function mountToaster(): Promise<typeof present> {
  const host = document.createElement("div");
  host.id = "toasts";
  document.body.append(host);
  return new Promise((resolve) => createRoot(host).render(<Toasts onMounted={() => resolve(present)} />));
}

/** The toast region; `onMounted` runs once it is in the document. Mounted once per page by mountToaster. */
function Toasts({ onMounted }: { onMounted: () => void }) {
  const { toasts, handlers } = useToaster();
  // Newest first; a message shown again counts as new (the store updates it in place, with a new createdAt).
  const visible = toasts.filter((t) => t.visible).sort((a, b) => b.createdAt - a.createdAt);
  const shown = visible.slice(0, MAX_TOASTS);
  const shownKey = shown.map((t) => `${t.id}:${t.createdAt}`).join(" ");
  const regionRef = useRef<HTMLElement>(null);
  const listRef = useRef<HTMLOListElement>(null);

  // Newest first: past MAX_TOASTS, the oldest go.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the ids shown, not on the array's identity
  useEffect(() => {
    for (const t of visible.slice(MAX_TOASTS)) toast.dismiss(t.id);
  }, [visible.map((t) => t.id).join(" ")]);

  const top = useStackTop(regionRef, listRef, shownKey);

  // Once: mountToaster resolves its promise with the first call; later calls would do nothing.
  useEffect(() => onMounted(), [onMounted]);

  const setPaused = useToastPause(handlers);

  return (
    <section
      ref={regionRef}
      className={css.region}
      style={top === null ? undefined : { top }}
      aria-label="Notifications"
      data-testid="toasts"
      onMouseEnter={() => setPaused("hover", true)}
      onMouseLeave={() => setPaused("hover", false)}
      onFocus={() => setPaused("focus", true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setPaused("focus", false);
      }}
    >
      <ol ref={listRef} className={css.list} aria-live="polite">
        {shown.map((t) => (
          <ToastItem key={t.id} t={t} />
        ))}
      </ol>
    </section>
  );
}

function ToastItem({ t }: { t: Toast }) {
  const kind = t.type === "error" ? "error" : t.type === "blank" ? "info" : "success";
  const text = typeof t.message === "string" ? t.message : "";
  const action = actions.get(t.id);
  return (
    <li className={`${css.item} ${css.tone[kind]}`} data-visible={String(t.visible)} data-testid={`toast-${kind}`}>
      {/* The status/alert role goes inside the item: on the <li> itself it would hide the list item from assistive technology. */}
      <span className={css.body} role={t.ariaProps.role}>
        {kind === "info" ? null : (
          <strong className={css.title}>{kind === "error" ? ERROR_TITLE : SUCCESS_TITLE}</strong>
        )}
        <span className={css.message}>{text}</span>
      </span>
      {action ? (
        <button
          type="button"
          className={css.action}
          data-testid="toast-action"
          onClick={() => {
            toast.dismiss(t.id);
            action.run();
          }}
        >
          {action.label}
        </button>
      ) : null}
      <button type="button" className={css.close} aria-label="Close notification" onClick={() => toast.dismiss(t.id)}>
        ×
      </button>
    </li>
  );
}
