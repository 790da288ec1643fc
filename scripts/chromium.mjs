// Finds Debian's Chromium for the browser tests, installing it when it is missing and this machine allows it
// (root with apt-get), so that `npm ci && npm test` needs nothing else on a fresh Debian machine. Otherwise it says
// exactly what to run. Used by scripts/run-e2e.mjs.
import { accessSync, constants } from "node:fs";
import { spawnSync } from "node:child_process";

/** Whether `file` exists and is executable. */
function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether a command is on the PATH. */
function onPath(command) {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

/** The exact commands that install Debian's Chromium, for the message shown when this process cannot. */
export const INSTALL_COMMAND = "sudo apt-get update && sudo apt-get install -y chromium";

/**
 * What to do about Chromium at `path`: "ready" (it is there), "install" (missing, and this process is root with
 * apt-get, so it can install Debian's package), or "instruct" (missing, and only a person can install it).
 * Pure, for testing: the facts are passed in.
 * @param {{ present: boolean, root: boolean, apt: boolean, pathIsDefault: boolean }} facts
 */
export function chromiumPlan(facts) {
  if (facts.present) return "ready";
  return facts.root && facts.apt && facts.pathIsDefault ? "install" : "instruct";
}

/** The message for "instruct". */
export function instructions(path) {
  return (
    `Chromium was not found at ${path}. The browser tests drive Debian's Chromium (Playwright's own browser download ` +
    `does not work here). Install it with:\n  ${INSTALL_COMMAND}\nor point CHROMIUM_PATH at a Chromium or Chrome binary.`
  );
}

/**
 * Makes sure Chromium is at `path` (default /usr/bin/chromium): installs Debian's package when it can.
 * @returns null when Chromium is ready, else the message that says what to run.
 */
export function ensureChromium(path, defaultPath = "/usr/bin/chromium") {
  const plan = chromiumPlan({
    present: executable(path),
    root: typeof process.getuid === "function" && process.getuid() === 0,
    apt: onPath("apt-get"),
    pathIsDefault: path === defaultPath,
  });
  if (plan === "ready") return null;
  if (plan === "install") {
    console.log("e2e: Chromium is missing; installing Debian's package (apt-get install chromium)…");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    const update = spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    const install =
      update.status === 0
        ? spawnSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env })
        : update;
    if (install.status === 0 && executable(path)) return null;
    return `Installing Chromium with apt-get failed (exit code ${install.status}). ${instructions(path)}`;
  }
  return instructions(path);
}
