/**
 * The one rule for text that reaches the API, whatever the endpoint or field: no control characters.
 *
 * - U+0000 (NUL) cannot be stored in a PostgreSQL text value at all (the server refuses it, which used to surface
 *   as a 500).
 * - The other C0 controls but tab, line feed and carriage return, DEL and the C1 controls (U+0080–U+009F) never
 *   belong in a name, an address, a topic or a password; they are refused rather than silently stripped, so that
 *   what is stored is exactly what was sent.
 * - A lone UTF-16 surrogate (JSON can spell one as "\ud800") is not a character: it cannot be encoded as UTF-8.
 *
 * Tab, line feed and carriage return are allowed: they occur in pasted text and are harmless.
 */

/** Message of the 422 issue for a field holding a refused character. */
export const CONTROL_CHARACTER_MESSAGE = "Must not contain control characters or invalid Unicode";

// C0 controls except \t \n \r; DEL and C1; unpaired surrogates (a high one not followed by a low one, or a low one
// not preceded by a high one).
const REFUSED =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a string holds a character the API refuses (see the module comment). */
export function hasRefusedCharacter(text: string): boolean {
  return REFUSED.test(text);
}

/**
 * Finds every string inside `value` (a parsed query, path, form or JSON body: strings, arrays, plain objects) that
 * holds a refused character, and returns their paths, e.g. `[["user_query"], ["items", 2, "name"]]`. Object keys
 * are checked too (a key with NUL is reported at its own path).
 */
export function refusedTextPaths(
  value: unknown,
  path: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  if (typeof value === "string") {
    if (hasRefusedCharacter(value)) out.push(path);
  } else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) refusedTextPaths(v, [...path, i], out);
  } else if (value !== null && typeof value === "object" && !(value instanceof Date) && !(value instanceof Blob)) {
    for (const [k, v] of Object.entries(value)) {
      if (hasRefusedCharacter(k)) out.push([...path, k]);
      else refusedTextPaths(v, [...path, k], out);
    }
  }
  return out;
}
