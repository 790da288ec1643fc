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
      {blocks.flatMap((block, b) => {
        // A block is runs of text lines and of "- " bullet lines ("**Key findings**" then its bullets).
        const runs: { bullets: boolean; lines: string[] }[] = [];
        for (const line of block.split("\n").filter((l) => l.trim())) {
          const bullet = line.trimStart().startsWith("- ");
          const last = runs.at(-1);
          if (last && last.bullets === bullet) last.lines.push(bullet ? line.trimStart().slice(2) : line);
          else runs.push({ bullets: bullet, lines: [bullet ? line.trimStart().slice(2) : line] });
        }
        return runs.map((run, r) =>
          run.bullets ? (
            <ul key={`${b}-${r}`}>
              {run.lines.map((l, i) => (
                <li key={i}>{inline(l, `${b}-${r}-${i}`)}</li>
              ))}
            </ul>
          ) : (
            <p key={`${b}-${r}`}>{inline(run.lines.join(" "), `${b}-${r}`)}</p>
          ),
        );
      })}
    </div>
  );
}
