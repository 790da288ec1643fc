import { errors as esErrors, type Client, type estypes } from "@elastic/elasticsearch";

/**
 * Bulk writes with the retries a real cluster needs, on `client.bulk` rather than the client's bulk helper:
 * - one backoff policy: a whole request refused with 429 (circuit breaker, indexing pressure), 502, 503 or 504, or
 *   lost to a connection error, is sent again after a pause that doubles each time, up to `retries` times, so a bulk
 *   goes out at most `retries + 1` times. The client's own retries are off for it (`maxRetries: 0`): inside each of
 *   these rounds they would resend a 502/503/504 at once, without a pause, up to 3 times (a connection error too,
 *   after a jittered pause of up to 4 s), marking the node dead each time (@elastic/transport's Transport.request),
 *   so that one bulk could be sent (3 + 1) × (3 + 1) = 16 times. A time-out is not retried, as the client does not
 *   retry one either: the cluster may still be applying that bulk. (The bulk helper retries only per-document 429s
 *   and aborts on the others);
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
  /** The HTTP status refusing it (0: the cluster could not be reached). */
  status: number;
  reason: string;
}

export interface BulkOptions {
  /** Rounds after the first (whole-request refusals and connection errors, per-document 429s), default 3. */
  retries: number;
  /** Pause before the first retry, doubled each round (ms). */
  waitMs: number;
  /** Writes must target an alias (a missing alias fails instead of auto-creating an index of that name). */
  requireAlias: boolean;
  /** The pause; injected by tests. */
  sleep?: (ms: number) => Promise<void>;
}

/** Whole-request statuses sent again: the client's own rule (502, 503, 504) and a cluster pushing back (429). */
const RETRYABLE = new Set([429, 502, 503, 504]);
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Why a whole request may be sent again (its status, 0 for a connection error), or undefined when it may not. */
function retryableStatus(err: unknown): number | undefined {
  if (err instanceof esErrors.ConnectionError) return 0;
  if (err instanceof esErrors.ResponseError && err.statusCode !== undefined && RETRYABLE.has(err.statusCode))
    return err.statusCode;
  return undefined;
}

/**
 * Sends `actions` to `index` and returns the actions that could not be applied.
 * @throws the client's error for anything that is not retryable (401, 400, a time-out), so the caller reports it as
 *   such.
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
    let items: estypes.BulkResponse["items"];
    try {
      const operations: estypes.BulkRequest<object>["operations"] = pending.flatMap((a) =>
        a.op === "index"
          ? [{ index: { _index: index, _id: a.id } }, a.doc ?? {}]
          : [{ delete: { _index: index, _id: a.id } }],
      );
      const res = await client.bulk(
        { operations, ...(opts.requireAlias ? { require_alias: true } : {}) },
        { maxRetries: 0 },
      );
      items = res.items;
    } catch (err) {
      const status = retryableStatus(err);
      if (status === undefined) throw err;
      if (last) {
        const what = status === 0 ? "the cluster could not be reached" : `the whole request was refused (${status})`;
        for (const a of pending)
          failures.push({ id: a.id, op: a.op, status, reason: `${what} after ${round + 1} attempts` });
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
