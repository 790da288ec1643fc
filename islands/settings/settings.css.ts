import { globalStyle, style, styleVariants } from "@vanilla-extract/css";
import { vars } from "../styles/theme.css.ts";

// Styles of the /settings sections (islands/settings).

export const stack = style({ display: "grid", gap: vars.space.lg });

export const card = style({
  padding: vars.space.lg,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  boxShadow: vars.shadow.sm,
  // The tab=subscription jump leaves room above the section's heading.
  scrollMarginTop: vars.space.md,
});

export const cardHeader = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.sm,
  marginBottom: vars.space.md,
});

export const cardTitle = style({
  margin: 0,
  fontSize: vars.fontSize.lg,
  selectors: { "&:focus": { outline: "none" } },
});

export const hint = style({ margin: `0 0 ${vars.space.md}`, color: vars.color.muted, fontSize: vars.fontSize.sm });

/** A live status line that takes no room while it says nothing. */
export const statusLine = style({
  margin: 0,
  color: vars.color.text,
  fontSize: vars.fontSize.sm,
  selectors: { "&:not(:empty)": { marginBottom: vars.space.md } },
});

export const fieldList = style({
  display: "grid",
  gridTemplateColumns: "1fr",
  gap: `${vars.space.xs} ${vars.space.lg}`,
  margin: 0,
  "@media": { "screen and (min-width: 640px)": { gridTemplateColumns: "max-content 1fr" } },
});

globalStyle(`${fieldList} dt`, { color: vars.color.muted, fontWeight: 600 });
globalStyle(`${fieldList} dd`, { margin: 0, overflowWrap: "anywhere" });

export const form = style({ display: "grid", gap: vars.space.md, maxWidth: 520 });

export const actions = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm });

const buttonBase = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  gap: vars.space.xs,
  padding: `${vars.space.sm} ${vars.space.md}`,
  border: "1px solid transparent",
  borderRadius: vars.radius.md,
  font: "inherit",
  fontSize: vars.fontSize.sm,
  fontWeight: 600,
  cursor: "pointer",
  selectors: { "&:disabled": { opacity: 0.6, cursor: "not-allowed" } },
});

export const button = styleVariants({
  primary: [
    buttonBase,
    {
      background: vars.color.primary,
      color: vars.color.primaryText,
      selectors: { "&:hover:not(:disabled)": { background: vars.color.primaryHover } },
    },
  ],
  secondary: [
    buttonBase,
    {
      background: "transparent",
      color: vars.color.text,
      borderColor: vars.color.border,
      selectors: { "&:hover:not(:disabled)": { background: vars.color.surfaceMuted } },
    },
  ],
  danger: [
    buttonBase,
    {
      background: vars.color.danger,
      color: vars.color.surface,
      selectors: { "&:hover:not(:disabled)": { filter: "brightness(0.92)" } },
    },
  ],
  // A destructive action that is not the page's main one (Cancel Subscription): red text, no fill.
  dangerOutline: [
    buttonBase,
    {
      background: "transparent",
      color: vars.color.danger,
      borderColor: vars.color.danger,
      selectors: { "&:hover:not(:disabled)": { background: vars.color.dangerBg } },
    },
  ],
});

export const interestList = style({
  margin: 0,
  paddingInlineStart: vars.space.lg,
  display: "grid",
  gap: vars.space.xs,
});

export const empty = style({ color: vars.color.muted });

/* ---------- Subscription ---------- */

// Coloured text and border on the card's own background: readable in both themes without extra colours.
const badgeBase = style({
  display: "inline-block",
  padding: `2px ${vars.space.sm}`,
  border: "1px solid currentColor",
  borderRadius: vars.radius.full,
  fontSize: vars.fontSize.sm,
  fontWeight: 700,
});

/** Status colours of docs/product.md §4: blue, orange, green, red; grey for anything else. */
export const badge = styleVariants({
  blue: [badgeBase, { color: vars.color.info }],
  orange: [badgeBase, { color: vars.color.warning }],
  green: [badgeBase, { color: vars.color.success }],
  red: [badgeBase, { color: vars.color.danger }],
  grey: [badgeBase, { color: vars.color.muted }],
});

export const notice = styleVariants({
  blue: {
    margin: `${vars.space.md} 0 0`,
    padding: vars.space.sm,
    borderRadius: vars.radius.md,
    background: vars.color.infoBg,
    color: vars.color.info,
  },
  orange: {
    margin: `${vars.space.md} 0 0`,
    padding: vars.space.sm,
    borderRadius: vars.radius.md,
    background: vars.color.warningBg,
    color: vars.color.warning,
  },
  red: {
    margin: `${vars.space.md} 0 0`,
    padding: vars.space.sm,
    borderRadius: vars.radius.md,
    background: vars.color.dangerBg,
    color: vars.color.danger,
  },
});

export const subscriptionBody = style({ display: "grid", gap: vars.space.lg });

export const subheading = style({ margin: `0 0 ${vars.space.sm}`, fontSize: vars.fontSize.md });

/** The current-status card inside the section. */
export const statusCard = style({
  display: "grid",
  gap: vars.space.sm,
  padding: vars.space.md,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  background: vars.color.surfaceMuted,
});

globalStyle(`${statusCard} > p`, { margin: 0 });

/** Plus, Pro and Max side by side where they fit, stacked on a phone. */
export const planGrid = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fit, minmax(min(100%, 220px), 1fr))",
  gap: vars.space.md,
  margin: 0,
  padding: 0,
  listStyle: "none",
});

const planCardBase = style({
  display: "flex",
  flexDirection: "column",
  gap: vars.space.sm,
  padding: vars.space.md,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
});

export const planCard = planCardBase;

/** The plan the user has: a stronger border in the brand colour. */
export const planCardCurrent = style([
  planCardBase,
  { borderColor: vars.color.primary, boxShadow: `inset 0 0 0 1px ${vars.color.primary}` },
]);

// The button sits at the bottom of every card, whatever the length of its feature list.
globalStyle(`${planCardBase} > button`, { marginTop: "auto" });

export const planName = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.sm,
  margin: 0,
  fontSize: vars.fontSize.lg,
});

export const planPrice = style({ margin: 0, display: "flex", alignItems: "baseline", gap: vars.space.xs });

export const planAmount = style({ fontSize: vars.fontSize.xl, fontWeight: 700 });

export const planPer = style({ color: vars.color.muted, fontSize: vars.fontSize.sm });

export const featureList = style({
  margin: `0 0 ${vars.space.sm}`,
  padding: 0,
  listStyle: "none",
  display: "grid",
  gap: vars.space.xs,
  fontSize: vars.fontSize.sm,
});

export const feature = style({ display: "flex", alignItems: "baseline", gap: vars.space.xs });

export const featureSoon = style([feature, { color: vars.color.muted }]);

export const featureMark = style({ color: vars.color.success, fontWeight: 700 });

export const soonTag = style({
  display: "inline-block",
  marginInlineStart: vars.space.xs,
  padding: `0 ${vars.space.xs}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  fontSize: vars.fontSize.xs,
  color: vars.color.muted,
});

/* ---------- Danger zone ---------- */

export const dangerZone = style([card, { borderColor: vars.color.danger }]);

export const dangerSummary = style({
  cursor: "pointer",
  fontSize: vars.fontSize.lg,
  fontWeight: 700,
  color: vars.color.danger,
});

export const dangerBody = style({ display: "grid", gap: vars.space.sm, marginTop: vars.space.md });

export const dangerTitle = style({ margin: 0, fontSize: vars.fontSize.md });

/* ---------- Confirmation dialog ---------- */

export const dialog = style({
  width: "min(440px, calc(100vw - 32px))",
  padding: vars.space.lg,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  background: vars.color.surface,
  color: vars.color.text,
  boxShadow: vars.shadow.md,
});

globalStyle(`${dialog}::backdrop`, { background: "rgba(0, 0, 0, 0.45)" });
// On a dark page a light veil dims nothing: the backdrop is nearly opaque there, so the dialog stands out.
globalStyle(`:root[data-theme="dark"] ${dialog}::backdrop`, { background: "rgba(0, 0, 0, 0.78)" });

export const dialogTitle = style({ margin: `0 0 ${vars.space.sm}`, fontSize: vars.fontSize.lg });

export const dialogText = style({ margin: `0 0 ${vars.space.lg}`, color: vars.color.muted });

export const dialogActions = style({ display: "flex", justifyContent: "flex-end", gap: vars.space.sm });

/** "Online payment is not available on this server", once above the plans (settings and /pricing). */
export const paymentsNotice = style({ margin: `0 0 ${vars.space.md}` });
