/**
 * Reading an HTTP answer with a byte limit (issue 22: a model answering 50 MB had 292,401 sentences stored and took
 * the server from 145 to 758 MB). The body is read chunk by chunk and the read is cancelled as soon as the limit is
 * passed, so at most `maxBytes` plus one chunk is ever held, whatever the server sends.
 */

/** Thrown when an answer is longer than the limit (declared or as read). */
export class AnswerTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`language model answered more than ${maxBytes} bytes`);
  }
}

/**
 * The body of `res` as UTF-8 text, at most `maxBytes` bytes.
 * @throws AnswerTooLarge when its Content-Length or the bytes read pass `maxBytes` (the rest is not read: the body
 *   is cancelled, which closes the connection)
 */
export async function readCapped(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw new AnswerTooLarge(maxBytes);
  }
  const reader = res.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        break;
      }
      size += value.byteLength;
      if (size > maxBytes) throw new AnswerTooLarge(maxBytes);
      chunks.push(value);
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all);
}
