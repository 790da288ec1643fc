// biome-ignore-all lint/suspicious/noArrayIndexKey: blocks and inlines are positions in a fixed text
/**
 * A review's summary (docs/product.md §2 /literature_management): bold text, bullets and paragraphs, and numbered
 * citations. Each valid number is a button: hovering it for 300 ms shows a preview card (title and a two-line
 * abstract; it closes 100 ms after the pointer leaves), activating it opens the article's dialog with the full
 * abstract. A number without a cited article is shown in red. The text can be revealed progressively.
 */
import { Fragment, useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { LazyArticleDialog } from "../article-card/LazyArticleDialog.tsx";
import { abstractOf, titleOf } from "../article-card/article-text.ts";
import type { Article } from "../article-card/types.ts";
import { placePreview } from "./preview-position.ts";
import { citedArticle, countSegments, parseSummary, takeSegments, type Inline } from "./summary-parse.ts";
import * as css from "./ReviewWorkspace.css.ts";

/** Reveal pace, hover delays (docs/product.md §9). */
export const REVEAL_STEP_MS = 10;
export const PREVIEW_OPEN_MS = 300;
export const PREVIEW_CLOSE_MS = 100;

/** Props of {@link ReviewSummary}. */
export interface ReviewSummaryProps {
  summary: string;
  /** Cited articles in citation order: number n is refs[n-1]. */
  refs: readonly Article[];
  /** Reveal the text one segment every 10 ms instead of showing it at once. */
  animate: boolean;
}

/** The rendered summary with interactive citations; `data-revealing` is "true" until all of it shows. */
export function ReviewSummary({ summary, refs, animate }: ReviewSummaryProps) {
  const blocks = useMemo(() => parseSummary(summary), [summary]);
  const total = useMemo(() => countSegments(blocks), [blocks]);
  const [shown, setShown] = useState(animate ? 0 : Number.POSITIVE_INFINITY);
  const [dialog, setDialog] = useState<{ article: Article; quote: string | null } | null>(null);

  useEffect(() => {
    if (!animate) {
      setShown(Number.POSITIVE_INFINITY);
      return;
    }
    // Motion-sensitive readers get the whole text at once.
    if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) {
      setShown(Number.POSITIVE_INFINITY);
      return;
    }
    // Steps follow the clock rather than counting ticks, so a throttled timer catches up instead of dragging.
    const startedAt = performance.now();
    setShown(0);
    const timer = setInterval(() => {
      const n = Math.floor((performance.now() - startedAt) / REVEAL_STEP_MS) + 1;
      setShown(n);
      if (n >= total) clearInterval(timer);
    }, REVEAL_STEP_MS);
    return () => clearInterval(timer);
  }, [animate, total]);

  const revealing = shown < total;
  const visible = revealing ? takeSegments(blocks, shown) : blocks;

  const renderLine = (inlines: Inline[]): ReactNode[] =>
    inlines.map((inline, i) => {
      // The sentence a citation closes: the text since the previous citation, its last sentence (what the dialog
      // marks in the cited abstract).
      const quote = inline.kind === "cite" ? quotedBefore(inlines, i) : null;
      const open = (article: Article) => setDialog({ article, quote });
      if (inline.kind === "break") return <br key={i} />;
      if (inline.kind === "text")
        return inline.bold ? <strong key={i}>{inline.text}</strong> : <Fragment key={i}>{inline.text}</Fragment>;
      return (
        <span key={i} className={css.citeGroup}>
          [
          {inline.numbers.map((n, k) => {
            const article = citedArticle(refs, n);
            return (
              <Fragment key={k}>
                {k > 0 ? ", " : null}
                {article ? (
                  <>
                    <Citation n={n} article={article} onOpen={open} />
                    {article.study_design_abbreviation ? (
                      <span
                        className={css.citeDesign}
                        title={article.study_design_label ?? undefined}
                        data-testid="citation-design"
                      >
                        {article.study_design_abbreviation}
                      </span>
                    ) : null}
                  </>
                ) : (
                  <span
                    className={css.citeInvalid}
                    title={`Invalid or missing reference data for number: ${n}`}
                    data-testid="citation-invalid"
                  >
                    {n}
                  </span>
                )}
              </Fragment>
            );
          })}
          ]
        </span>
      );
    });

  return (
    <div
      className={css.summary}
      data-testid="review-summary"
      data-revealing={String(revealing)}
      aria-busy={revealing || undefined}
    >
      {visible.map((block, i) =>
        block.kind === "paragraph" ? (
          <p key={i}>{renderLine(block.inlines)}</p>
        ) : (
          <ul key={i}>
            {block.items.map((item, j) => (
              <li key={j}>{renderLine(item)}</li>
            ))}
          </ul>
        ),
      )}
      {dialog ? (
        <LazyArticleDialog article={dialog.article} quote={dialog.quote} onClose={() => setDialog(null)} />
      ) : null}
    </div>
  );
}

/**
 * The sentence that the citation at `inlines[at]` closes: the plain text since the previous citation (or the line's
 * start), its last sentence, without a leading label ("The same abstract states a limitation: “…”" gives the quote).
 */
export function quotedBefore(inlines: readonly Inline[], at: number): string | null {
  let text = "";
  for (let i = at - 1; i >= 0; i--) {
    const x = inlines[i] as Inline;
    if (x.kind === "cite") break;
    if (x.kind === "text" && !x.bold) text = x.text + text;
  }
  const quoted = /“([^”]+)”\s*$/u.exec(text)?.[1];
  const sentence =
    (quoted ?? text)
      .trim()
      .split(/(?<=[.!?])\s+(?=\p{Lu})/u)
      .pop() ?? "";
  return sentence.length >= 3 ? sentence : null;
}

/**
 * One reference number with its hover preview; activating it asks its owner (the summary, the evidence table) to open
 * the dialog.
 */
export function Citation({ n, article, onOpen }: { n: number; article: Article; onOpen: (a: Article) => void }) {
  const buttonRef = useRef<HTMLButtonElement>(null);
  const openTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const closeTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const [position, setPosition] = useState<CSSProperties | null>(null);

  const clearTimers = () => {
    clearTimeout(openTimer.current);
    clearTimeout(closeTimer.current);
  };
  const place = () => {
    const el = buttonRef.current;
    if (el)
      setPosition(placePreview(el.getBoundingClientRect(), { width: window.innerWidth, height: window.innerHeight }));
  };
  const scheduleOpen = () => {
    clearTimeout(closeTimer.current);
    if (position) return;
    clearTimeout(openTimer.current);
    openTimer.current = setTimeout(place, PREVIEW_OPEN_MS);
  };
  const scheduleClose = () => {
    clearTimeout(openTimer.current);
    clearTimeout(closeTimer.current);
    closeTimer.current = setTimeout(() => setPosition(null), PREVIEW_CLOSE_MS);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the timers are refs: cleared once, on unmount
  useEffect(() => clearTimers, []);

  const open = position !== null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: listeners follow opening and closing; place reads refs
  useEffect(() => {
    if (!open) return;
    // The card is fixed to the viewport: follow the number when the page scrolls or resizes.
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setPosition(null);
    };
    window.addEventListener("scroll", place, { capture: true, passive: true });
    window.addEventListener("resize", place);
    document.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("scroll", place, { capture: true });
      window.removeEventListener("resize", place);
      document.removeEventListener("keydown", onKey);
    };
    // place only reads the button ref.
  }, [open]);

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className={css.citeButton}
        aria-label={`Reference ${n}: ${titleOf(article)}`}
        aria-haspopup="dialog"
        data-testid="citation-ref"
        data-ref={n}
        // Touch has no hover: a tap goes straight to the dialog.
        onPointerEnter={(e) => e.pointerType !== "touch" && scheduleOpen()}
        onPointerLeave={scheduleClose}
        onClick={() => {
          clearTimers();
          setPosition(null);
          onOpen(article);
        }}
      >
        {n}
      </button>
      {open
        ? createPortal(
            <div
              className={css.previewCard}
              style={position}
              data-testid="citation-preview"
              data-ref={n}
              onPointerEnter={() => clearTimeout(closeTimer.current)}
              onPointerLeave={scheduleClose}
            >
              <strong className={css.previewTitle}>{titleOf(article)}</strong>
              <span className={css.previewAbstract}>{abstractOf(article)}</span>
            </div>,
            document.body,
          )
        : null}
    </>
  );
}
