/**
 * Where focus goes after a topic is submitted (issue 24): to the status bubble at once, then to the summary when it is
 * shown, unless the user has moved focus elsewhere meanwhile. Without this, focus fell to the page body with the form.
 */
import { useEffect, useRef, type RefObject } from "react";

/** The refs of the submit's focus steps: set `focusNext` to "status" on submit, null to stop (a failed start). */
export interface SubmitFocus {
  focusNext: RefObject<"status" | "summary" | null>;
  /** The status bubble, focused first. */
  statusRef: RefObject<HTMLParagraphElement | null>;
  /** The summary panel, focused once shown if focus is still on the status bubble or nowhere. */
  summaryRef: RefObject<HTMLElement | null>;
}

/** Moves focus after each render as SubmitFocus describes. */
export function useSubmitFocus(): SubmitFocus {
  const focusNext = useRef<"status" | "summary" | null>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const summaryRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (focusNext.current === "status" && statusRef.current) {
      statusRef.current.focus();
      focusNext.current = "summary";
    } else if (focusNext.current === "summary" && summaryRef.current) {
      const active = document.activeElement;
      if (!active || active === document.body || active === statusRef.current) summaryRef.current.focus();
      focusNext.current = null;
    }
  });
  return { focusNext, statusRef, summaryRef };
}
