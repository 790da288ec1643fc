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
 * The table fits its panel: fixed column widths (study 20 %, participants 12 %, PICO 28 %, results 40 %) so that at a
 * 1366 px window every column is visible without sideways scrolling, and the results column, the widest, holds the
 * main result without tall narrow rows. Below 720 px each row becomes a card (every cell a block with its label).
 */
const CARDS = "(max-width: 719px)";

export const table = style({
  width: "100%",
  tableLayout: "fixed",
  borderCollapse: "collapse",
  fontSize: vars.fontSize.sm,
  lineHeight: 1.45,
  "@media": { [CARDS]: { display: "block" } },
});

export const colStudy = style({ width: "20%" });
export const colParticipants = style({ width: "12%" });
export const colPico = style({ width: "28%" });
export const colResults = style({ width: "40%" });

export const caption = style({
  captionSide: "top",
  textAlign: "start",
  padding: vars.space.sm,
  color: vars.color.muted,
  fontSize: vars.fontSize.xs,
  "@media": { [CARDS]: { display: "block", padding: `${vars.space.xs} 0` } },
});

globalStyle(`${table} th, ${table} td`, {
  padding: `${vars.space.xs} ${vars.space.sm}`,
  borderTop: `1px solid ${vars.color.border}`,
  textAlign: "start",
  verticalAlign: "top",
  overflowWrap: "anywhere",
});

globalStyle(`${table} thead th`, { background: vars.color.surfaceMuted, fontWeight: 600 });

// Cards on narrow screens: no header row; each study a bordered block, each cell labelled by its column.
globalStyle(`${table} thead`, { "@media": { [CARDS]: { display: "none" } } });
globalStyle(`${table} tbody, ${table} tr, ${table} th, ${table} td`, { "@media": { [CARDS]: { display: "block" } } });
globalStyle(`${table} tr`, {
  "@media": {
    [CARDS]: {
      marginBottom: vars.space.sm,
      border: `1px solid ${vars.color.border}`,
      borderRadius: vars.radius.md,
      background: vars.color.surface,
    },
  },
});
globalStyle(`${table} tbody th, ${table} td`, { "@media": { [CARDS]: { borderTop: "none" } } });
globalStyle(`${table} td::before`, {
  "@media": {
    [CARDS]: {
      content: "attr(data-label)",
      display: "block",
      color: vars.color.muted,
      fontSize: vars.fontSize.xs,
      fontWeight: 600,
    },
  },
});

/** The study column: its citation number and design, level, appraisal, PMID and other PMIDs of the same work. */
export const studyCell = style({ fontWeight: 400 });
export const studyLine = style({ display: "block", fontWeight: 600 });

export const numberCell = style({ fontVariantNumeric: "tabular-nums" });

export const small = style({ display: "block", color: vars.color.muted, fontSize: vars.fontSize.xs, fontWeight: 400 });

/** "not stated": the abstract says nothing the extractor could read for this cell. */
export const missing = style({ color: vars.color.muted, fontStyle: "italic" });

/** Appraisal items as small labels ("Randomized", "Retrospective"). */
export const chips = style({ display: "flex", flexWrap: "wrap", gap: "2px 4px", margin: "2px 0" });
export const chip = style({
  padding: "0 6px",
  borderRadius: vars.radius.full,
  background: vars.color.surfaceMuted,
  border: `1px solid ${vars.color.border}`,
  fontSize: vars.fontSize.xs,
  fontWeight: 500,
});

/** Population, intervention, outcome as a labelled list. */
export const pico = style({ margin: 0 });
globalStyle(`${pico} dt`, { color: vars.color.muted, fontSize: vars.fontSize.xs, fontWeight: 600 });
globalStyle(`${pico} dd`, { margin: `0 0 ${vars.space.xs}` });

export const result = style({ margin: `0 0 ${vars.space.xs}` });

export const effects = style({ margin: 0, paddingInlineStart: vars.space.md });

export const number = style({ fontVariantNumeric: "tabular-nums", fontWeight: 600 });

/** A number that opens its source sentence: looks like the number, underlined as a control. */
export const sourceButton = style({
  padding: 0,
  border: "none",
  background: "none",
  color: vars.color.primary,
  font: "inherit",
  fontWeight: 600,
  fontVariantNumeric: "tabular-nums",
  textAlign: "start",
  textDecoration: "underline dotted",
  textUnderlineOffset: "3px",
  cursor: "pointer",
  selectors: { "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "1px" } },
});

/** The sentence a number was read from, its number marked. */
export const source = style({
  margin: `${vars.space.xs} 0`,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  borderInlineStart: `3px solid ${vars.color.primary}`,
  background: vars.color.surfaceMuted,
  fontSize: vars.fontSize.xs,
});
globalStyle(`${source} mark`, { background: vars.color.highlight, color: "inherit" });
