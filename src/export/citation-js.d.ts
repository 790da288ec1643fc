// Citation.js ships no type declarations; the adapter uses this much of it (src/export/formats.ts).
declare module "@citation-js/core" {
  export class Cite {
    constructor(data: unknown);
    data: Record<string, unknown>[];
    format(format: string, options?: Record<string, unknown>): string | unknown;
  }
}
declare module "@citation-js/plugin-ris";
declare module "@citation-js/plugin-bibtex";
declare module "@citation-js/plugin-csl";
