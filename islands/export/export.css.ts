import { style } from "@vanilla-extract/css";
import { vars } from "../styles/theme.css.ts";

/** The export bar: a row of small links and buttons under a review's summary or above the liked articles. */
export const bar = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: vars.space.xs,
  fontSize: vars.fontSize.sm,
  color: vars.color.muted,
});

export const label = style({ marginInlineEnd: vars.space.xs });

export const link = style({
  display: "inline-flex",
  alignItems: "center",
  height: "28px",
  padding: `0 ${vars.space.sm}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  background: vars.color.surface,
  color: vars.color.text,
  fontSize: vars.fontSize.sm,
  textDecoration: "none",
  cursor: "pointer",
  selectors: { "&:hover": { borderColor: vars.color.primary, color: vars.color.primary } },
});
