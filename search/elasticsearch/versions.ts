import { errors as esErrors, type Client, type estypes } from "@elastic/elasticsearch";
import { indexDefinition, servingSettings, type IndexLayout } from "./mapping.ts";
import { CHANGE_LIMITS, HEALTH_WAIT_S, MASTER_TIMEOUT_S, waitTimeouts } from "./waits.ts";

/**
 * Index versions behind an alias (`<alias>-v1`, `<alias>-v2`, …): the next version's name, its creation, its readiness
 * to serve, and the swap that points the alias at it in one `_aliases` request. Every call that waits server-side
 * passes its limits and a request timeout covering them (waits.ts); `clientMs` is the client's own request timeout.
 */

/** Thrown when the alias was not moved (or not surely): the old versions are kept, the alias as the cluster left it. */
export class AliasSwapError extends Error {}

/** Thrown when a new version's primaries were not allocated in time; the alias was not touched. */
export class VersionNotReadyError extends Error {}

/** The name of the next version: one past the highest existing `<alias>-vN`. */
export async function nextVersionName(client: Client, alias: string): Promise<string> {
  const existing = Object.keys(
    await client.indices.get({ index: `${alias}-v*`, allow_no_indices: true, ignore_unavailable: true }),
  );
  const next = Math.max(0, ...existing.map((n) => Number(/-v(\d+)$/.exec(n)?.[1] ?? 0))) + 1;
  return `${alias}-v${next}`;
}

/**
 * Creates a version set up for a bulk load (no replicas, no refresh). The cluster answers once its primaries started
 * or its `timeout` passed (`shards_acknowledged: false`); in the second case readiness is awaited as after a load.
 * @throws VersionNotReadyError when the primaries are still not allocated then.
 */
export async function createVersion(client: Client, index: string, layout: IndexLayout, clientMs: number) {
  const res = await client.indices.create(
    { index, ...indexDefinition(layout), ...CHANGE_LIMITS },
    { requestTimeout: waitTimeouts(clientMs).create },
  );
  if (!res.shards_acknowledged) await waitForPrimaries(client, index, clientMs);
}

/**
 * Gives a loaded version its serving settings (replicas, the default refresh interval), refreshes it and waits until
 * its primaries are allocated (yellow; replicas are copied in the background while it serves).
 * @throws VersionNotReadyError when they are not within HEALTH_WAIT_S.
 */
export async function readyToServe(client: Client, index: string, layout: IndexLayout, clientMs: number) {
  const timeouts = waitTimeouts(clientMs);
  await client.indices.putSettings(
    { index, settings: servingSettings(layout), ...CHANGE_LIMITS },
    { requestTimeout: timeouts.change },
  );
  await client.indices.refresh({ index }, { requestTimeout: timeouts.refresh });
  await waitForPrimaries(client, index, clientMs);
}

/**
 * Waits (server-side, up to HEALTH_WAIT_S) until `index` is at least yellow. The cluster answers 408 with
 * `timed_out: true` when it is not by then (ClusterHealthResponse.status()); that answer is read, not thrown.
 * @throws VersionNotReadyError saying what to look at.
 */
async function waitForPrimaries(client: Client, index: string, clientMs: number): Promise<void> {
  const health = await client.cluster.health(
    { index, wait_for_status: "yellow", timeout: `${HEALTH_WAIT_S}s`, master_timeout: `${MASTER_TIMEOUT_S}s` },
    { requestTimeout: waitTimeouts(clientMs).health, ignore: [408] },
  );
  if (health.timed_out) {
    throw new VersionNotReadyError(
      `The new index ${index} was not ready to serve within ${HEALTH_WAIT_S} s (status ${health.status}, ${health.unassigned_primary_shards} primary shards unassigned), so the alias was not moved. GET _cluster/allocation/explain says why; delete ${index}, then run npm run search:reindex again.`,
    );
  }
}

/** "type: reason" of an error answer. */
function describeError(body: estypes.ErrorResponseBase | undefined): string {
  const cause = body?.error;
  return cause ? `${cause.type}: ${cause.reason ?? "no reason given"}` : "not found";
}

/**
 * Points `alias` at `index` alone, in one atomic request. Each old version's removal must exist (`must_exist`): when
 * another process moved the alias or deleted a version since `old` was read, the cluster refuses the WHOLE request
 * (404 `aliases_not_found_exception` or `index_not_found_exception`, nothing applied; Elasticsearch 8.14+ reports
 * per-action `action_results` only for removals without `must_exist`, which this request never sends). An answer
 * with `acknowledged: false` means the change was published but not every node confirmed it within the `timeout`.
 * @throws AliasSwapError in both cases, saying what to check; the caller then keeps the old versions.
 */
export async function swapAlias(
  client: Client,
  alias: string,
  index: string,
  old: readonly string[],
  clientMs: number,
): Promise<void> {
  let res: estypes.IndicesUpdateAliasesResponse;
  try {
    res = await client.indices.updateAliases(
      {
        actions: [
          ...old.map((o) => ({ remove: { index: o, alias, must_exist: true } })),
          { add: { index, alias, is_write_index: true } },
        ],
        ...CHANGE_LIMITS,
      },
      { requestTimeout: waitTimeouts(clientMs).change },
    );
  } catch (err) {
    if (err instanceof esErrors.ResponseError && err.statusCode === 404) {
      const body: estypes.ErrorResponseBase | undefined = err.body;
      throw new AliasSwapError(
        `The alias ${alias} was not moved to ${index} (${describeError(body)}): nothing was changed and the old versions are kept. Another reindex may have moved the alias or deleted a version meanwhile: check GET _alias/${alias}, delete ${index} if nothing points at it, and run npm run search:reindex again.`,
        { cause: err },
      );
    }
    throw err;
  }
  if (!res.acknowledged) {
    throw new AliasSwapError(
      `The move of the alias ${alias} to ${index} was not acknowledged by every node within ${CHANGE_LIMITS.timeout}: it applies late, so the old versions are kept. Check GET _alias/${alias}, then delete the versions it no longer points at.`,
    );
  }
}

/** Deletes old versions (after a swap). */
export async function deleteVersions(client: Client, indices: readonly string[], clientMs: number): Promise<void> {
  for (const index of indices)
    await client.indices.delete({ index, ...CHANGE_LIMITS }, { requestTimeout: waitTimeouts(clientMs).change });
}
