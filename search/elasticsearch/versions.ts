import type { Client } from "@elastic/elasticsearch";
import { indexDefinition, servingSettings, type IndexLayout } from "./mapping.ts";

/**
 * Index versions behind an alias (`<alias>-v1`, `<alias>-v2`, …): the next version's name, and the swap that points
 * the alias at a new version in one `_aliases` request.
 */

/** Thrown when the alias swap did not apply in full; the old versions are kept, the alias as the cluster left it. */
export class AliasSwapError extends Error {}

/** The name of the next version: one past the highest existing `<alias>-vN`. */
export async function nextVersionName(client: Client, alias: string): Promise<string> {
  const existing = Object.keys(
    await client.indices.get({ index: `${alias}-v*`, allow_no_indices: true, ignore_unavailable: true }),
  );
  const next = Math.max(0, ...existing.map((n) => Number(/-v(\d+)$/.exec(n)?.[1] ?? 0))) + 1;
  return `${alias}-v${next}`;
}

/** Creates a version set up for a bulk load (no replicas, no refresh). */
export async function createVersion(client: Client, index: string, layout: IndexLayout): Promise<void> {
  await client.indices.create({ index, ...indexDefinition(layout) } as never);
}

/**
 * Gives a loaded version its serving settings (replicas, refresh), refreshes it and waits until its primaries are
 * allocated (yellow; replicas are copied in the background while it serves).
 */
export async function readyToServe(client: Client, index: string, layout: IndexLayout): Promise<void> {
  await client.indices.putSettings({ index, settings: servingSettings(layout) });
  await client.indices.refresh({ index });
  await client.cluster.health({ index, wait_for_status: "yellow", timeout: "60s" });
}

/**
 * Points `alias` at `index` alone, in one atomic request: each old index's removal must exist (`must_exist`), and the
 * answer is checked (Elasticsearch applies the other actions and reports `errors: true` when one fails).
 * @throws AliasSwapError when the cluster did not acknowledge every action.
 */
export async function swapAlias(client: Client, alias: string, index: string, old: readonly string[]): Promise<void> {
  const res = (await client.indices.updateAliases({
    actions: [
      ...old.map((o) => ({ remove: { index: o, alias, must_exist: true } })),
      { add: { index, alias, is_write_index: true } },
    ],
  })) as {
    acknowledged?: boolean;
    errors?: boolean;
    action_results?: { status: number; error?: { reason?: string } }[];
  };
  if (res.acknowledged !== true || res.errors === true) {
    const reasons = (res.action_results ?? [])
      .filter((r) => r.status >= 300)
      .map((r) => r.error?.reason ?? String(r.status));
    throw new AliasSwapError(
      `The alias ${alias} was not moved to ${index} in full (${reasons.join("; ") || "not acknowledged"}); the old versions are kept. Check GET _alias/${alias} before reindexing again.`,
    );
  }
}
