/**
 * The article detail dialog, loaded on its first opening (most visits open none, and pages have a JavaScript budget:
 * docs/decisions/0006-ui-primitives-within-js-budget.md). Same props as ArticleDialog; render it only while open.
 */
import { lazy, Suspense } from "react";
import type { ArticleDialogProps } from "./ArticleDialog.tsx";

const ArticleDialog = lazy(() => import("./ArticleDialog.tsx").then((m) => ({ default: m.ArticleDialog })));

export function LazyArticleDialog(props: ArticleDialogProps) {
  return (
    <Suspense fallback={null}>
      <ArticleDialog {...props} />
    </Suspense>
  );
}
