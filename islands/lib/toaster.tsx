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
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import { toast, useToaster, type Toast } from "react-hot-toast/headless";
import * as css from "./toast.css.ts";
import { toastPlacement, type Box } from "./toast-placement.ts";
import type { ToastRequest } from "./toast.tsx";

const SUCCESS_TITLE = "Success!";
const ERROR_TITLE = "Something went wrong!";
const SUCCESS_MS = 5000;
// Errors usually carry a server message worth reading in full, so they stay longer.
const ERROR_MS = 8000;
// A toast with a button (Undo) stays as long: time to reach the button.
const ACTION_MS = 8000;
/** At most this many toasts show at once (issue 24); a newer one dismisses the oldest. */
export const MAX_TOASTS = 2;
/** The stack's usual top, px: toast.css.ts `region`, below the top bar. */
const DEFAULT_TOP = 64;

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

// The element the user last pressed or focused outside the toasts: the stack steps around it.
let lastUsed: Element | null = null;

/** What the stack must not cover: elements marked data-toast-avoid and the last used one (or its marked ancestor). */
function obstacles(): Box[] {
  const elements = [...document.querySelectorAll("[data-toast-avoid]")];
  if (lastUsed?.isConnected) elements.push(lastUsed.closest("[data-toast-avoid]") ?? lastUsed);
  // A large element (the page's main area, a focused summary panel) cannot be stepped around; it is not an obstacle.
  return elements.map((e) => e.getBoundingClientRect()).filter((r) => r.height < window.innerHeight / 2);
}

type PauseReason = "hover" | "focus" | "hidden";

/** The toast region; `onMounted` runs once it is in the document. Mounted once per page by mountToaster. */
function Toasts({ onMounted }: { onMounted: () => void }) {
  const { toasts, handlers } = useToaster();
  // Newest first; a message shown again counts as new (the store updates it in place, with a new createdAt).
  const visible = toasts.filter((t) => t.visible).sort((a, b) => b.createdAt - a.createdAt);
  const shown = visible.slice(0, MAX_TOASTS);
  const shownKey = shown.map((t) => `${t.id}:${t.createdAt}`).join(" ");
  const regionRef = useRef<HTMLElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const [top, setTop] = useState<number | null>(null);
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

  // Newest first: past MAX_TOASTS, the oldest go.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the ids shown, not on the array's identity
  useEffect(() => {
    for (const t of visible.slice(MAX_TOASTS)) toast.dismiss(t.id);
  }, [visible.map((t) => t.id).join(" ")]);

  // The stack's place: measured before paint, again when the page scrolls or resizes or the user uses something else.
  const place = () => {
    const region = regionRef.current;
    const list = listRef.current;
    if (!region || !list || list.childElementCount === 0) {
      setTop(null);
      return;
    }
    const r = region.getBoundingClientRect();
    const stack = { left: r.left, right: r.right, height: list.offsetHeight };
    const p = toastPlacement(stack, obstacles(), window.innerHeight, DEFAULT_TOP);
    setTop(p.top === DEFAULT_TOP ? null : p.top);
  };
  const placeRef = useRef(place);
  placeRef.current = place;
  // biome-ignore lint/correctness/useExhaustiveDependencies: placed again when the toasts shown change (shownKey)
  useLayoutEffect(() => place(), [shownKey]);
  useEffect(() => {
    let frame = 0;
    const schedule = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => placeRef.current());
    };
    const onUse = (e: Event) => {
      const t = e.target;
      // Focus the page moved itself (tabindex -1: the status bubble, the summary, <main>) is not the user's doing.
      const scripted = e.type === "focusin" && t instanceof Element && t.getAttribute("tabindex") === "-1";
      if (t instanceof Element && !scripted && !regionRef.current?.contains(t)) lastUsed = t;
      schedule();
    };
    // What the stack steps around may appear after the click (the query bubble once the review starts).
    const observer = new MutationObserver(() => {
      if (listRef.current?.childElementCount) schedule();
    });
    observer.observe(document.body, { childList: true, subtree: true });
    document.addEventListener("pointerdown", onUse, true);
    document.addEventListener("focusin", onUse, true);
    document.addEventListener("scroll", schedule, true);
    window.addEventListener("resize", schedule);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      document.removeEventListener("pointerdown", onUse, true);
      document.removeEventListener("focusin", onUse, true);
      document.removeEventListener("scroll", schedule, true);
      window.removeEventListener("resize", schedule);
    };
  }, []);

  // Once: mountToaster resolves its promise with the first call; later calls would do nothing.
  useEffect(() => onMounted(), [onMounted]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: setPaused touches refs only: one listener
  useEffect(() => {
    const onVisibility = () => setPaused("hidden", document.visibilityState === "hidden");
    onVisibility();
    document.addEventListener("visibilitychange", onVisibility);
    return () => document.removeEventListener("visibilitychange", onVisibility);
    // setPaused only touches refs, so one listener for the life of the region is right.
  }, []);

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
