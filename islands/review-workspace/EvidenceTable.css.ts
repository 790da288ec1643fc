import { globalStyle, style } from "@vanilla-extract/css";
import { vars } from "../styles/theme.css.ts";

/** The evidence table under a review's summary (issue 21): wide, so it scrolls sideways inside its own box. */

// The panel and its title line look like the page's other collapsible panels (ReviewWorkspace.css.ts panel,
// panelSummary, count); defined again here so that this lazily loaded chunk shares no module with the first load.
export const panel = style({
  padding: vars.space.lg,
  "@media": { "(max-width: 767px)": { padding: vars.space.md } },
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
});

export const panelSummary = style({ cursor: "pointer", fontWeight: 600, color: vars.color.text });

export const count = style({
  marginInlineStart: vars.space.xs,
  padding: `0 ${vars.space.sm}`,
  borderRadius: vars.radius.full,
  background: vars.color.surfaceMuted,
  color: vars.color.muted,
  fontSize: vars.fontSize.xs,
  fontWeight: 600,
});

/** The caption line above the table: what it is, and the CSV download. */
export const toolbar = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.sm,
  margin: `${vars.space.sm} 0`,
  fontSize: vars.fontSize.sm,
  color: vars.color.muted,
});

export const note = style({ margin: 0, flex: "1 1 240px" });

export const download = style({
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
  whiteSpace: "nowrap",
  selectors: {
    "&:hover": { borderColor: vars.color.primary, color: vars.color.primary },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "1px" },
  },
});

/**
 * The scroll box: the page never scrolls sideways (it fits 390 px), only the table inside does. Focusable, so a
 * keyboard user can scroll it with the arrow keys.
 */
export const scroller = style({
  maxWidth: "100%",
  overflowX: "auto",
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  selectors: { "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "2px" } },
});

export const table = style({
  // Wide enough for eight readable columns; narrower screens scroll the box.
  minWidth: "960px",
  width: "100%",
  borderCollapse: "collapse",
  fontSize: vars.fontSize.sm,
  lineHeight: 1.45,
});

export const caption = style({
  captionSide: "top",
  textAlign: "start",
  padding: vars.space.sm,
  color: vars.color.muted,
  fontSize: vars.fontSize.xs,
});

globalStyle(`${table} th, ${table} td`, {
  padding: `${vars.space.xs} ${vars.space.sm}`,
  borderTop: `1px solid ${vars.color.border}`,
  textAlign: "start",
  verticalAlign: "top",
});

globalStyle(`${table} thead th`, {
  background: vars.color.surfaceMuted,
  fontWeight: 600,
  whiteSpace: "nowrap",
});

/** The study column: its citation number, PMID and other PMIDs of the same work. */
export const studyCell = style({ minWidth: "7em" });

/** Verbatim text cells: wide enough for a sentence, wrapping anywhere a long token would overflow. */
export const textCell = style({ minWidth: "12em", maxWidth: "22em", overflowWrap: "anywhere" });

export const numberCell = style({ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" });

export const small = style({ display: "block", color: vars.color.muted, fontSize: vars.fontSize.xs, fontWeight: 400 });

/** "not stated": the abstract says nothing the extractor could read for this cell. */
export const missing = style({ color: vars.color.muted, fontStyle: "italic" });

export const effects = style({ margin: 0, paddingInlineStart: vars.space.md });
