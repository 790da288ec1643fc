import { style } from "@vanilla-extract/css";
import { vars } from "../styles/theme.css.ts";

/** Like and Share: compact buttons with an icon and a word, in the article card's actions slot. */
export const actionButton = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.xs,
  height: "32px",
  padding: `0 ${vars.space.sm}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  background: vars.color.surface,
  color: vars.color.text,
  fontSize: vars.fontSize.sm,
  cursor: "pointer",
  selectors: {
    "&:hover:not(:disabled)": { borderColor: vars.color.primary, color: vars.color.primary },
    "&:disabled": { opacity: 0.6, cursor: "default" },
  },
});

export const liked = style({
  color: vars.color.danger,
  borderColor: vars.color.danger,
});

/** The heart is filled while liked. */
export const heartFilled = style({ fill: "currentColor" });

/** The share popover: in the top layer (native popover), placed under its button by script. */
export const popover = style({
  position: "fixed",
  inset: "auto",
  margin: 0,
  width: "min(320px, calc(100vw - 16px))",
  padding: vars.space.md,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
  color: vars.color.text,
  boxShadow: vars.shadow.md,
  cursor: "default",
});

export const popoverTitle = style({ margin: `0 0 ${vars.space.sm}`, fontSize: vars.fontSize.md });

export const field = style({
  width: "100%",
  boxSizing: "border-box",
  height: "36px",
  padding: `0 ${vars.space.sm}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  background: vars.color.bg,
  color: vars.color.text,
  fontSize: vars.fontSize.sm,
});

export const hint = style({ margin: `${vars.space.sm} 0 0`, fontSize: vars.fontSize.sm, color: vars.color.muted });

export const results = style({
  listStyle: "none",
  margin: `${vars.space.sm} 0 0`,
  padding: 0,
  display: "flex",
  flexDirection: "column",
  gap: "2px",
});

export const result = style({
  display: "flex",
  flexDirection: "column",
  alignItems: "flex-start",
  width: "100%",
  padding: `${vars.space.xs} ${vars.space.sm}`,
  border: "1px solid transparent",
  borderRadius: vars.radius.sm,
  background: "transparent",
  color: vars.color.text,
  textAlign: "start",
  cursor: "pointer",
  selectors: {
    "&:hover": { background: vars.color.surfaceMuted },
    '&[aria-pressed="true"]': { borderColor: vars.color.primary, background: vars.color.surfaceMuted },
  },
});

export const resultEmail = style({ fontSize: vars.fontSize.xs, color: vars.color.muted });

export const popoverActions = style({
  display: "flex",
  justifyContent: "flex-end",
  gap: vars.space.sm,
  marginTop: vars.space.md,
});

export const sendButton = style([
  actionButton,
  {
    background: vars.color.primary,
    borderColor: vars.color.primary,
    color: vars.color.primaryText,
    selectors: { "&:hover:not(:disabled)": { background: vars.color.primaryHover, color: vars.color.primaryText } },
  },
]);
