import type { ReactNode } from "react";
import type { AssetManifest } from "./manifest.ts";

/**
 * Applies the stored theme (localStorage `theme`, spec §1: light or dark, default light) to <html> before the
 * first paint, so a dark-theme user never sees a light flash. Inline because it must run before the stylesheet
 * is applied; it is the only script of pages without islands.
 */
export const THEME_SCRIPT =
  'try{document.documentElement.setAttribute("data-theme",localStorage.getItem("theme")==="dark"?"dark":"light")}catch(e){}';

/** Name shown in the browser tab after each page's title. */
export const APP_NAME = "LitReview";

/**
 * The HTML document of every page: language, viewport, title, the stylesheet, the theme script and, only when the
 * page has islands, the browser entry with modulepreload hints for the chunks those islands need.
 */
export function Document({ title, manifest, scripts, children }: { title: string; manifest: AssetManifest; scripts: string[]; children: ReactNode }) {
  const [entry, ...chunks] = scripts;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} | ${APP_NAME}`}</title>
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
        {manifest.fontPreload ? <link rel="preload" href={manifest.fontPreload} as="font" type="font/woff2" crossOrigin="" /> : null}
        {manifest.css.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {chunks.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
        {entry ? <script type="module" src={entry} /> : null}
      </head>
      <body>{children}</body>
    </html>
  );
}
