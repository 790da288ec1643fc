/**
 * Where the citation preview card goes: under the reference number, or above it when there is not room below,
 * and always inside the viewport horizontally. Pure, in viewport coordinates (the card is position: fixed).
 */

/** The card's fixed-position offsets: `top` when it opens below the number, `bottom` when above. */
export interface CardPosition {
  left: number;
  top?: number;
  bottom?: number;
}

/** Card width used for clamping; kept equal to the style's `min(340px, 100vw - 16px)`. */
export const CARD_WIDTH = 340;
// Room a two-line preview needs; below that the card opens upwards when there is more room there.
const CARD_MIN_HEIGHT = 160;
const GAP = 6;
const MARGIN = 8;

/** Places the card for an anchor rectangle in a viewport of the given size. */
export function placePreview(
  anchor: { left: number; top: number; bottom: number },
  viewport: { width: number; height: number },
): CardPosition {
  const width = Math.min(CARD_WIDTH, viewport.width - 2 * MARGIN);
  const left = Math.max(MARGIN, Math.min(anchor.left, viewport.width - width - MARGIN));
  const roomBelow = viewport.height - anchor.bottom;
  if (roomBelow >= CARD_MIN_HEIGHT || roomBelow >= anchor.top) return { left, top: anchor.bottom + GAP };
  return { left, bottom: viewport.height - anchor.top + GAP };
}
