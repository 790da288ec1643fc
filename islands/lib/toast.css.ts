import { style, styleVariants } from "@vanilla-extract/css";
import { vars } from "../styles/theme.css.ts";

// Top-end corner (docs/product.md §9), below the top bar so that the user menu and the theme toggle stay visible and
// usable; logical properties so the stack follows the reading direction.
export const region = style({
  position: "fixed",
  top: 64,
  insetInlineEnd: vars.space.md,
  zIndex: 1000,
  width: "min(360px, calc(100vw - 32px))",
  pointerEvents: "none",
});

export const list = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "flex",
  flexDirection: "column",
  gap: vars.space.sm,
});

// A toast never takes a click meant for what lies under it (Submit Review, the menus): clicks pass through it,
// all but its close button's.
export const item = style({
  pointerEvents: "none",
  display: "flex",
  alignItems: "flex-start",
  gap: vars.space.sm,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
  color: vars.color.text,
  boxShadow: vars.shadow.md,
  borderInlineStart: "4px solid",
  transition: "opacity 200ms ease, transform 200ms ease",
  selectors: {
    '&[data-visible="false"]': { opacity: 0, transform: "translateY(-6px)" },
  },
  "@media": {
    "(prefers-reduced-motion: reduce)": { transition: "none" },
  },
});

export const tone = styleVariants({
  success: { borderInlineStartColor: vars.color.success },
  error: { borderInlineStartColor: vars.color.danger },
  info: { borderInlineStartColor: vars.color.info },
});

export const body = style({ flex: 1, minWidth: 0, overflowWrap: "anywhere" });

export const title = style({ display: "block", fontWeight: 600, fontSize: vars.fontSize.sm });

export const message = style({ display: "block", fontSize: vars.fontSize.sm, color: vars.color.muted });

export const close = style({
  pointerEvents: "auto",
  flex: "none",
  border: "none",
  background: "transparent",
  color: vars.color.muted,
  cursor: "pointer",
  fontSize: vars.fontSize.lg,
  lineHeight: 1,
  padding: vars.space.xs,
  borderRadius: vars.radius.sm,
  ":hover": { color: vars.color.text, background: vars.color.surfaceMuted },
});

/** A toast's own button (Undo): takes clicks, as the close button does. */
export const action = style({
  pointerEvents: "auto",
  flex: "none",
  alignSelf: "center",
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  color: vars.color.primary,
  fontWeight: 600,
  fontSize: vars.fontSize.sm,
  cursor: "pointer",
  padding: `${vars.space.xs} ${vars.space.sm}`,
  borderRadius: vars.radius.sm,
  ":hover": { background: vars.color.surfaceMuted },
});
