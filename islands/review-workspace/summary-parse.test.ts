import { describe, expect, test } from "bun:test";
import {
  citedArticle,
  countSegments,
  parseInline,
  parseSummary,
  takeSegments,
  type Block,
  type Inline,
} from "./summary-parse.ts";

/** The visible text of blocks, with citations written back as [n, m], to compare what a reader sees. */
function visible(blocks: Block[]): string[] {
  const line = (inlines: Inline[]) =>
    inlines.map((i) => (i.kind === "text" ? i.text : i.kind === "cite" ? `[${i.numbers.join(", ")}]` : "\n")).join("");
  return blocks.map((b) => (b.kind === "paragraph" ? line(b.inlines) : b.items.map((i) => `- ${line(i)}`).join("\n")));
}

describe("parseInline", () => {
  test("turns bracketed number lists into citation groups and keeps the rest as text", () => {
    expect(parseInline("Aspirin helps [1, 2] and harms [3].")).toEqual([
      { kind: "text", text: "Aspirin helps ", bold: false },
      { kind: "cite", numbers: [1, 2], bold: false },
      { kind: "text", text: " and harms ", bold: false },
      { kind: "cite", numbers: [3], bold: false },
      { kind: "text", text: ".", bold: false },
    ]);
  });

  test("accepts loose spacing inside the brackets", () => {
    expect(parseInline("x [ 4 ,5 ]")).toEqual([
      { kind: "text", text: "x ", bold: false },
      { kind: "cite", numbers: [4, 5], bold: false },
    ]);
  });

  test("leaves brackets that are not number lists alone", () => {
    expect(parseInline("see [above] or [1a] or []")).toEqual([
      { kind: "text", text: "see [above] or [1a] or []", bold: false },
    ]);
  });

  test("renders **bold** spans, including citations inside them", () => {
    expect(parseInline("**Key result [2]** follows")).toEqual([
      { kind: "text", text: "Key result ", bold: true },
      { kind: "cite", numbers: [2], bold: true },
      { kind: "text", text: " follows", bold: false },
    ]);
  });

  test("keeps an unpaired bold marker as literal text", () => {
    expect(parseInline("2 ** 3 is eight")).toEqual([{ kind: "text", text: "2 ** 3 is eight", bold: false }]);
  });
});

describe("parseSummary", () => {
  test("splits paragraphs on blank lines and keeps single line breaks inside a paragraph", () => {
    const blocks = parseSummary("**Background**\nFirst line [1].\n\nSecond paragraph.");
    expect(blocks).toHaveLength(2);
    expect(visible(blocks)).toEqual(["Background\nFirst line [1].", "Second paragraph."]);
    expect(blocks[0]).toEqual({
      kind: "paragraph",
      inlines: [
        { kind: "text", text: "Background", bold: true },
        { kind: "break" },
        { kind: "text", text: "First line ", bold: false },
        { kind: "cite", numbers: [1], bold: false },
        { kind: "text", text: ".", bold: false },
      ],
    });
  });

  test("groups lines starting with '- ' into one bullet list", () => {
    const blocks = parseSummary("Findings:\n- lower mortality [2]\n- fewer strokes [3, 4]\r\nOverall good.");
    expect(blocks.map((b) => b.kind)).toEqual(["paragraph", "list", "paragraph"]);
    expect(visible(blocks)).toEqual(["Findings:", "- lower mortality [2]\n- fewer strokes [3, 4]", "Overall good."]);
  });

  test("a hyphen without a following space is not a bullet", () => {
    expect(parseSummary("-5 degrees")[0]?.kind).toBe("paragraph");
  });

  test("an empty or missing summary has no blocks", () => {
    expect(parseSummary("")).toEqual([]);
    expect(parseSummary(null)).toEqual([]);
    expect(parseSummary("\n \n")).toEqual([]);
  });
});

describe("progressive reveal", () => {
  const blocks = parseSummary("Aspirin reduces risk [1, 2].\n\n- one [3]\n- two");

  test("counts words, spaces and whole citation groups as segments", () => {
    // "Aspirin ", "reduces ", "risk ", [1, 2], "." | "one ", [3] | "two"
    expect(countSegments(blocks)).toBe(8);
  });

  test("shows nothing at zero and everything at the end", () => {
    expect(takeSegments(blocks, 0)).toEqual([]);
    expect(takeSegments(blocks, countSegments(blocks))).toEqual(blocks);
    expect(takeSegments(blocks, 1000)).toEqual(blocks);
  });

  test("reveals word by word and a citation group in one step", () => {
    expect(visible(takeSegments(blocks, 2))).toEqual(["Aspirin reduces "]);
    expect(visible(takeSegments(blocks, 4))).toEqual(["Aspirin reduces risk [1, 2]"]);
    expect(visible(takeSegments(blocks, 6))).toEqual(["Aspirin reduces risk [1, 2].", "- one "]);
    expect(visible(takeSegments(blocks, 7))).toEqual(["Aspirin reduces risk [1, 2].", "- one [3]"]);
  });

  test("never leaves a dangling line break at the edge of the revealed text", () => {
    const two = parseSummary("first\nsecond");
    expect(takeSegments(two, 1)).toEqual([
      { kind: "paragraph", inlines: [{ kind: "text", text: "first", bold: false }] },
    ]);
  });

  test("every step shows a prefix of the next one", () => {
    const total = countSegments(blocks);
    let previous = "";
    for (let n = 0; n <= total; n++) {
      const now = visible(takeSegments(blocks, n)).join("\n\n");
      expect(now.startsWith(previous.trimEnd())).toBe(true);
      previous = now;
    }
  });
});

describe("citedArticle", () => {
  const refs = [{ pmid: "a" }, { pmid: "b" }];

  test("number n is the n-th cited article", () => {
    expect(citedArticle(refs, 1)).toEqual({ pmid: "a" });
    expect(citedArticle(refs, 2)).toEqual({ pmid: "b" });
  });

  test("numbers outside the list are unknown", () => {
    expect(citedArticle(refs, 0)).toBeUndefined();
    expect(citedArticle(refs, 3)).toBeUndefined();
    expect(citedArticle(null, 1)).toBeUndefined();
  });
});
