/**
 * The keyboard of a menu button (./MenuButton.tsx), after the WAI-ARIA Authoring Practices "menu button" pattern.
 * Works on the menu's items as the DOM holds them, so it needs no state of its own.
 */
import type { KeyboardEvent } from "react";

/** Enter, Space or ArrowDown on the button open the menu on its first item, ArrowUp on its last. */
export function onTriggerKey(e: KeyboardEvent, openAt: (where: "first" | "last") => void): void {
  if (e.key === "ArrowDown" || e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    openAt("first");
  } else if (e.key === "ArrowUp") {
    e.preventDefault();
    openAt("last");
  }
}

/**
 * A key pressed in the open menu: ArrowUp/ArrowDown (wrapping), Home and End move between `items`; a letter moves to
 * the next item starting with it; Escape closes and gives focus back to the button, Tab closes and lets focus move on.
 */
export function onMenuKey(e: KeyboardEvent, items: HTMLElement[], close: (returnFocus: boolean) => void): void {
  const at = items.indexOf(document.activeElement as HTMLElement);
  const focus = (i: number) => items[(i + items.length) % items.length]?.focus();
  if (e.key === "ArrowDown") focus(at + 1);
  else if (e.key === "ArrowUp") focus(at - 1);
  else if (e.key === "Home") focus(0);
  else if (e.key === "End") focus(items.length - 1);
  else if (e.key === "Escape") close(true);
  else if (e.key === "Tab") {
    // Tab moves focus on as usual: the key is not prevented.
    close(false);
    return;
  } else if (e.key.length === 1 && /\S/.test(e.key)) {
    const key = e.key.toLowerCase();
    const next = items.findIndex((el, i) => i > at && el.textContent?.trim().toLowerCase().startsWith(key));
    const wrap = items.findIndex((el) => el.textContent?.trim().toLowerCase().startsWith(key));
    if (next >= 0 || wrap >= 0) focus(next >= 0 ? next : wrap);
  } else return;
  e.preventDefault();
}
