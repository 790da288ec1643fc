import { readFileSync } from "node:fs";
import type { ReactNode } from "react";
import type { AssetManifest } from "./manifest.ts";
import { CookieBanner } from "./consent.tsx";

/**
 * The inline script of every page (src/pages/page-script.js, minified once at start-up): applies the stored theme
 * (localStorage `theme`, docs/product.md §1: light or dark, default light) and the cookie-consent state to <html>
 * before the first paint, so a dark-theme user never sees a light flash and the banner never flickers, and handles the
 * theme toggle and the consent controls. Inline because it must run before the stylesheet is applied; it is the only
 * script of pages without islands, and it carries the request's CSP nonce.
 */
export const PAGE_SCRIPT = new Bun.Transpiler({ loader: "js", minifyWhitespace: true })
  .transformSync(readFileSync(new URL("./page-script.js", import.meta.url), "utf8"))
  .trim();

/** Name shown in the browser tab after each page's title. */
export const APP_NAME = "LitReview";

/**
 * The HTML document of every page: language, viewport, title, the inline page script (with `nonce`), the
 * stylesheet, the cookie banner and, only when the page has islands, the browser entry with modulepreload hints
 * for the chunks those islands need.
 */
export function Document({
  title,
  manifest,
  scripts,
  nonce,
  children,
}: {
  title: string;
  manifest: AssetManifest;
  scripts: string[];
  /** The CSP nonce of this response (src/http/security.ts); without it the inline script would be blocked. */
  nonce?: string;
  children: ReactNode;
}) {
  const [entry, ...chunks] = scripts;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <title>{`${title} | ${APP_NAME}`}</title>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script, under the CSP nonce */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: PAGE_SCRIPT }} />
        {manifest.fontPreload ? (
          <link rel="preload" href={manifest.fontPreload} as="font" type="font/woff2" crossOrigin="" />
        ) : null}
        {manifest.css.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {chunks.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
        {entry ? <script type="module" src={entry} /> : null}
      </head>
      <body>
        <CookieBanner />
        {children}
      </body>
    </html>
  );
}
