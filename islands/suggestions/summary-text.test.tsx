import { describe, expect, test } from "bun:test";
import { renderToStaticMarkup } from "react-dom/server";
import { SummaryText } from "./summary-text.tsx";

describe("section summary rendering", () => {
  test("a heading line followed by bullets becomes a paragraph and a list; bold stays bold; text stays text", () => {
    const html = renderToStaticMarkup(<SummaryText text={"**Overview.** One [1].\n\n**Key findings**\n- A <b>x</b> [2].\n- B [1, 3]."} />);
    expect(html).toBe(
      '<div data-testid="section-summary"><p><strong>Overview.</strong> One [1].</p><p><strong>Key findings</strong></p><ul><li>A &lt;b&gt;x&lt;/b&gt; [2].</li><li>B [1, 3].</li></ul></div>',
    );
  });
});
