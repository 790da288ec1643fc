import { errors as esErrors, type Client } from "@elastic/elasticsearch";

/**
 * Bulk writes with the retries a real cluster needs, on `client.bulk` rather than the client's bulk helper:
 * - a whole request refused with 429 (circuit breaker, indexing pressure) or 503 is sent again after a pause that
 *   doubles each time, up to `retries` times (the helper retries only per-document 429s and aborts on these);
 * - documents refused with 429 are sent again in the next round;
 * - what fails for good is returned by id with its status and reason, one entry per action (the helper's drop
 *   callback under-reports deletes, which have no document line);
 * - a delete answered 404 `not_found` is success (the document is gone, as asked), but an
 *   `index_not_found_exception` is a failure: the index itself is missing.
 * Reference: Elasticsearch 9.x "Bulk API" (response items, `require_alias`).
 */

export interface BulkAction {
  op: "index" | "delete";
  id: string;
  /** The document, for "index". */
  doc?: object;
}

export interface BulkFailure {
  id: string;
  op: "index" | "delete";
  status: number;
  reason: string;
}

export interface BulkOptions {
  /** Rounds after the first (whole-request and per-document 429s), default 3. */
  retries: number;
  /** Pause before the first retry, doubled each round (ms). */
  waitMs: number;
  /** Writes must target an alias (a missing alias fails instead of auto-creating an index of that name). */
  requireAlias: boolean;
  /** The pause; injected by tests. */
  sleep?: (ms: number) => Promise<void>;
}

const RETRYABLE = new Set([429, 503]);
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface BulkItem {
  status: number;
  result?: string;
  error?: { type?: string; reason?: string };
}

/**
 * Sends `actions` to `index` and returns the actions that could not be applied.
 * @throws the client's error for anything that is not a retryable status (401, 400, a connection failure), so the
 *   caller reports it as such.
 */
export async function bulkWrite(
  client: Client,
  index: string,
  actions: readonly BulkAction[],
  opts: BulkOptions,
): Promise<BulkFailure[]> {
  const sleep = opts.sleep ?? defaultSleep;
  const failures: BulkFailure[] = [];
  let pending = [...actions];
  for (let round = 0; pending.length > 0; round++) {
    const last = round >= opts.retries;
    let items: { [op: string]: BulkItem }[];
    try {
      const operations = pending.flatMap((a) =>
        a.op === "index"
          ? [{ index: { _index: index, _id: a.id } }, a.doc ?? {}]
          : [{ delete: { _index: index, _id: a.id } }],
      );
      const res = await client.bulk({ operations, ...(opts.requireAlias ? { require_alias: true } : {}) });
      items = res.items as unknown as { [op: string]: BulkItem }[];
    } catch (err) {
      const status = err instanceof esErrors.ResponseError ? err.statusCode : undefined;
      if (status === undefined || !RETRYABLE.has(status)) throw err;
      if (last) {
        for (const a of pending)
          failures.push({
            id: a.id,
            op: a.op,
            status,
            reason: `the whole request was refused (${status}) after ${round + 1} attempts`,
          });
        break;
      }
      await sleep(opts.waitMs * 2 ** round);
      continue;
    }
    const retry: BulkAction[] = [];
    pending.forEach((action, i) => {
      const item = items[i]?.[action.op];
      if (!item) {
        failures.push({ id: action.id, op: action.op, status: 0, reason: "no answer for this action" });
        return;
      }
      if (item.status >= 200 && item.status < 300) return;
      if (action.op === "delete" && item.status === 404 && item.error === undefined) return;
      if (item.status === 429 && !last) {
        retry.push(action);
        return;
      }
      failures.push({
        id: action.id,
        op: action.op,
        status: item.status,
        reason: item.error?.reason ?? item.error?.type ?? item.result ?? "refused",
      });
    });
    pending = retry;
    if (pending.length > 0) await sleep(opts.waitMs * 2 ** round);
  }
  return failures;
}
