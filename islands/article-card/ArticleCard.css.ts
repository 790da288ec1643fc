import { globalStyle, keyframes, style, styleVariants } from "@vanilla-extract/css";
import { vars } from "../styles/theme.css.ts";

/* ---------- card ---------- */

export const card = style({
  display: "flex",
  flexDirection: "column",
  gap: vars.space.xs,
  height: "100%",
  padding: vars.space.md,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  boxShadow: vars.shadow.sm,
  cursor: "pointer",
  transition: "border-color 120ms ease, box-shadow 120ms ease",
  ":hover": { borderColor: vars.color.primary, boxShadow: vars.shadow.md },
});

export const heading = style({ margin: 0, fontSize: vars.fontSize.md, lineHeight: 1.35 });

// The title is the card's keyboard entry point; the whole card is also clickable with a pointer.
export const titleButton = style({
  all: "unset",
  cursor: "pointer",
  color: vars.color.text,
  fontWeight: 600,
  overflowWrap: "anywhere",
  ":hover": { color: vars.color.primary },
  ":focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "2px", borderRadius: vars.radius.sm },
});

export const authors = style({
  margin: 0,
  fontSize: vars.fontSize.sm,
  color: vars.color.muted,
  overflow: "hidden",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap",
});

const clampBase = style({
  margin: 0,
  fontSize: vars.fontSize.sm,
  display: "-webkit-box",
  WebkitBoxOrient: "vertical",
  overflow: "hidden",
});

/** Abstract clamped to 2, 3 or 4 lines. */
export const clamp = styleVariants({
  2: [clampBase, { WebkitLineClamp: 2, lineClamp: 2 }],
  3: [clampBase, { WebkitLineClamp: 3, lineClamp: 3 }],
  4: [clampBase, { WebkitLineClamp: 4, lineClamp: 4 }],
});

export const meta = style({
  margin: 0,
  marginTop: "auto",
  paddingTop: vars.space.xs,
  fontSize: vars.fontSize.xs,
  color: vars.color.muted,
  display: "flex",
  flexWrap: "wrap",
  gap: `0 ${vars.space.sm}`,
});

export const journal = style({ fontStyle: "italic" });

/**
 * PubMed's citation line under the title ("Spine (Phila Pa 1976). 2007 Sep 1;32(19 Suppl):S120-5."), as the server
 * wrote it.
 */
export const citation = style({
  margin: 0,
  fontSize: vars.fontSize.xs,
  color: vars.color.muted,
  overflowWrap: "anywhere",
});

/** 'Liked on …', 'Shared by … on …', or that the record has left the index. */
export const note = style({ margin: 0, fontSize: vars.fontSize.xs, color: vars.color.muted });

/** 'Partial match': an article of a review's list that addresses only some of the topic's concepts. */
export const partialBadge = style({
  padding: `0 ${vars.space.xs}`,
  borderRadius: vars.radius.sm,
  background: vars.color.warningBg,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  fontStyle: "normal",
});

/** The study design from the record's publication types ("Randomized controlled trial"). */
export const designBadge = style({
  padding: `0 ${vars.space.xs}`,
  borderRadius: vars.radius.sm,
  border: `1px solid ${vars.color.border}`,
  fontStyle: "normal",
});

/** A retracted article: impossible to miss, with the link to the notice. */
export const retracted = style({
  margin: 0,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  borderRadius: vars.radius.sm,
  background: vars.color.dangerBg,
  color: vars.color.danger,
  fontWeight: 600,
});

export const footer = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.sm,
  minHeight: "32px",
});

export const links = style({ display: "flex", gap: vars.space.xs, margin: 0, padding: 0, listStyle: "none" });

export const iconLink = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  width: "32px",
  height: "32px",
  borderRadius: vars.radius.sm,
  color: vars.color.primary,
  fontSize: vars.fontSize.lg,
  ":hover": { background: vars.color.surfaceMuted },
});

export const actions = style({ display: "flex", gap: vars.space.xs, marginInlineStart: "auto" });

/* ---------- list and pagination ---------- */

export const list = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "grid",
  gap: vars.space.md,
  gridTemplateColumns: "repeat(auto-fill, minmax(min(100%, 280px), 1fr))",
});

export const empty = style({ margin: 0, color: vars.color.muted, fontStyle: "italic" });

export const pagination = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  gap: vars.space.xs,
  marginTop: vars.space.md,
});

export const pageButton = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  width: "32px",
  height: "32px",
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  background: vars.color.surface,
  color: vars.color.text,
  cursor: "pointer",
  selectors: {
    "&:hover:not(:disabled)": { borderColor: vars.color.primary, color: vars.color.primary },
    "&:disabled": { opacity: 0.45, cursor: "default" },
  },
});

export const pageLabel = style({
  fontSize: vars.fontSize.sm,
  color: vars.color.muted,
  paddingInline: vars.space.sm,
  fontVariantNumeric: "tabular-nums",
});

/* ---------- dialog ---------- */

const fadeIn = keyframes({ from: { opacity: 0, transform: "translateY(8px)" }, to: { opacity: 1, transform: "none" } });

export const dialog = style({
  // Centred by the browser's modal dialog rules; restated so that no page rule on margins can move it.
  margin: "auto",
  width: "min(720px, calc(100vw - 32px))",
  maxHeight: "min(85vh, 900px)",
  padding: 0,
  border: "none",
  borderRadius: vars.radius.lg,
  background: vars.color.surface,
  color: vars.color.text,
  boxShadow: vars.shadow.md,
  overscrollBehavior: "contain",
  animation: `${fadeIn} 150ms ease-out`,
  "@media": { "(prefers-reduced-motion: reduce)": { animation: "none" } },
});

globalStyle(`${dialog}::backdrop`, { background: "rgba(10, 14, 20, 0.55)" });
// On a dark page a light veil dims nothing: the backdrop is nearly opaque there, so the dialog stands out.
globalStyle(`:root[data-theme="dark"] ${dialog}::backdrop`, { background: "rgba(0, 0, 0, 0.78)" });

export const dialogInner = style({
  padding: vars.space.lg,
  display: "flex",
  flexDirection: "column",
  gap: vars.space.md,
});

export const dialogHeader = style({ display: "flex", alignItems: "flex-start", gap: vars.space.md });

export const dialogTitle = style({
  margin: 0,
  flex: 1,
  fontSize: vars.fontSize.lg,
  lineHeight: 1.35,
  overflowWrap: "anywhere",
});

export const closeButton = style({
  flex: "none",
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  width: "32px",
  height: "32px",
  border: "none",
  borderRadius: vars.radius.sm,
  background: "transparent",
  color: vars.color.muted,
  fontSize: vars.fontSize.lg,
  cursor: "pointer",
  ":hover": { background: vars.color.surfaceMuted, color: vars.color.text },
});

export const detailMeta = style({ margin: 0, fontSize: vars.fontSize.sm, color: vars.color.muted });

export const fullAbstract = style({ margin: 0, whiteSpace: "pre-line", lineHeight: 1.6 });

/** The dialog's evidence block (ArticleEvidence): what the extractor read, above the abstract. */
export const evidence = style({
  margin: `${vars.space.sm} 0`,
  padding: vars.space.sm,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  background: vars.color.surfaceMuted,
  fontSize: vars.fontSize.sm,
});
export const evidenceLine = style({ margin: `0 0 ${vars.space.xs}` });
export const evidenceList = style({ margin: `0 0 ${vars.space.xs}`, paddingInlineStart: vars.space.md });
export const evidenceNumber = style({ fontVariantNumeric: "tabular-nums", fontWeight: 600 });
export const evidenceNote = style({ margin: 0, color: vars.color.muted, fontSize: vars.fontSize.xs });

/** A passage of the abstract a number was read from, or the sentence the summary quoted. */
export const marked = style({
  background: vars.color.highlight,
  color: "inherit",
  borderRadius: "2px",
  padding: "0 1px",
});

/** A cited article's number in the review's summary, before its title. */
export const citationNumber = style({
  marginInlineEnd: vars.space.xs,
  color: vars.color.primary,
  fontVariantNumeric: "tabular-nums",
  fontWeight: 600,
});

/** The evidence table's appraisal of a cited study, under the card's meta line. */
export const appraisal = style({ margin: `${vars.space.xs} 0 0`, fontSize: vars.fontSize.xs, color: vars.color.muted });
