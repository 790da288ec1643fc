/**
 * A toast that survives one full page navigation: forms that end by going to another page (login → /,
 * signup → /login) leave their message here, and the next page's client entry shows it.
 */
const FLASH_KEY = "flash_toast";

export interface Flash {
  kind: "success" | "error";
  message: string;
}

/** Leaves a message for the next page to show. */
export function setFlash(flash: Flash): void {
  try {
    sessionStorage.setItem(FLASH_KEY, JSON.stringify(flash));
  } catch {
    // Storage can be disabled (private mode); the message is then simply not shown.
  }
}

/** Returns the pending message, if any, and forgets it so it shows once. */
export function takeFlash(): Flash | null {
  try {
    const raw = sessionStorage.getItem(FLASH_KEY);
    if (!raw) return null;
    sessionStorage.removeItem(FLASH_KEY);
    const parsed = JSON.parse(raw) as Partial<Flash>;
    if ((parsed.kind === "success" || parsed.kind === "error") && typeof parsed.message === "string") {
      return { kind: parsed.kind, message: parsed.message };
    }
  } catch {
    // Unreadable entries are dropped.
  }
  return null;
}
