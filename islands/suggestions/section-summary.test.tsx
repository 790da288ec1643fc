import { describe, expect, test } from "bun:test";
import { renderToStaticMarkup } from "react-dom/server";
import { SectionSummary } from "./SectionSummary.tsx";

describe("section summary", () => {
  test("each citation is a button naming its article, beyond the page's two cards; text stays text", () => {
    const articles = Array.from({ length: 7 }, (_, i) => ({ pmid: 100 + i, title: `Article ${i + 1}` }));
    const text = "**Overview.** One [1].\n\n**Key findings**\n- A <b>x</b> [2].\n- B [1, 7]. C [9].";
    const html = renderToStaticMarkup(<SectionSummary text={text} articles={articles} />);
    expect(html).toStartWith('<div data-testid="section-summary">');
    const refs = [...html.matchAll(/data-testid="citation-ref" data-ref="(\d+)"/g)].map((m) => Number(m[1]));
    expect(refs).toEqual([1, 2, 1, 7]);
    expect(html).toContain('aria-label="Reference 7: Article 7"');
    expect(html).toContain("<strong>Overview.</strong>");
    expect(html).toContain("A &lt;b&gt;x&lt;/b&gt;");
    // A number the section has no article for is marked, as on the review page.
    expect(html).toMatch(/data-testid="citation-invalid"[^>]*>9</);
  });
});
