/**
 * Renders a section summary (the summarizer's text: paragraphs split by a blank line, "- " bullet lines, `**bold**`,
 * citations "[n]" that name the section's n-th article) as React elements, without HTML injection: text stays text.
 */
import type { ReactNode } from "react";

function inline(text: string, key: string): ReactNode[] {
  return text.split(/\*\*(.+?)\*\*/g).map((part, i) => (i % 2 === 1 ? <strong key={`${key}-${i}`}>{part}</strong> : part));
}

export function SummaryText({ text, className }: { text: string; className?: string }) {
  const blocks = text.split(/\n\s*\n/).filter((b) => b.trim());
  return (
    <div className={className} data-testid="section-summary">
      {blocks.map((block, b) => {
        const lines = block.split("\n").filter((l) => l.trim());
        if (lines.every((l) => l.trimStart().startsWith("- "))) {
          return (
            <ul key={b}>
              {lines.map((l, i) => (
                <li key={i}>{inline(l.trimStart().slice(2), `${b}-${i}`)}</li>
              ))}
            </ul>
          );
        }
        return <p key={b}>{inline(lines.join(" "), String(b))}</p>;
      })}
    </div>
  );
}
