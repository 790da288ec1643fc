/**
 * Dashboard page sizes (docs/product.md §2, §9): 5 items on the smallest screens, 7 on small, 10 from medium up. The
 * breakpoints are the pages' own: small from 480 px, medium from 768 px (src/pages/pages.css.ts).
 */
import { useSyncExternalStore } from "react";

export const SMALL_MIN_WIDTH = 480;
export const MEDIUM_MIN_WIDTH = 768;

/** Items per page for a viewport `width` in CSS pixels. */
export function dashboardPageSize(width: number): 5 | 7 | 10 {
  if (width >= MEDIUM_MIN_WIDTH) return 10;
  if (width >= SMALL_MIN_WIDTH) return 7;
  return 5;
}

const QUERIES = [`(min-width: ${SMALL_MIN_WIDTH}px)`, `(min-width: ${MEDIUM_MIN_WIDTH}px)`];

function subscribe(onChange: () => void): () => void {
  const lists = QUERIES.map((q) => window.matchMedia(q));
  for (const l of lists) l.addEventListener("change", onChange);
  return () => {
    for (const l of lists) l.removeEventListener("change", onChange);
  };
}

/**
 * The page size for the current viewport, following resizes. The server renders the medium size (it cannot know
 * the screen), and the browser corrects it right after hydration.
 */
export function useDashboardPageSize(): 5 | 7 | 10 {
  return useSyncExternalStore(
    subscribe,
    () => dashboardPageSize(window.innerWidth),
    () => 10,
  );
}
