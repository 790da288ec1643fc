import { style } from "@vanilla-extract/css";
import { vars } from "../styles/theme.css.ts";

// The top bar's Tools and user menus (islands/nav/MenuButton.tsx).

export const bar = style({ display: "flex", alignItems: "center", gap: vars.space.sm });

export const menuRoot = style({ position: "relative" });

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
  position: "absolute",
  top: "100%",
  right: 0,
  marginTop: 6,
  padding: vars.space.xs,
  listStyle: "none",
  minWidth: 200,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  boxShadow: vars.shadow.md,
  zIndex: 50,
  selectors: { "&[hidden]": { display: "none" } },
});

export const item = style({
  display: "block",
  width: "100%",
  padding: `${vars.space.sm} ${vars.space.md}`,
  border: "none",
  borderRadius: vars.radius.sm,
  background: "transparent",
  color: vars.color.text,
  font: "inherit",
  fontSize: vars.fontSize.sm,
  textAlign: "start",
  textDecoration: "none",
  cursor: "pointer",
  outline: "none",
  selectors: {
    "&:hover, &:focus": { background: vars.color.surfaceMuted, color: vars.color.primary },
    "&:focus-visible": { boxShadow: `inset 0 0 0 2px ${vars.color.focus}` },
  },
});
