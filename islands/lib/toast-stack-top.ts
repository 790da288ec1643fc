/**
 * Where the toast stack of ./toaster.tsx sits (issue 24): measured before paint, and again when the page scrolls or
 * resizes, when the user presses or focuses something else, or when the page's content changes, so that the stack
 * steps around what the user just used and the elements marked `data-toast-avoid` (geometry in ./toast-placement.ts).
 */
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from "react";
import { toastPlacement, type Box } from "./toast-placement.ts";

/** The stack's usual top, px: toast.css.ts `region`, below the top bar. */
const DEFAULT_TOP = 64;

// The element the user last pressed or focused outside the toasts: the stack steps around it.
let lastUsed: Element | null = null;

/** What the stack must not cover: elements marked data-toast-avoid and the last used one (or its marked ancestor). */
function obstacles(): Box[] {
  const elements = [...document.querySelectorAll("[data-toast-avoid]")];
  if (lastUsed?.isConnected) elements.push(lastUsed.closest("[data-toast-avoid]") ?? lastUsed);
  // A large element (the page's main area, a focused summary panel) cannot be stepped around; it is not an obstacle.
  return elements.map((e) => e.getBoundingClientRect()).filter((r) => r.height < window.innerHeight / 2);
}

/**
 * The stack's top in px, or null for its usual place (the stylesheet's). `regionRef` is the toast region, `listRef`
 * its list of toasts; `shownKey` changes whenever the toasts shown change, which places the stack again.
 */
export function useStackTop(
  regionRef: RefObject<HTMLElement | null>,
  listRef: RefObject<HTMLOListElement | null>,
  shownKey: string,
): number | null {
  const [top, setTop] = useState<number | null>(null);

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
  // biome-ignore lint/correctness/useExhaustiveDependencies: the refs are stable; listeners call the latest place
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

  return top;
}
