import { globalStyle, style, styleVariants } from "@vanilla-extract/css";
import { vars } from "../../islands/styles/theme.css.ts";

// Styles of the server-rendered pages and layouts. Breakpoints follow the product's "small" / "medium" screens.
const md = "screen and (min-width: 768px)";
const lg = "screen and (min-width: 1024px)";

/** The wrapper of an island (src/pages/island.tsx): it must not add a box to the layout. */
export const islandHost = style({ display: "contents" });

/* ---------- Authenticated layout ---------- */

export const appShell = style({ display: "flex", flexDirection: "column", height: "100dvh" });
// With the cookie banner above it, the signed-in shell takes the rest of the viewport, not a whole one more.
globalStyle(`body:has(> ${appShell})`, { display: "flex", flexDirection: "column", height: "100dvh", margin: 0 });
globalStyle(`body > ${appShell}`, { flex: "1 1 auto", minHeight: 0, height: "auto" });

export const topBar = style({
  display: "none",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.md,
  padding: `${vars.space.sm} ${vars.space.lg}`,
  background: vars.color.surface,
  borderBottom: `1px solid ${vars.color.border}`,
  "@media": { [md]: { display: "flex" } },
});

export const headerActions = style({ display: "flex", alignItems: "center", gap: vars.space.sm, minWidth: 0 });

/**
 * "Signed in as …" in the public header: one line, cut with "…" when the name is long. Below 480 px there is no room
 * beside the logo, the theme toggle and Home, whose own text says it to screen readers (src/pages/layouts.tsx).
 */
export const signedInAs = style({
  display: "none",
  minWidth: 0,
  maxWidth: "32ch",
  overflow: "hidden",
  whiteSpace: "nowrap",
  textOverflow: "ellipsis",
  fontSize: vars.fontSize.sm,
  color: vars.color.muted,
  "@media": { "screen and (min-width: 480px)": { display: "inline" } },
});

/** The small-screen stand-in of the top bar (docs/product.md hides the top bar below the medium breakpoint). */
export const compactBar = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.sm,
  padding: `${vars.space.sm} ${vars.space.md}`,
  background: vars.color.surface,
  borderBottom: `1px solid ${vars.color.border}`,
  "@media": { [md]: { display: "none" } },
});

/** A square button holding an icon (the theme toggle). */
export const iconButton = style({
  display: "inline-grid",
  placeItems: "center",
  flexShrink: 0,
  width: 40,
  height: 40,
  padding: 0,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  background: "transparent",
  color: vars.color.text,
  cursor: "pointer",
  selectors: { "&:hover": { background: vars.color.surfaceMuted } },
});

// The theme toggle shows the theme it switches to: a moon in light mode, a sun in dark mode.
export const showInLight = style({ selectors: { ':root[data-theme="dark"] &': { display: "none" } } });
export const showInDark = style({ display: "none", selectors: { ':root[data-theme="dark"] &': { display: "block" } } });

export const logo = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.sm,
  fontWeight: 700,
  fontSize: vars.fontSize.lg,
  color: vars.color.text,
  textDecoration: "none",
});

export const logoMark = style({
  display: "inline-grid",
  placeItems: "center",
  width: 32,
  height: 32,
  borderRadius: vars.radius.md,
  background: vars.color.primary,
  color: vars.color.primaryText,
  fontSize: vars.fontSize.sm,
  fontWeight: 800,
});

export const banner = style({
  display: "flex",
  alignItems: "baseline",
  gap: vars.space.sm,
  padding: `${vars.space.sm} ${vars.space.lg}`,
  background: vars.color.warningBg,
  color: vars.color.warning,
  borderBottom: `1px solid ${vars.color.border}`,
  fontSize: vars.fontSize.sm,
});

const phone = "screen and (max-width: 767px)";

/** The banner's text: on a phone, folded to one line (ending in "…") once the visitor asked for it. */
export const bannerText = style({
  flex: 1,
  minWidth: 0,
  margin: 0,
  "@media": {
    [phone]: {
      selectors: {
        "html[data-banner-collapsed] &": { whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis" },
      },
    },
  },
});

/** Show less / Show more: only on a phone, where the banner takes room worth giving back. */
export const bannerToggle = style({
  flexShrink: 0,
  padding: `${vars.space.xs} 0`,
  minHeight: 24,
  border: 0,
  background: "none",
  color: "inherit",
  font: "inherit",
  fontWeight: 600,
  textDecoration: "underline",
  cursor: "pointer",
  "@media": { [md]: { display: "none" } },
});

export const bannerWhenOpen = style({ selectors: { "html[data-banner-collapsed] &": { display: "none" } } });
export const bannerWhenFolded = style({
  display: "none",
  selectors: { "html[data-banner-collapsed] &": { display: "inline" } },
});

// While the page script restores the session from the stored token, the account form it is about to leave is hidden.
globalStyle("html[data-session-restoring] main", { visibility: "hidden" });

export const content = style({ flex: 1, overflowY: "auto", minHeight: 0, display: "flex", flexDirection: "column" });

export const container = style({
  flex: "1 0 auto",
  width: "100%",
  maxWidth: 1120,
  margin: "0 auto",
  padding: `${vars.space.lg} ${vars.space.md}`,
  "@media": { [md]: { padding: `${vars.space.xl} ${vars.space.lg}` } },
});

/**
 * A page that fills the visible content area (the review workspace); the footer follows below it. On small screens
 * the page is as tall as its content (it scrolls as a whole there), so the footer comes after the review instead of
 * over it.
 */
export const fullWidthMain = style({
  height: "100%",
  flexShrink: 0,
  "@media": { "(max-width: 767px)": { height: "auto" } },
});

export const pageTitle = style({ fontSize: vars.fontSize.xl, margin: `0 0 ${vars.space.md}`, lineHeight: 1.25 });

export const lead = style({ color: vars.color.muted, margin: `0 0 ${vars.space.lg}` });

/** The upgrade prompt of gated pages. */
export const gateCard = style({ maxWidth: 560, margin: `${vars.space.xxl} auto`, textAlign: "center" });

export const notice = style({
  padding: vars.space.md,
  borderRadius: vars.radius.md,
  background: vars.color.infoBg,
  color: vars.color.info,
  border: `1px solid ${vars.color.border}`,
});

/* ---------- Cards ---------- */

export const cardGrid = style({
  display: "grid",
  gap: vars.space.md,
  gridTemplateColumns: "1fr",
  "@media": { [md]: { gridTemplateColumns: "repeat(2, 1fr)" }, [lg]: { gridTemplateColumns: "repeat(4, 1fr)" } },
});

export const card = style({
  display: "block",
  padding: vars.space.lg,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  boxShadow: vars.shadow.sm,
  color: vars.color.text,
  textDecoration: "none",
});

export const linkCard = style([
  card,
  {
    transition: "border-color 120ms, box-shadow 120ms",
    selectors: { "&:hover": { borderColor: vars.color.primary, boxShadow: vars.shadow.md } },
  },
]);

export const cardTitle = style({ margin: `0 0 ${vars.space.xs}`, fontSize: vars.fontSize.lg });
export const cardText = style({ margin: 0, color: vars.color.muted, fontSize: vars.fontSize.sm });

/* ---------- Buttons as links ---------- */

const buttonBase = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  gap: vars.space.sm,
  padding: `${vars.space.sm} ${vars.space.lg}`,
  borderRadius: vars.radius.md,
  fontWeight: 600,
  textDecoration: "none",
  border: "1px solid transparent",
  cursor: "pointer",
});

export const button = styleVariants({
  primary: [
    buttonBase,
    {
      background: vars.color.primary,
      color: vars.color.primaryText,
      selectors: { "&:hover": { background: vars.color.primaryHover } },
    },
  ],
  outline: [buttonBase, { background: "transparent", color: vars.color.primary, borderColor: vars.color.primary }],
  ghost: [buttonBase, { background: "transparent", color: vars.color.text }],
});

/* ---------- Public pages ---------- */

export const publicShell = style({ display: "flex", flexDirection: "column", minHeight: "100dvh" });

export const publicHeader = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  padding: `${vars.space.md} ${vars.space.lg}`,
  background: vars.color.surface,
  borderBottom: `1px solid ${vars.color.border}`,
});

export const publicMain = style({ flex: 1 });

export const hero = style({
  padding: `${vars.space.xxl} ${vars.space.md}`,
  textAlign: "center",
  background: `linear-gradient(180deg, ${vars.color.surface}, ${vars.color.bg})`,
});

export const heroTitle = style({
  fontSize: "clamp(2rem, 5vw, 3.25rem)",
  lineHeight: 1.1,
  margin: `0 auto ${vars.space.md}`,
  maxWidth: 820,
});

export const heroText = style({
  fontSize: vars.fontSize.lg,
  color: vars.color.muted,
  maxWidth: 640,
  margin: `0 auto ${vars.space.lg}`,
});

export const section = style({ padding: `${vars.space.xxl} ${vars.space.md}`, maxWidth: 1120, margin: "0 auto" });

export const sectionTitle = style({ fontSize: vars.fontSize.xl, textAlign: "center", margin: `0 0 ${vars.space.lg}` });

export const statBlock = style({ textAlign: "center", marginTop: vars.space.xl });

export const teamCard = style([card, { maxWidth: 360, margin: "0 auto", textAlign: "center" }]);

export const founderPhoto = style({
  display: "block",
  width: 96,
  height: 96,
  margin: `0 auto ${vars.space.md}`,
  borderRadius: vars.radius.full,
  objectFit: "cover",
  background: vars.color.surfaceMuted,
});

export const stat = style({ fontSize: vars.fontSize.xxl, fontWeight: 800, color: vars.color.primary, margin: 0 });

export const cta = style({
  textAlign: "center",
  padding: `${vars.space.xxl} ${vars.space.md}`,
  background: vars.color.surfaceMuted,
});

export const ctaActions = style({ display: "flex", gap: vars.space.md, justifyContent: "center", flexWrap: "wrap" });

export const footer = style({
  display: "flex",
  flexWrap: "wrap",
  gap: vars.space.md,
  justifyContent: "space-between",
  alignItems: "center",
  padding: `${vars.space.md} ${vars.space.lg}`,
  // Room for the fixed help button, so it never covers the legal links (on a phone the button is in the flow, below).
  paddingRight: 80,
  "@media": { [phone]: { paddingRight: vars.space.lg } },
  borderTop: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  color: vars.color.muted,
  fontSize: vars.fontSize.sm,
});

export const footerLinks = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: vars.space.md,
  listStyle: "none",
  margin: 0,
  padding: 0,
});

/** A button that reads like the footer's links (« Gérer mes cookies »). */
export const footerButton = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.xs,
  padding: 0,
  border: "none",
  background: "transparent",
  color: vars.color.primary,
  font: "inherit",
  lineHeight: "inherit",
  textDecoration: "underline",
  cursor: "pointer",
});

export const prose = style({ maxWidth: 760, margin: "0 auto", padding: `${vars.space.xl} ${vars.space.md}` });
// The legal pages' tables (cookies, processing purposes) take the column's width and wrap their cells, long words
// and cookie names included: at their natural width they made the page 404 px wide on a 320 px phone (issue 24).
globalStyle(`${prose} table`, { width: "100%", tableLayout: "fixed", borderCollapse: "collapse" });
globalStyle(`${prose} :is(th, td)`, {
  overflowWrap: "anywhere",
  verticalAlign: "top",
  textAlign: "start",
  padding: "4px 6px 4px 0",
});

/* ---------- Auth pages ---------- */

export const authMain = style({
  flex: 1,
  display: "grid",
  placeItems: "center",
  padding: `${vars.space.xl} ${vars.space.md}`,
});

export const authCard = style([card, { width: "100%", maxWidth: 420 }]);

/* ---------- Not found ---------- */

export const notFound = style({
  minHeight: "60dvh",
  display: "grid",
  placeItems: "center",
  textAlign: "center",
  padding: vars.space.lg,
});

export const notFoundCode = style({
  fontSize: "clamp(5rem, 20vw, 9rem)",
  fontWeight: 800,
  lineHeight: 1,
  margin: 0,
  color: vars.color.primary,
});

/* ---------- Settings ---------- */

export const tabs = style({
  display: "flex",
  gap: vars.space.sm,
  borderBottom: `1px solid ${vars.color.border}`,
  marginBottom: vars.space.lg,
});

export const tab = style({
  padding: `${vars.space.sm} ${vars.space.md}`,
  border: "none",
  borderBottom: `2px solid ${vars.color.primary}`,
  background: "transparent",
  font: "inherit",
  fontWeight: 600,
  color: vars.color.primary,
});

/* ---------- Cookie banner ---------- */

// Hidden unless the page script found no valid stored choice or « Gérer mes cookies » reopened it. In the normal
// flow at the top of the body: the page moves down below it, nothing is covered.
export const cookieBanner = style({
  display: "none",
  flex: "none",
  flexWrap: "wrap",
  alignItems: "flex-end",
  gap: vars.space.md,
  padding: `${vars.space.md} ${vars.space.lg}`,
  background: vars.color.surface,
  color: vars.color.text,
  borderBottom: `1px solid ${vars.color.border}`,
  boxShadow: vars.shadow.sm,
  fontSize: vars.fontSize.sm,
  selectors: {
    ':root[data-consent="unset"] &, :root[data-consent-open] &': { display: "flex" },
  },
});

export const cookieBannerText = style({ flex: "1 1 320px" });

globalStyle(`${cookieBannerText} p`, { margin: `0 0 ${vars.space.xs}` });

export const cookieBannerStatus = style({ color: vars.color.muted, selectors: { "&:empty": { display: "none" } } });

export const cookieBannerActions = style({ display: "flex", gap: vars.space.sm });

// Refusing is as easy and as visible as accepting: both buttons look the same.
export const consentButton = style({
  padding: `${vars.space.sm} ${vars.space.lg}`,
  border: `1px solid ${vars.color.primary}`,
  borderRadius: vars.radius.md,
  background: vars.color.primary,
  color: vars.color.primaryText,
  font: "inherit",
  fontWeight: 600,
  cursor: "pointer",
  selectors: { "&:hover": { background: vars.color.primaryHover } },
});

/* ---------- Help ---------- */

/**
 * Floating at the bottom right from the medium breakpoint up. On a phone a floating button covers the text under it
 * while the page scrolls (issue 24), so there it is in the flow instead: at the end of a public page, and as a row
 * under the scrolling content area of a signed-in page (src/pages/layouts.tsx places it after that area).
 */
export const help = style({
  position: "fixed",
  right: vars.space.md,
  bottom: vars.space.md,
  zIndex: 20,
  "@media": {
    [phone]: {
      position: "relative",
      right: "auto",
      bottom: "auto",
      alignSelf: "flex-end",
      margin: `${vars.space.xs} ${vars.space.md}`,
    },
  },
});

export const helpButton = style({
  listStyle: "none",
  display: "grid",
  placeItems: "center",
  width: 44,
  height: 44,
  borderRadius: vars.radius.full,
  background: vars.color.primary,
  color: vars.color.primaryText,
  fontWeight: 800,
  fontSize: vars.fontSize.lg,
  cursor: "pointer",
  boxShadow: vars.shadow.md,
  selectors: { "&::-webkit-details-marker": { display: "none" } },
});

export const helpText = style({ margin: `${vars.space.xs} 0 0` });

export const helpPanel = style({
  position: "absolute",
  right: 0,
  bottom: 52,
  width: 260,
  padding: vars.space.md,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  boxShadow: vars.shadow.md,
  fontSize: vars.fontSize.sm,
});

/** An operator's warning on the settings page (administrators only): the embedded database has outgrown itself. */
export const adminWarning = style({
  margin: `0 0 ${vars.space.md}`,
  padding: vars.space.md,
  border: `1px solid ${vars.color.warning}`,
  borderRadius: vars.radius.md,
  color: vars.color.text,
});

/**
 * "Skip to main content" (issue 24): the first control of every page's layout, off-screen until focused, then shown
 * at the top-start corner above everything, so a keyboard user passes the header and menus in one step.
 */
export const skipLink = style({
  position: "fixed",
  top: vars.space.sm,
  insetInlineStart: vars.space.sm,
  zIndex: 3000,
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  background: vars.color.primary,
  color: vars.color.primaryText,
  fontWeight: 600,
  textDecoration: "none",
  transform: "translateY(-300%)",
  selectors: { "&:focus": { transform: "none" } },
});

/** The skip link's target: focused from the link only, so it needs no focus ring of its own. */
globalStyle("#main-content:focus", { outline: "none" });
