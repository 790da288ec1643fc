/**
 * Where the toast stack goes (issue 24): the top-end corner (docs/product.md §9), moved down just enough not to cover
 * what the user just used or an element marked to stay visible (the query bubble, the plan prices); back in the corner
 * when no place down the end side is free. Pure geometry, in CSS pixels of the viewport, so it is tested alone.
 */

/** A rectangle in viewport coordinates (a DOMRect fits). */
export interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** The stack's position: `top` px from the viewport's top. */
export type ToastPlacement = { top: number };

/** Space kept between the stack and an element it steps around, and from the viewport's edges. */
export const TOAST_GAP = 8;

/**
 * The stack's placement.
 * @param stack the stack's horizontal extent (left, right) and height, px; its vertical place is what is chosen
 * @param obstacles what must stay visible (elements scrolled out of view may be given: they are ignored)
 * @param viewportHeight px
 * @param defaultTop the corner's top, px (below the top bar)
 * @returns `{ top: defaultTop }` when that covers nothing; else the first top below the obstacles it would cover that
 *   fits in the viewport; else `{ top: defaultTop }` (nowhere is free: the product's corner).
 */
export function toastPlacement(
  stack: { left: number; right: number; height: number },
  obstacles: readonly Box[],
  viewportHeight: number,
  defaultTop: number,
): ToastPlacement {
  const inView = obstacles.filter(
    (o) => o.bottom > 0 && o.top < viewportHeight && o.right > stack.left && o.left < stack.right && o.bottom > o.top,
  );
  const covers = (top: number) =>
    inView.filter((o) => o.top < top + stack.height + TOAST_GAP && o.bottom + TOAST_GAP > top);
  let top = defaultTop;
  // Each step moves below at least one obstacle, so this ends within obstacles.length + 1 steps.
  for (let step = 0; step <= inView.length; step++) {
    const hit = covers(top);
    if (hit.length === 0) return { top };
    top = Math.max(...hit.map((o) => o.bottom)) + TOAST_GAP;
    if (top + stack.height + TOAST_GAP > viewportHeight) break;
  }
  return { top: defaultTop };
}
