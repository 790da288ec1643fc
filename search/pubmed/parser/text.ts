/**
 * Texts of the document as the parser keeps them. The tokenizer runs over "byte strings" (each char one byte of
 * UTF-8, as `Buffer#toString("latin1")` gives; see read.ts for why), so a text that is kept is turned back into
 * ordinary text here, once, and only then.
 */
import { decodeXML } from "entities/decode";

/** XML white space (S production of XML 1.0), collapsed to one space; other Unicode spaces are content and stay. */
const XML_SPACE = /[ \t\r\n]+/g;
/** Anything `clean` has to act on: a byte outside printable ASCII, "&", two spaces, a space at either end. */
const NEEDS_CLEANING = /[^\x20-\x25\x27-\x7E]| {2}|^ | $/;
/** C0 controls other than tab, LF and CR (not XML 1.0 characters; see the Char production). */
const NOT_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;

/** Byte string (one char per byte) of UTF-8 → the text it encodes. */
function utf8(bytes: string): string {
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** Unicode text → byte string of its UTF-8 encoding, the form the parser reads. */
export function toByteString(text: string): string {
  return Buffer.from(text, "utf8").toString("latin1");
}

/**
 * A kept text as stored: UTF-8 decoded, entity and character references resolved (by the `entities` library, the one
 * htmlparser2 itself uses), XML white space collapsed and trimmed.
 * Most kept texts are one clean ASCII line, so one scan decides which of those steps are needed at all.
 * @param bytes byte string (see the module comment).
 */
export function clean(bytes: string): string {
  // Fast path, taken by most names, MeSH terms, dates and ids: printable ASCII without "&" or doubled/edge spaces.
  if (!NEEDS_CLEANING.test(bytes)) return bytes;
  const n = bytes.length;
  let wide = false;
  let entity = false;
  let control = false;
  let space = bytes.charCodeAt(0) <= 32 || bytes.charCodeAt(n - 1) <= 32;
  for (let i = 0; i < n; i++) {
    const c = bytes.charCodeAt(i);
    if (c >= 0x80) wide = true;
    else if (c === 38) entity = true;
    else if (c === 10 || c === 13 || c === 9 || (c === 32 && bytes.charCodeAt(i + 1) === 32)) space = true;
    else if (c < 32) control = true;
  }
  // UTF-8 first: references are ASCII and survive it, while a character a reference produces would not.
  let text = wide ? utf8(bytes) : bytes;
  if (entity) text = decodeXML(text);
  // Control characters are not allowed in XML text, and PostgreSQL cannot store U+0000: a damaged file must not make
  // a record impossible to store.
  if (control || entity) text = text.replace(NOT_XML_CHARS, "");
  return space || entity ? text.replace(XML_SPACE, " ").trim() : text;
}
