/**
 * Toasts (spec §8, §9): success toasts titled 'Success!', error toasts titled 'Something went wrong!', shown in
 * the top-end corner.
 *
 * The state and timers come from react-hot-toast's headless build (about 1.6 KB gzip, against about 10 KB for
 * a styled toast library), and the markup and styles are ours. Timers pause while any of these holds, which is
 * what "pause when the page is idle" means here:
 * - the pointer is over a toast's close button, or keyboard focus is on it (time to read or reach it);
 * - the document is hidden (another tab is in front or the window is minimised), read from `visibilitychange`.
 *
 * A toast lets clicks through to what lies under it (only its close button takes them), and the stack sits below the
 * top bar: a toast never blocks a control the user needs (issue 8).
 *
 * `showSuccess`/`showError` may be called from any island: the toast store is module state, so the page's
 * client bundle must share this module between islands (one copy per page).
 */
import { useEffect, useRef } from "react";
import { toast, useToaster, type Toast } from "react-hot-toast/headless";
import * as css from "./toast.css.ts";

const SUCCESS_TITLE = "Success!";
const ERROR_TITLE = "Something went wrong!";
const SUCCESS_MS = 5000;
// Errors usually carry a server message worth reading in full, so they stay longer.
const ERROR_MS = 8000;

/**
 * Shows a success toast titled 'Success!' with `message`. The same message shown again replaces the toast
 * on screen instead of stacking a copy.
 */
export function showSuccess(message: string): void {
  toast.success(message, { id: `success:${message}`, duration: SUCCESS_MS });
}

/**
 * Shows an error toast titled 'Something went wrong!' with `message`. Repeats of the same message replace
 * the one on screen, so a failure that happens twice does not fill the corner.
 */
export function showError(message: string): void {
  toast.error(message, {
    id: `error:${message}`,
    duration: ERROR_MS,
    // An error interrupts: screen readers announce it at once, success waits for a pause.
    ariaProps: { role: "alert", "aria-live": "assertive" },
  });
}

/**
 * Shows a neutral notice without a title, for outcomes that are neither a success nor a failure
 * ('No changes detected.').
 */
export function showInfo(message: string): void {
  toast(message, { id: `info:${message}`, duration: SUCCESS_MS });
}

type PauseReason = "hover" | "focus" | "hidden";

/**
 * The toast region. Mount once per page; it renders an empty live region on the server so announcements work
 * from the first toast on.
 */
export function Toasts() {
  const { toasts, handlers } = useToaster();
  const reasons = useRef(new Set<PauseReason>());
  // startPause/endPause change identity when the pause state changes; keep the latest in a ref for listeners.
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;

  const setPaused = (reason: PauseReason, on: boolean) => {
    const set = reasons.current;
    const before = set.size > 0;
    if (on) set.add(reason);
    else set.delete(reason);
    const after = set.size > 0;
    if (after && !before) handlersRef.current.startPause();
    if (!after && before) handlersRef.current.endPause();
  };

  useEffect(() => {
    const onVisibility = () => setPaused("hidden", document.visibilityState === "hidden");
    onVisibility();
    document.addEventListener("visibilitychange", onVisibility);
    return () => document.removeEventListener("visibilitychange", onVisibility);
    // setPaused only touches refs, so one listener for the life of the region is right.
  }, []);

  return (
    <section
      className={css.region}
      aria-label="Notifications"
      data-testid="toasts"
      onMouseEnter={() => setPaused("hover", true)}
      onMouseLeave={() => setPaused("hover", false)}
      onFocus={() => setPaused("focus", true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setPaused("focus", false);
      }}
    >
      <ol className={css.list} aria-live="polite">
        {toasts.map((t) => (
          <ToastItem key={t.id} t={t} />
        ))}
      </ol>
    </section>
  );
}

function ToastItem({ t }: { t: Toast }) {
  const kind = t.type === "error" ? "error" : t.type === "blank" ? "info" : "success";
  const text = typeof t.message === "string" ? t.message : "";
  return (
    <li className={`${css.item} ${css.tone[kind]}`} data-visible={String(t.visible)} data-testid={`toast-${kind}`}>
      {/* The status/alert role goes inside the item: on the <li> itself it would hide the list item from assistive technology. */}
      <span className={css.body} role={t.ariaProps.role}>
        {kind === "info" ? null : <strong className={css.title}>{kind === "error" ? ERROR_TITLE : SUCCESS_TITLE}</strong>}
        <span className={css.message}>{text}</span>
      </span>
      <button type="button" className={css.close} aria-label="Close notification" onClick={() => toast.dismiss(t.id)}>
        ×
      </button>
    </li>
  );
}
