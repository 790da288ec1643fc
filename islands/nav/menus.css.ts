import { style } from "@vanilla-extract/css";
import { vars } from "../styles/theme.css.ts";

// The top bar's Tools and user menus.

export const bar = style({ display: "flex", alignItems: "center", gap: vars.space.sm });

export const trigger = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.xs,
  padding: `${vars.space.xs} ${vars.space.md}`,
  fontFamily: "inherit",
  fontSize: vars.fontSize.sm,
  fontWeight: 600,
  color: vars.color.text,
  background: "transparent",
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  cursor: "pointer",
  selectors: { "&:hover, &[aria-expanded='true']": { background: vars.color.surfaceMuted } },
});

export const content = style({
  // The menu library positions the list itself; these make it a floating panel.
  position: "absolute",
  margin: 0,
  listStyle: "none",
  minWidth: 200,
  padding: vars.space.xs,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  boxShadow: vars.shadow.md,
  zIndex: 50,
});

export const item = style({
  display: "block",
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.sm,
  color: vars.color.text,
  fontSize: vars.fontSize.sm,
  textDecoration: "none",
  cursor: "pointer",
  outline: "none",
});

export const itemActive = style({ background: vars.color.surfaceMuted, color: vars.color.primary });

export const separator = style({ height: 1, margin: `${vars.space.xs} 0`, background: vars.color.border });
