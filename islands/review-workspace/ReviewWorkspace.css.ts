import { globalStyle, keyframes, style } from "@vanilla-extract/css";
import { vars } from "../styles/theme.css.ts";

const SIDEBAR_WIDTH = "250px"; // docs/product.md §9

/* ---------- layout ---------- */

// The island's wrapper element sits in the layout's scrolling content area; filling it lets the sidebar run
// down to the bottom of the window however tall the top bar and the banner above are.
globalStyle('[data-island="ReviewWorkspace"]', { height: "100%" });

export const workspace = style({
  display: "grid",
  gridTemplateColumns: `${SIDEBAR_WIDTH} minmax(0, 1fr)`,
  gridTemplateRows: "minmax(0, 1fr)",
  // The sidebar and the review scroll separately, so the history stays in view while reading a long review.
  height: "100%",
  minHeight: "420px",
  background: vars.color.bg,
  "@media": {
    // On narrow screens the history sits above the review and the page scrolls as a whole.
    "(max-width: 767px)": { gridTemplateColumns: "minmax(0, 1fr)", gridTemplateRows: "auto", height: "auto" },
  },
});

export const sidebar = style({
  display: "flex",
  flexDirection: "column",
  gap: vars.space.md,
  padding: vars.space.md,
  background: vars.color.surface,
  borderInlineEnd: `1px solid ${vars.color.border}`,
  minWidth: 0,
  overflowY: "auto",
  "@media": {
    "(max-width: 767px)": {
      borderInlineEnd: "none",
      borderBottom: `1px solid ${vars.color.border}`,
      maxHeight: "60vh",
      overflowY: "auto",
      gap: vars.space.sm,
    },
  },
});

export const main = style({
  display: "flex",
  flexDirection: "column",
  gap: vars.space.md,
  padding: vars.space.lg,
  minWidth: 0,
  overflowY: "auto",
  "@media": { "(max-width: 767px)": { padding: vars.space.md, overflowY: "visible" } },
});

export const placeholder = style({
  margin: "auto",
  maxWidth: "32rem",
  textAlign: "center",
  color: vars.color.muted,
  fontSize: vars.fontSize.lg,
});

/* ---------- buttons ---------- */

export const primaryButton = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  gap: vars.space.sm,
  minHeight: "40px",
  padding: `0 ${vars.space.md}`,
  border: "none",
  borderRadius: vars.radius.md,
  background: vars.color.primary,
  color: vars.color.primaryText,
  fontWeight: 600,
  fontSize: vars.fontSize.sm,
  cursor: "pointer",
  transition: "background 150ms ease, transform 150ms ease",
  selectors: {
    "&:hover:not(:disabled)": { background: vars.color.primaryHover },
    "&:disabled": { opacity: 0.6, cursor: "default" },
    // The New Review toggle's brief flash after a press (docs/product.md §9: 150 ms).
    '&[data-flash="true"]': { background: vars.color.primaryHover, transform: "scale(0.97)" },
  },
});

/* ---------- sidebar ---------- */

export const sidebarHeading = style({
  margin: 0,
  fontSize: vars.fontSize.sm,
  fontWeight: 700,
  color: vars.color.muted,
});

const narrow = "(max-width: 767px)";

/** The heading's text on wide screens; on small ones the toggle below stands in for it. */
export const historyHeadingText = style({ "@media": { [narrow]: { display: "none" } } });

/** Small screens: the heading is a button that folds the history list in and out. */
export const historyToggle = style({
  display: "none",
  alignItems: "center",
  gap: vars.space.sm,
  width: "100%",
  padding: `${vars.space.xs} 0`,
  border: "none",
  background: "transparent",
  color: "inherit",
  font: "inherit",
  cursor: "pointer",
  "@media": { [narrow]: { display: "flex" } },
  selectors: { "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "2px" } },
});

/** The history list's container: always shown on wide screens, folded on small ones until opened. */
export const historyBody = style({
  display: "contents",
  "@media": { [narrow]: { selectors: { '&[data-open="false"]': { display: "none" } } } },
});

export const historyList = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "flex",
  flexDirection: "column",
  gap: vars.space.xs,
});

export const historyItem = style({
  position: "relative",
  display: "flex",
  alignItems: "stretch",
  borderRadius: vars.radius.md,
  border: "1px solid transparent",
  selectors: {
    "&:hover": { background: vars.color.surfaceMuted },
    '&[data-selected="true"]': { background: vars.color.infoBg, borderColor: vars.color.info },
  },
});

export const historyButton = style({
  all: "unset",
  boxSizing: "border-box",
  flex: 1,
  minWidth: 0,
  display: "flex",
  flexDirection: "column",
  gap: "2px",
  padding: `${vars.space.sm} ${vars.space.sm}`,
  borderRadius: vars.radius.md,
  cursor: "pointer",
  ":focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "-2px" },
});

export const historyTitle = style({
  fontSize: vars.fontSize.sm,
  fontWeight: 600,
  color: vars.color.text,
  overflow: "hidden",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap",
});

export const historyDate = style({ fontSize: vars.fontSize.xs, color: vars.color.muted });

/** The filters of a history entry, under its title (issue 24): tells a filtered review from an unfiltered one. */
export const historyFilters = style({ fontSize: vars.fontSize.xs, color: vars.color.muted, overflowWrap: "anywhere" });

export const deleteWrap = style({
  position: "relative",
  display: "flex",
  alignItems: "center",
  paddingInlineEnd: vars.space.xs,
});

export const deleteButton = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  width: "30px",
  height: "30px",
  border: "none",
  borderRadius: vars.radius.sm,
  background: "transparent",
  color: vars.color.muted,
  cursor: "pointer",
  selectors: {
    "&:hover:not(:disabled)": { color: vars.color.danger, background: vars.color.dangerBg },
    "&:disabled": { opacity: 0.5, cursor: "default" },
  },
});

// 'Delete Review' tooltip: shown on hover and on keyboard focus, after a short delay so that moving the
// pointer across the list does not flicker it. The button's accessible name already says the same.
export const tooltip = style({
  position: "absolute",
  bottom: "calc(100% + 4px)",
  insetInlineEnd: 0,
  zIndex: 10,
  padding: `2px ${vars.space.sm}`,
  borderRadius: vars.radius.sm,
  background: vars.color.text,
  color: vars.color.surface,
  fontSize: vars.fontSize.xs,
  whiteSpace: "nowrap",
  pointerEvents: "none",
  opacity: 0,
  transition: "opacity 120ms ease",
  selectors: {
    [`${deleteButton}:hover + &, ${deleteButton}:focus-visible + &`]: { opacity: 1, transitionDelay: "300ms" },
  },
});

export const sidebarNote = style({ margin: 0, fontSize: vars.fontSize.sm, color: vars.color.muted });

export const sidebarAlert = style({
  margin: 0,
  padding: vars.space.sm,
  borderRadius: vars.radius.sm,
  background: vars.color.dangerBg,
  color: vars.color.danger,
  fontSize: vars.fontSize.sm,
  display: "flex",
  flexDirection: "column",
  alignItems: "flex-start",
  gap: vars.space.xs,
});

export const linkButton = style({
  all: "unset",
  cursor: "pointer",
  color: vars.color.primary,
  textDecoration: "underline",
  fontSize: vars.fontSize.sm,
  ":focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "2px" },
});

/* ---------- banner ---------- */

export const banner = style({
  display: "flex",
  alignItems: "flex-start",
  gap: vars.space.md,
  padding: `${vars.space.sm} ${vars.space.md}`,
  border: `1px solid ${vars.color.danger}`,
  borderRadius: vars.radius.md,
  background: vars.color.dangerBg,
  color: vars.color.text,
});

export const bannerBody = style({ flex: 1, minWidth: 0 });
export const bannerTitle = style({ display: "block", color: vars.color.danger, fontWeight: 700 });

export const iconButton = style({
  flex: "none",
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  width: "28px",
  height: "28px",
  border: "none",
  borderRadius: vars.radius.sm,
  background: "transparent",
  color: vars.color.muted,
  cursor: "pointer",
  ":hover": { background: vars.color.surfaceMuted, color: vars.color.text },
});

/* ---------- detail ---------- */

export const detail = style({
  display: "flex",
  flexDirection: "column",
  gap: vars.space.md,
  maxWidth: "1100px",
  width: "100%",
});

export const topicForm = style({ display: "flex", flexDirection: "column", gap: vars.space.xs });
export const topicRow = style({ display: "flex", gap: vars.space.sm, flexWrap: "wrap" });

export const topicInput = style({
  flex: "1 1 240px",
  minHeight: "40px",
  padding: `0 ${vars.space.md}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
  color: vars.color.text,
  font: "inherit",
  selectors: {
    '&[aria-invalid="true"]': { borderColor: vars.color.danger },
    "&:disabled": { background: vars.color.surfaceMuted, cursor: "not-allowed" },
  },
});

export const fieldError = style({ margin: 0, color: vars.color.danger, fontSize: vars.fontSize.sm });

/** The topic's length against its limit, shown as the user types (issue 35). */
export const topicCount = style({ margin: 0, color: vars.color.muted, fontSize: vars.fontSize.sm });
export const topicCountOver = style([topicCount, { color: vars.color.danger, fontWeight: 600 }]);

/** Says why the topic form is disabled while the error banner is up, with a button closing it. */
export const lockedNote = style({ margin: 0, color: vars.color.text, fontSize: vars.fontSize.sm });

export const conversation = style({ display: "flex", flexDirection: "column", gap: vars.space.sm });

const bubble = style({
  maxWidth: "min(80%, 640px)",
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.lg,
  overflowWrap: "anywhere",
});

export const queryBubble = style([
  bubble,
  {
    alignSelf: "flex-end",
    background: vars.color.primary,
    color: vars.color.primaryText,
    borderEndEndRadius: vars.radius.sm,
  },
]);

/** The filters a review was started with, under its query. */
export const filtersLine = style({
  alignSelf: "flex-end",
  margin: 0,
  fontSize: vars.fontSize.sm,
  color: vars.color.muted,
});

/** "Filters (optional)" under the topic input. */
export const filtersDisclosure = style({
  marginTop: vars.space.sm,
  fontSize: vars.fontSize.sm,
  color: vars.color.muted,
});

/** The title line of a collapsible panel ("How this review was made"). */
export const panelSummary = style({ cursor: "pointer", fontWeight: 600, color: vars.color.text });

/** The current step's progress line under the status bubble ("Fetching 143 records from PubMed…"). */
export const progressLine = style({
  alignSelf: "flex-start",
  margin: 0,
  fontSize: vars.fontSize.sm,
  color: vars.color.muted,
});

/** One plain sentence above the summary when PubMed could not add to the review (slow, unreachable, allowance). */
export const noteLine = style({ margin: `0 0 ${vars.space.sm}`, fontSize: vars.fontSize.sm, color: vars.color.muted });

export const statusBubble = style([
  bubble,
  {
    alignSelf: "flex-start",
    display: "inline-flex",
    alignItems: "center",
    gap: vars.space.sm,
    background: vars.color.surface,
    border: `1px solid ${vars.color.border}`,
    borderEndStartRadius: vars.radius.sm,
    selectors: {
      '&[data-status="error"], &[data-status="canceled"]': { borderColor: vars.color.danger, color: vars.color.danger },
      '&[data-status="complete"]': { borderColor: vars.color.success },
    },
  },
]);

const spin = keyframes({ to: { transform: "rotate(360deg)" } });

export const spinner = style({
  display: "inline-block",
  flex: "none",
  width: "16px",
  height: "16px",
  border: `2px solid ${vars.color.border}`,
  borderTopColor: vars.color.primary,
  borderRadius: vars.radius.full,
  animation: `${spin} 800ms linear infinite`,
  "@media": { "(prefers-reduced-motion: reduce)": { animationDuration: "2400ms" } },
});

export const loadingLine = style({
  display: "flex",
  alignItems: "center",
  gap: vars.space.sm,
  color: vars.color.muted,
  fontSize: vars.fontSize.sm,
});

export const panel = style({
  padding: vars.space.lg,
  "@media": { "(max-width: 767px)": { padding: vars.space.md } },
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
});

export const panelTitle = style({ margin: 0, marginBottom: vars.space.sm, fontSize: vars.fontSize.lg });
export const mutedText = style({ margin: 0, color: vars.color.muted });

/* ---------- summary ---------- */

export const summary = style({ lineHeight: 1.7, overflowWrap: "anywhere" });
globalStyle(`${summary} > p`, { margin: `0 0 ${vars.space.md}` });
globalStyle(`${summary} > ul`, { margin: `0 0 ${vars.space.md}`, paddingInlineStart: vars.space.lg });
globalStyle(`${summary} > :is(p, ul):last-child`, { marginBottom: 0 });

export const citeGroup = style({ whiteSpace: "nowrap", color: vars.color.muted, fontSize: "0.9em" });

export const citeButton = style({
  all: "unset",
  cursor: "pointer",
  color: vars.color.primary,
  fontWeight: 600,
  padding: "0 1px",
  borderRadius: vars.radius.sm,
  textDecoration: "underline",
  textDecorationStyle: "dotted",
  textUnderlineOffset: "2px",
  ":hover": { background: vars.color.infoBg },
  ":focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "1px" },
});

/** The cited article's study design beside its number ("[3 RCT]"), so a reader weighs the finding. */
export const citeDesign = style({
  marginLeft: "3px",
  padding: "0 3px",
  borderRadius: vars.radius.sm,
  border: `1px solid ${vars.color.border}`,
  color: vars.color.text,
  fontSize: "0.85em",
});

export const citeInvalid = style({ color: vars.color.danger, fontWeight: 600, cursor: "help" });

export const previewCard = style({
  position: "fixed",
  zIndex: 900,
  width: "min(340px, calc(100vw - 16px))",
  padding: vars.space.md,
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  boxShadow: vars.shadow.md,
  fontSize: vars.fontSize.sm,
  lineHeight: 1.5,
});

export const previewTitle = style({ display: "block", fontWeight: 600, marginBottom: vars.space.xs });

export const previewAbstract = style({
  display: "-webkit-box",
  WebkitBoxOrient: "vertical",
  WebkitLineClamp: 2,
  lineClamp: 2,
  overflow: "hidden",
  color: vars.color.muted,
});

/* ---------- article sections ---------- */

export const section = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
});

export const sectionSummary = style({
  display: "flex",
  alignItems: "center",
  gap: vars.space.sm,
  padding: `${vars.space.md} ${vars.space.lg}`,
  cursor: "pointer",
  listStyle: "none",
  fontWeight: 600,
  fontSize: vars.fontSize.md,
  borderRadius: vars.radius.lg,
  selectors: {
    "&::-webkit-details-marker": { display: "none" },
    "&:hover": { background: vars.color.surfaceMuted },
  },
});

export const chevron = style({
  transition: "transform 150ms ease",
  transform: "rotate(-90deg)",
  selectors: { "details[open] > summary > &": { transform: "none" } },
});

export const count = style({
  marginInlineStart: vars.space.xs,
  padding: `0 ${vars.space.sm}`,
  borderRadius: vars.radius.full,
  background: vars.color.surfaceMuted,
  color: vars.color.muted,
  fontSize: vars.fontSize.xs,
  fontWeight: 600,
});

export const sectionBody = style({
  padding: `0 ${vars.space.lg} ${vars.space.lg}`,
  "@media": { "(max-width: 767px)": { padding: `0 ${vars.space.sm} ${vars.space.md}` } },
});

// While the server sends another page the previous cards stay, dimmed and inert, so nothing jumps and a
// card about to be replaced cannot be opened.
export const pageLoading = style({
  transition: "opacity 150ms ease",
  selectors: { '&[data-loading="true"]': { opacity: 0.55, pointerEvents: "none" } },
});

/** The caption of 'All Relevant Articles': how many articles address the whole topic. */
export const listCaption = style({
  margin: `0 0 ${vars.space.sm}`,
  fontSize: vars.fontSize.sm,
  color: vars.color.muted,
});

/** The size of the index, under the empty state's prompt. */
export const corpusNote = style({ marginTop: vars.space.md, fontSize: vars.fontSize.sm });
