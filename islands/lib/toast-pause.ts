/**
 * When the toasts' timers pause (./toaster.tsx): while any reason holds, the pointer over the region, keyboard focus
 * in it, or the document hidden (another tab in front, the window minimised, read from `visibilitychange`).
 */
import { useEffect, useRef } from "react";

/** Why the timers are paused; several may hold at once, and the timers run again once none does. */
export type PauseReason = "hover" | "focus" | "hidden";

/** The toast store's pause controls (react-hot-toast's `useToaster().handlers`). */
export interface PauseHandlers {
  startPause: () => void;
  endPause: () => void;
}

/**
 * Tracks the reasons to pause and pauses the store's timers while at least one holds. Follows the document's
 * visibility itself; returns `setPaused(reason, on)` for the region's pointer and focus events.
 */
export function useToastPause(handlers: PauseHandlers): (reason: PauseReason, on: boolean) => void {
  const reasons = useRef(new Set<PauseReason>());
  // startPause/endPause change identity when the pause state changes; keep the latest in a ref for listeners.
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;

  const setPaused = (reason: PauseReason, on: boolean) => {
    const set = reasons.current;
    const before = set.size > 0;
    if (on) set.add(reason);
    else set.delete(reason);
    const after = set.size > 0;
    if (after && !before) handlersRef.current.startPause();
    if (!after && before) handlersRef.current.endPause();
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: setPaused touches refs only: one listener
  useEffect(() => {
    const onVisibility = () => setPaused("hidden", document.visibilityState === "hidden");
    onVisibility();
    document.addEventListener("visibilitychange", onVisibility);
    return () => document.removeEventListener("visibilitychange", onVisibility);
    // setPaused only touches refs, so one listener for the life of the region is right.
  }, []);

  return setPaused;
}
