import { style } from "@vanilla-extract/css";
import { vars } from "../styles/theme.css.ts";

// Styles of the account forms (login, sign-up, password recovery and reset).

export const form = style({ display: "grid", gap: vars.space.md });

export const heading = style({ fontSize: vars.fontSize.xl, margin: 0, textAlign: "center" });

export const note = style({ margin: 0, color: vars.color.muted, fontSize: vars.fontSize.sm, textAlign: "center" });

export const field = style({ display: "grid", gap: vars.space.xs });

export const label = style({ fontWeight: 600, fontSize: vars.fontSize.sm });

export const input = style({
  width: "100%",
  padding: `${vars.space.sm} ${vars.space.md}`,
  fontSize: vars.fontSize.md,
  fontFamily: "inherit",
  color: vars.color.text,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  selectors: {
    '&[aria-invalid="true"]': { borderColor: vars.color.danger },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: 0 },
  },
});

export const fieldErrors = style({
  margin: 0,
  padding: 0,
  listStyle: "none",
  color: vars.color.danger,
  fontSize: vars.fontSize.sm,
});

export const alert = style({
  padding: vars.space.sm,
  borderRadius: vars.radius.md,
  background: vars.color.dangerBg,
  color: vars.color.danger,
  fontSize: vars.fontSize.sm,
});

export const submit = style({
  padding: `${vars.space.sm} ${vars.space.lg}`,
  fontSize: vars.fontSize.md,
  fontWeight: 600,
  fontFamily: "inherit",
  color: vars.color.primaryText,
  background: vars.color.primary,
  border: "none",
  borderRadius: vars.radius.md,
  cursor: "pointer",
  selectors: {
    "&:hover:not(:disabled)": { background: vars.color.primaryHover },
    "&:disabled": { opacity: 0.6, cursor: "not-allowed" },
  },
});

export const links = style({
  display: "flex",
  justifyContent: "space-between",
  flexWrap: "wrap",
  gap: vars.space.sm,
  fontSize: vars.fontSize.sm,
});
