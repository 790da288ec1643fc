import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "../styles/theme.css.ts";

const md = "screen and (min-width: 768px)";

/** Tabs above the panel on small screens, a vertical column beside it from the medium breakpoint up. */
export const layout = style({
  display: "flex",
  flexDirection: "column",
  gap: vars.space.md,
  "@media": { [md]: { flexDirection: "row", alignItems: "flex-start", gap: vars.space.lg } },
});

export const tabList = style({
  display: "flex",
  flexDirection: "row",
  gap: vars.space.xs,
  flex: "none",
  "@media": { [md]: { flexDirection: "column", width: "200px" } },
});

export const tab = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.sm,
  padding: `${vars.space.sm} ${vars.space.md}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
  color: vars.color.text,
  fontSize: vars.fontSize.sm,
  fontWeight: 600,
  textAlign: "start",
  cursor: "pointer",
  selectors: {
    '&[aria-selected="true"]': {
      background: vars.color.primary,
      borderColor: vars.color.primary,
      color: vars.color.primaryText,
    },
    '&:hover:not([aria-selected="true"])': { borderColor: vars.color.primary },
  },
});

export const count = style({ fontVariantNumeric: "tabular-nums", fontWeight: 400 });

export const panel = style({ flex: 1, minWidth: 0 });

export const panelTitle = style({ margin: `0 0 ${vars.space.md}`, fontSize: vars.fontSize.lg });

export const alert = style({
  margin: 0,
  padding: vars.space.md,
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.danger}`,
  background: vars.color.dangerBg,
  color: vars.color.danger,
});

export const skeleton = style({
  height: "160px",
  borderRadius: vars.radius.md,
  background: vars.color.surfaceMuted,
  border: `1px solid ${vars.color.border}`,
});

export const deleteButton = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  width: "32px",
  height: "32px",
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  background: vars.color.surface,
  color: vars.color.danger,
  cursor: "pointer",
  selectors: { "&:hover": { borderColor: vars.color.danger } },
});

/**
 * A liked card just unliked (islands/dashboard/held-likes.tsx): the card stays, hidden, so its place keeps its size,
 * and the placeholder lies over it.
 */
export const removedItem = style({ position: "relative" });
export const removedPlaceholder = style({
  position: "absolute",
  inset: 0,
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  justifyContent: "center",
  gap: vars.space.sm,
  padding: vars.space.md,
  border: `2px dashed ${vars.color.border}`,
  borderRadius: vars.radius.md,
  background: vars.color.surfaceMuted,
  color: vars.color.text,
  fontSize: vars.fontSize.sm,
  textAlign: "center",
});
globalStyle(`${removedItem} > :not(${removedPlaceholder})`, { visibility: "hidden" });

export const undoButton = style({
  border: `1px solid ${vars.color.primary}`,
  borderRadius: vars.radius.sm,
  background: vars.color.surface,
  color: vars.color.primary,
  fontWeight: 600,
  fontSize: vars.fontSize.sm,
  padding: `${vars.space.xs} ${vars.space.md}`,
  cursor: "pointer",
});
