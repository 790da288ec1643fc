/**
 * What the cluster may wait for server-side, and the client request timeouts that cover it.
 *
 * The client gives up on any request after its `requestTimeout` (ELASTICSEARCH_REQUEST_TIMEOUT_MS, default 30 s) and
 * does not retry a time-out (@elastic/transport's Transport.request: `retryOnTimeout` is false by default), so a call
 * that asks the cluster to wait longer than that ends in a TimeoutError before the cluster's own answer (a 408 from
 * `_cluster/health`, `shards_acknowledged: false` from index creation) arrives. Each waiting call therefore passes its
 * server-side limits explicitly and a request timeout of their sum plus a margin (or the configured one, if longer).
 *
 * Limits (Elasticsearch 9.x REST API reference; both default to 30 s where not given):
 * - `master_timeout`: how long a call that needs the elected master waits to reach it;
 * - `timeout`: how long it waits for the nodes' acknowledgement of the change, and for index creation again for the
 *   new index's primaries to start (`wait_for_active_shards`, default 1); for `_cluster/health`, how long it waits
 *   for the `wait_for_*` conditions;
 * - a refresh has no server-side limit: it ends when every shard has written its indexing buffer as a segment.
 */

/** The `master_timeout` we send (Elasticsearch's default, made explicit so that the sum below holds). */
export const MASTER_TIMEOUT_S = 30;
/** The acknowledgement `timeout` we send with changes (index creation, settings, aliases, deletion). */
export const ACK_TIMEOUT_S = 30;
/** How long readiness waits for the new version's primaries to be allocated (cluster health `timeout`). */
export const HEALTH_WAIT_S = 60;
/**
 * The request timeout of a refresh, which the cluster does not bound itself: long enough that only a stuck cluster
 * ends a reindex or a baseline load here (writing one full indexing buffer, 10% of the heap by default, takes seconds),
 * short enough that a stuck one does not hang it for good.
 */
export const REFRESH_TIMEOUT_MS = 5 * 60_000;
/** Added to a server-side limit: the answer's way back, a busy node's queue. */
const MARGIN_MS = 10_000;

/** The server-side limits to send with a change, in Elasticsearch's duration syntax. */
export const CHANGE_LIMITS = { master_timeout: `${MASTER_TIMEOUT_S}s`, timeout: `${ACK_TIMEOUT_S}s` } as const;

/**
 * The request timeout (ms) covering server-side waits of `waitsS` seconds in sequence, never shorter than the
 * client's own `clientMs`.
 */
export function covering(clientMs: number, ...waitsS: number[]): number {
  return Math.max(clientMs, waitsS.reduce((sum, s) => sum + s * 1000, 0) + MARGIN_MS);
}

/** Request timeouts (ms) of the calls that wait, for a client whose own timeout is `clientMs`. */
export function waitTimeouts(clientMs: number) {
  return {
    /** Index creation: the master, the acknowledgement, then the primaries (each within `timeout`). */
    create: covering(clientMs, MASTER_TIMEOUT_S, ACK_TIMEOUT_S, ACK_TIMEOUT_S),
    /** A settings, alias or deletion change: the master, then the acknowledgement. */
    change: covering(clientMs, MASTER_TIMEOUT_S, ACK_TIMEOUT_S),
    /** Cluster health with `wait_for_status`: the master, then the wait. */
    health: covering(clientMs, MASTER_TIMEOUT_S, HEALTH_WAIT_S),
    refresh: Math.max(clientMs, REFRESH_TIMEOUT_MS),
  };
}
