import type { ComponentType } from "react";

/**
 * Every island by name → a lazy import of its component. The browser entry (islands/client.tsx) loads only the
 * islands present on a page, and the build (scripts/build-assets.mjs) reads this file to know which chunks each
 * island needs, so keep each entry in the form `Name: () => import("./path.tsx").then((m) => m.Name)`.
 */
type IslandLoader = () => Promise<ComponentType<any>>;

export const islands = {
  NavMenus: () => import("./nav/NavMenus.tsx").then((m) => m.NavMenus),
  LoginForm: () => import("./auth/LoginForm.tsx").then((m) => m.LoginForm),
  SignupForm: () => import("./auth/SignupForm.tsx").then((m) => m.SignupForm),
  RecoverPasswordForm: () => import("./auth/RecoverPasswordForm.tsx").then((m) => m.RecoverPasswordForm),
  ResetPasswordForm: () => import("./auth/ResetPasswordForm.tsx").then((m) => m.ResetPasswordForm),
  SettingsPanel: () => import("./settings/SettingsPanel.tsx").then((m) => m.SettingsPanel),
  ReviewWorkspace: () => import("./review-workspace/ReviewWorkspace.tsx").then((m) => m.ReviewWorkspace),
  Dashboard: () => import("./dashboard/Dashboard.tsx").then((m) => m.Dashboard),
  Suggestions: () => import("./suggestions/Suggestions.tsx").then((m) => m.Suggestions),
} satisfies Record<string, IslandLoader>;

/** Name of a registered island. */
export type IslandName = keyof typeof islands;

/**
 * Islands that render and hydrate without the query cache: islands/client.tsx hydrates them without loading
 * @tanstack/react-query, so a page holding only these does not ship it (the top bar's menus load theirs after the
 * first paint). The build fails when one of these imports react-query after all (scripts/build-assets.mjs), and
 * preloads the query root (islands/lib/query-root.tsx) for every other island.
 */
export const QUERY_FREE_ISLANDS: ReadonlySet<IslandName> = new Set([
  "NavMenus",
  "LoginForm",
  "SignupForm",
  "RecoverPasswordForm",
  "ResetPasswordForm",
]);
