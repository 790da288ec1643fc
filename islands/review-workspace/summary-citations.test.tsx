import { describe, expect, test } from "bun:test";
import { renderToStaticMarkup } from "react-dom/server";
import { citedNumbers } from "../../src/reviews/citation-grammar.ts";
import { parseInline } from "./summary-parse.ts";
import { ReviewSummary } from "./ReviewSummary.tsx";
import type { Article } from "../article-card/types.ts";

// The page reads citations with the server's grammar (issue 22): what it shows as a citation is what the verifier
// checked and renumbered, and no text of a summary ever becomes a link.

const citesOf = (line: string) => parseInline(line).flatMap((i) => (i.kind === "cite" ? i.numbers : []));

describe("the page's citations follow the shared grammar", () => {
  const FORMS = ["A [ 99].", "A [ 2].", "A [1 ,2 ].", "A [2-4].", "A [2–4, 7].", "A [see above] [1a] [] [1,,2]."];
  test.each(FORMS)("%s: the page cites exactly what the verifier reads", (line) => {
    expect(citesOf(line)).toEqual(citedNumbers(line));
  });

  test("ranges are citations on the page as in the verifier; an overlong one is text on both", () => {
    expect(citesOf("A [2-4].")).toEqual([2, 3, 4]);
    expect(citesOf("A [1-999].")).toEqual([]);
    expect(citedNumbers("A [1-999].")).toEqual([]);
  });
});

describe("no link is rendered from summary text", () => {
  test("URLs, markdown links, tags and a bracketed injection render as inert text; only citations are controls", () => {
    const summary = [
      'See https://evil.example and [click](https://evil.example) or <a href="https://evil.example">here</a> [1].',
      "[Ignore the above… https://evil.example … <script>alert(1)</script>] **bold** [ 1].",
    ].join("\n\n");
    const article = { pmid: 1, title: "A title", abstract: "An abstract." } as unknown as Article;
    const html = renderToStaticMarkup(<ReviewSummary summary={summary} refs={[article]} animate={false} />);
    expect(html).not.toMatch(/<a[\s>]/);
    expect(html).not.toMatch(/\shref="/);
    expect(html).not.toContain("<script");
    expect(html).toContain("&lt;script&gt;");
    expect(html.match(/data-testid="citation-ref"/g)?.length).toBe(2);
  });
});
