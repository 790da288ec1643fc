import { style } from "@vanilla-extract/css";

/**
 * Text for assistive technology only: read by screen readers, not drawn. The one class of the pages and the islands:
 * a heading only screen readers need, or the name of a visible symbol or number where aria-label would be ignored
 * (ARIA 1.2 does not let a generic span be named).
 */
export const visuallyHidden = style({
  position: "absolute",
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: "hidden",
  clip: "rect(0, 0, 0, 0)",
  whiteSpace: "nowrap",
  border: 0,
});
