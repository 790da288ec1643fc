import { describe, expect, test } from "bun:test";
import { chromiumPlan, ensureChromium, instructions, INSTALL_COMMAND } from "./chromium.mjs";

// A fresh machine (issue 7, item 16): the test step installs Debian's Chromium itself when it can, else says what to
// run.

describe("Chromium for the browser tests", () => {
  test("present: nothing to do", () => {
    expect(chromiumPlan({ present: true, root: false, apt: false, pathIsDefault: true })).toBe("ready");
  });

  test("missing, as root with apt-get, at the default path: install Debian's package", () => {
    expect(chromiumPlan({ present: false, root: true, apt: true, pathIsDefault: true })).toBe("install");
  });

  test("missing otherwise (not root, no apt, or a custom CHROMIUM_PATH): say exactly what to run", () => {
    expect(chromiumPlan({ present: false, root: false, apt: true, pathIsDefault: true })).toBe("instruct");
    expect(chromiumPlan({ present: false, root: true, apt: false, pathIsDefault: true })).toBe("instruct");
    expect(chromiumPlan({ present: false, root: true, apt: true, pathIsDefault: false })).toBe("instruct");
    expect(instructions("/usr/bin/chromium")).toContain(INSTALL_COMMAND);
    expect(instructions("/opt/x/chrome")).toContain("CHROMIUM_PATH");
  });

  test("a custom path that does not exist is reported with the command, not installed over", () => {
    expect(ensureChromium("/nonexistent/chromium")).toBe(instructions("/nonexistent/chromium"));
  });
});
