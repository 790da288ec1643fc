import { style } from "@vanilla-extract/css";
import { vars } from "../styles/theme.css.ts";

/** The optional filters under the topic input, and the "How this review was made" panel. */
export const fields = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.md,
  marginTop: vars.space.sm,
  fontSize: vars.fontSize.sm,
});

export const group = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: vars.space.sm,
  border: 0,
  margin: 0,
  padding: 0,
});

export const legend = style({ fontWeight: 600, padding: 0, marginInlineEnd: vars.space.xs });

export const year = style({
  width: "6.5em",
  padding: `2px ${vars.space.xs}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  background: vars.color.surface,
  color: vars.color.text,
});

export const check = style({ display: "inline-flex", alignItems: "center", gap: "4px", whiteSpace: "nowrap" });

export const flow = style({ margin: `${vars.space.sm} 0`, padding: 0, listStyle: "none", fontSize: vars.fontSize.sm });

/** One step of the flow: its count right-aligned in a column of its own. */
export const step = style({ display: "flex", gap: vars.space.md });

export const count = style({ minWidth: "5em", fontVariantNumeric: "tabular-nums", fontWeight: 600, textAlign: "end" });

export const text = style({ margin: `${vars.space.xs} 0`, fontSize: vars.fontSize.sm, color: vars.color.muted });
