import { keyframes, style } from "@vanilla-extract/css";
import { vars } from "../styles/theme.css.ts";

const md = "screen and (min-width: 768px)";
const lg = "screen and (min-width: 1024px)";

/**
 * Grid tracks are `minmax(0, 1fr)`, not `1fr` (= `minmax(auto, 1fr)`): an `auto` minimum is the content's min-content
 * width, so one long unbreakable line (a summary, a card's row of actions) widened the whole page to 599 px on a
 * 390 px phone (issue 24). Every column here is as wide as the screen allows, and its content wraps.
 */
const column = "minmax(0, 1fr)";

export const stack = style({ display: "grid", gridTemplateColumns: column, gap: vars.space.lg });

export const section = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
  padding: vars.space.md,
  minWidth: 0,
});

export const sectionSummary = style({
  display: "flex",
  alignItems: "center",
  gap: vars.space.sm,
  cursor: "pointer",
  fontSize: vars.fontSize.lg,
  fontWeight: 600,
});

export const count = style({
  minWidth: "1.75em",
  padding: `0 ${vars.space.xs}`,
  borderRadius: vars.radius.full,
  background: vars.color.surfaceMuted,
  border: `1px solid ${vars.color.border}`,
  fontSize: vars.fontSize.sm,
  textAlign: "center",
  fontVariantNumeric: "tabular-nums",
});

export const body = style({
  display: "grid",
  gridTemplateColumns: column,
  gap: vars.space.md,
  marginTop: vars.space.md,
});

export const summary = style({
  fontSize: vars.fontSize.sm,
  lineHeight: 1.6,
  color: vars.color.text,
  overflowWrap: "anywhere",
  minWidth: 0,
});

/** 1 column on small screens, 2 from medium, 3 from large (docs/product.md §2). */
export const grid = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "grid",
  gap: vars.space.md,
  gridTemplateColumns: column,
  "@media": {
    [md]: { gridTemplateColumns: `repeat(2, ${column})` },
    [lg]: { gridTemplateColumns: `repeat(3, ${column})` },
  },
});

export const empty = style({ margin: 0, color: vars.color.muted, overflowWrap: "anywhere" });

export const state = style({ textAlign: "center", padding: vars.space.xl, color: vars.color.muted });

export const stateTitle = style({ margin: `0 0 ${vars.space.sm}`, fontSize: vars.fontSize.lg, color: vars.color.text });

const spin = keyframes({ to: { transform: "rotate(360deg)" } });

export const spinner = style({
  display: "inline-block",
  width: "28px",
  height: "28px",
  border: `3px solid ${vars.color.border}`,
  borderTopColor: vars.color.primary,
  borderRadius: "50%",
  animation: `${spin} 0.8s linear infinite`,
  "@media": { "(prefers-reduced-motion: reduce)": { animation: "none" } },
});

export const skeleton = style({
  height: "150px",
  borderRadius: vars.radius.md,
  background: vars.color.surfaceMuted,
  border: `1px solid ${vars.color.border}`,
});

export const error = style({ color: vars.color.danger, textAlign: "center", padding: vars.space.lg });
