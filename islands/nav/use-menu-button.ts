/**
 * The open state of a menu button (./MenuButton.tsx) and where focus goes with it: opening focuses the first or the
 * last item, closing with Escape gives focus back to the button, and a press outside the button and the menu closes it.
 */
import { useEffect, useRef, useState, type RefObject } from "react";

/** What ./MenuButton.tsx renders from: the state, the elements' refs and the ways to open and close the menu. */
export interface MenuButtonState {
  open: boolean;
  buttonRef: RefObject<HTMLButtonElement | null>;
  menuRef: RefObject<HTMLUListElement | null>;
  /** The menu's items, in order, as the DOM holds them. */
  itemsOf: () => HTMLElement[];
  /** Opens the menu with focus on its first or last item. */
  openAt: (where: "first" | "last") => void;
  /** Closes the menu; with `returnFocus`, the button takes focus. */
  close: (returnFocus: boolean) => void;
}

/** The state of one menu button; see MenuButtonState. */
export function useMenuButton(): MenuButtonState {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);
  // Which item to focus once the menu is visible: set by the key or click that opened it.
  const pendingFocus = useRef<"first" | "last" | null>(null);

  const itemsOf = () => [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: on opening and closing only; itemsOf reads the DOM
  useEffect(() => {
    if (!open) return;
    const list = itemsOf();
    const target = pendingFocus.current === "last" ? list.at(-1) : list[0];
    pendingFocus.current = null;
    target?.focus();
    // A press anywhere outside the button and the menu closes it.
    const onPointerDown = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!menuRef.current?.contains(t) && !buttonRef.current?.contains(t)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  const openAt = (where: "first" | "last") => {
    pendingFocus.current = where;
    setOpen(true);
  };

  return { open, buttonRef, menuRef, itemsOf, openAt, close };
}
