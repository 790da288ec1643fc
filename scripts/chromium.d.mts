// Types of scripts/chromium.mjs (plain JavaScript, run by Node from scripts/run-e2e.mjs).
export const INSTALL_COMMAND: string;
export function chromiumPlan(facts: { present: boolean; root: boolean; apt: boolean; pathIsDefault: boolean }): "ready" | "install" | "instruct";
export function instructions(path: string): string;
export function ensureChromium(path: string, defaultPath?: string): string | null;
