// Citation.js ships no type declarations; the adapter uses this much of it (src/export/vancouver.ts; the tests read
// files back with it).
declare module "@citation-js/core" {
  export class Cite {
    constructor(data: unknown);
    data: Record<string, unknown>[];
    format(format: string, options?: Record<string, unknown>): string | unknown;
  }
  /** The plugins' settings: `plugins.config.get("@csl").styles` is the register of CSL styles. */
  export const plugins: { config: { get(plugin: string): Record<string, unknown> } };
}
declare module "@citation-js/plugin-ris";
declare module "@citation-js/plugin-bibtex";
declare module "@citation-js/plugin-csl";
