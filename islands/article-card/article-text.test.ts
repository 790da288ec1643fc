import { describe, expect, test } from "bun:test";
import {
  abstractOf,
  articleLinks,
  authorsOf,
  doiUrl,
  journalOf,
  publicationDateOf,
  pubmedUrl,
  safeHttpUrl,
  titleOf,
} from "./article-text.ts";

describe("article fields", () => {
  test("show the product's texts when a field is missing or blank", () => {
    const bare = { pmid: 1, title: "  ", authors: null, abstract: "" };
    expect(titleOf(bare)).toBe("No Title Available");
    expect(authorsOf(bare)).toBe("Authors N/A");
    expect(abstractOf(bare)).toBe("No abstract available.");
    expect(journalOf(bare)).toBe("Journal N/A");
  });

  test("show the values when present", () => {
    const a = { pmid: 1, title: "Aspirin", authors: "Doe J", abstract: "Text", journal: "Lancet" };
    expect([titleOf(a), authorsOf(a), abstractOf(a), journalOf(a)]).toEqual(["Aspirin", "Doe J", "Text", "Lancet"]);
  });
});

describe("links", () => {
  test("builds the DOI address from a bare DOI, a doi: prefix or an existing resolver address", () => {
    expect(doiUrl("10.1000/xyz123")).toBe("https://doi.org/10.1000/xyz123");
    expect(doiUrl("doi:10.1000/xyz123")).toBe("https://doi.org/10.1000/xyz123");
    expect(doiUrl("https://dx.doi.org/10.1000/xyz123")).toBe("https://doi.org/10.1000/xyz123");
    expect(doiUrl("10.1002/a<b>#1")).toBe("https://doi.org/10.1002/a%3Cb%3E%231");
    expect(doiUrl(null)).toBeNull();
    expect(doiUrl(" ")).toBeNull();
  });

  test("never links to anything but http or https", () => {
    expect(safeHttpUrl("javascript:alert(1)")).toBeNull();
    expect(safeHttpUrl("not a url")).toBeNull();
    expect(safeHttpUrl("https://pmc.example.org/a.pdf")).toBe("https://pmc.example.org/a.pdf");
  });

  test("lists only the links that are present, in the product's order", () => {
    expect(articleLinks({ pmid: 1 })).toEqual([]);
    expect(
      articleLinks({
        pmid: 1,
        doi: "10.1/x",
        full_text_link: "https://a.example/full",
        pdf_free_link: "https://a.example/p.pdf",
      }).map((l) => l.label),
    ).toEqual(["View on DOI", "Full Text Link", "Free PDF Link"]);
    expect(articleLinks({ pmid: 1, pdf_free_link: "https://a.example/p.pdf" })).toEqual([
      { kind: "pdf", label: "Free PDF Link", href: "https://a.example/p.pdf" },
    ]);
  });
});

describe("publication dates as precise as the record", () => {
  test("a month-only or year-only date never shows an invented day", () => {
    expect(
      publicationDateOf({ pmid: 1, publication_date: "1983-06-01", publication_date_precision: "month" }, "en-US"),
    ).toBe("Jun 1983");
    expect(
      publicationDateOf({ pmid: 1, publication_date: "2010-01-01", publication_date_precision: "year" }, "en-US"),
    ).toBe("2010");
    expect(
      publicationDateOf({ pmid: 1, publication_date: "1983-06-05", publication_date_precision: "day" }, "en-US"),
    ).toBe("Jun 5, 1983");
    // Older rows without a precision show the full date, as before.
    expect(publicationDateOf({ pmid: 1, publication_date: "1983-06-05" }, "en-US")).toBe("Jun 5, 1983");
    expect(publicationDateOf({ pmid: 1, publication_date: null }, "en-US")).toBe("N/A");
  });
  test("the PMID links to its PubMed page", () => {
    expect(pubmedUrl("12345678")).toBe("https://pubmed.ncbi.nlm.nih.gov/12345678/");
  });
});
