import { createGlobalTheme, createThemeContract, globalStyle } from "@vanilla-extract/css";

/** The one theme contract. Light is the default; dark applies with `data-theme="dark"` on <html>. */
export const vars = createThemeContract({
  color: {
    bg: null,
    surface: null,
    surfaceMuted: null,
    text: null,
    muted: null,
    border: null,
    primary: null,
    primaryHover: null,
    primaryText: null,
    danger: null,
    dangerBg: null,
    success: null,
    warning: null,
    warningBg: null,
    info: null,
    infoBg: null,
    /** Background of a marked passage (a quoted or source sentence), with `text` on it at AA contrast. */
    highlight: null,
    focus: null,
  },
  space: { xs: null, sm: null, md: null, lg: null, xl: null, xxl: null },
  radius: { sm: null, md: null, lg: null, full: null },
  font: { body: null, mono: null },
  fontSize: { xs: null, sm: null, md: null, lg: null, xl: null, xxl: null },
  shadow: { sm: null, md: null },
});

const shared = {
  space: { xs: "4px", sm: "8px", md: "16px", lg: "24px", xl: "32px", xxl: "48px" },
  radius: { sm: "4px", md: "8px", lg: "12px", full: "9999px" },
  font: {
    body: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    mono: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  },
  fontSize: { xs: "0.75rem", sm: "0.875rem", md: "1rem", lg: "1.125rem", xl: "1.5rem", xxl: "2.25rem" },
};

createGlobalTheme(":root", vars, {
  ...shared,
  color: {
    bg: "#f7f8fa",
    surface: "#ffffff",
    surfaceMuted: "#f0f2f5",
    text: "#1a202c",
    muted: "#4a5568",
    border: "#d8dde5",
    primary: "#0b6e6e",
    primaryHover: "#095959",
    primaryText: "#ffffff",
    danger: "#c53030",
    dangerBg: "#fff5f5",
    success: "#276749",
    warning: "#9c4221",
    warningBg: "#fffaf0",
    info: "#2b6cb0",
    infoBg: "#ebf8ff",
    highlight: "#fff3b0",
    focus: "#3182ce",
  },
  shadow: { sm: "0 1px 2px rgba(0,0,0,0.06)", md: "0 4px 12px rgba(0,0,0,0.12)" },
});

createGlobalTheme(':root[data-theme="dark"]', vars, {
  ...shared,
  color: {
    bg: "#12161c",
    surface: "#1b2129",
    surfaceMuted: "#232a34",
    text: "#e8ecf1",
    muted: "#a9b4c2",
    border: "#333d4a",
    primary: "#4fd1c5",
    primaryHover: "#81e6d9",
    primaryText: "#0b1a1a",
    danger: "#fc8181",
    dangerBg: "#2d1b1b",
    success: "#68d391",
    warning: "#f6ad55",
    warningBg: "#2d2418",
    info: "#90cdf4",
    infoBg: "#1a2a3a",
    highlight: "#5a4b12",
    focus: "#63b3ed",
  },
  shadow: { sm: "0 1px 2px rgba(0,0,0,0.4)", md: "0 4px 12px rgba(0,0,0,0.5)" },
});

globalStyle("*, *::before, *::after", { boxSizing: "border-box" });
globalStyle("html, body", {
  margin: 0,
  padding: 0,
  background: vars.color.bg,
  color: vars.color.text,
  fontFamily: vars.font.body,
  fontSize: "16px",
  lineHeight: 1.5,
});
globalStyle("a", { color: vars.color.primary });
globalStyle(":focus-visible", { outline: `2px solid ${vars.color.focus}`, outlineOffset: "2px" });
