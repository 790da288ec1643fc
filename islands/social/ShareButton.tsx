/**
 * The Share popover of an article card (docs/product.md §2): a button opening a native popover (top layer, light
 * dismiss, Escape closes and focus returns to the button) placed under the button. The search form inside is loaded on
 * the first opening, so pages pay for it only when someone shares.
 * Test ids: `share-button`, `share-popover`.
 */
import { lazy, Suspense, useId, useRef, useState, type ToggleEvent } from "react";
import type { Article } from "../article-card/types.ts";
import { Icon } from "../article-card/icons.tsx";
import * as css from "./social.css.ts";

const ShareForm = lazy(() => import("./ShareForm.tsx").then((m) => ({ default: m.ShareForm })));

/** Where the popover goes: under the button, kept inside the viewport (px, viewport coordinates). */
export function popoverPosition(
  button: { left: number; right: number; bottom: number; top: number },
  size: { width: number; height: number },
  viewport: { width: number; height: number },
  gap = 6,
): { left: number; top: number } {
  const margin = 8;
  let left = Math.min(button.left, viewport.width - size.width - margin);
  left = Math.max(margin, left);
  let top = button.bottom + gap;
  // No room below: open above the button instead, if there is room there.
  if (top + size.height > viewport.height - margin && button.top - gap - size.height >= margin)
    top = button.top - gap - size.height;
  return { left, top };
}

export function ShareButton({ article }: { article: Article }) {
  const id = useId();
  const popoverId = `share-${id.replace(/[^A-Za-z0-9]/g, "")}`;
  const buttonRef = useRef<HTMLButtonElement>(null);
  const popoverRef = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);

  const place = () => {
    const button = buttonRef.current?.getBoundingClientRect();
    const el = popoverRef.current;
    if (!button || !el) return;
    const { left, top } = popoverPosition(
      button,
      { width: el.offsetWidth, height: el.offsetHeight },
      { width: window.innerWidth, height: window.innerHeight },
    );
    // CSSOM writes, which the pages' CSP allows (it refuses only inline style attributes in markup).
    el.style.left = `${left}px`;
    el.style.top = `${top}px`;
  };

  const onToggle = (e: ToggleEvent<HTMLDivElement>) => {
    const isOpen = e.newState === "open";
    setOpen(isOpen);
    if (isOpen) place();
  };

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className={css.actionButton}
        popoverTarget={popoverId}
        aria-haspopup="dialog"
        aria-expanded={open}
        data-testid="share-button"
        title="Share this article with a colleague"
      >
        <Icon name="share" />
        Share
      </button>
      <div
        ref={popoverRef}
        id={popoverId}
        popover="auto"
        role="dialog"
        aria-label="Share this article"
        className={css.popover}
        data-testid="share-popover"
        onToggle={onToggle}
      >
        {open ? (
          <Suspense fallback={<p className={css.hint}>Loading…</p>}>
            <ShareForm article={article} onDone={() => popoverRef.current?.hidePopover()} onResize={place} />
          </Suspense>
        ) : null}
      </div>
    </>
  );
}
