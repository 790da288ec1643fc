// compose.yaml's health checks run as the containers' shells run them (issue 23, finding 1): an unquoted "&" in the
// Elasticsearch check once sent curl to the background, so the check reported the status of "timeout=5s" (always 0)
// and the node was "healthy" before it listened. Here the CMD-SHELL line runs in dash/sh with a curl that fails, and
// with one that succeeds.
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const compose = Bun.YAML.parse(readFileSync(join(import.meta.dir, "..", "..", "compose.yaml"), "utf8")) as {
  services: Record<
    string,
    { healthcheck?: { test: string[]; start_period?: string }; image?: string; restart?: string }
  >;
};

/** Runs a CMD-SHELL health check with a fake curl that exits `curlStatus` and records its arguments. */
async function runCheck(line: string, curlStatus: number): Promise<{ status: number; curlArgs: string }> {
  const dir = mkdtempSync(join(tmpdir(), "healthcheck-"));
  const log = join(dir, "curl.args");
  writeFileSync(join(dir, "curl"), `#!/bin/sh\nprintf '%s\\n' "$@" > "${log}"\nexit ${curlStatus}\n`);
  chmodSync(join(dir, "curl"), 0o755);
  // Compose turns "$$" into "$" before the shell sees the line.
  const proc = Bun.spawn(["sh", "-c", line.replaceAll("$$", "$")], {
    env: { PATH: `${dir}:/usr/bin:/bin`, ELASTIC_PASSWORD: "p&ss word" },
    stdout: "ignore",
    stderr: "ignore",
  });
  const status = await proc.exited;
  await Bun.sleep(50);
  let curlArgs = "";
  try {
    curlArgs = readFileSync(log, "utf8");
  } catch {
    curlArgs = "";
  }
  return { status, curlArgs };
}

describe("compose.yaml", () => {
  const es = compose.services.elasticsearch!;
  const line = es.healthcheck!.test[1]!;

  test("the Elasticsearch health check fails when curl fails, and passes when it succeeds", async () => {
    expect(es.healthcheck!.test[0]).toBe("CMD-SHELL");
    expect((await runCheck(line, 7)).status).not.toBe(0);
    expect((await runCheck(line, 22)).status).not.toBe(0);
    expect((await runCheck(line, 0)).status).toBe(0);
  });

  test("curl gets the whole URL, wait_for_status and timeout included, and the password as one argument", async () => {
    const { curlArgs } = await runCheck(line, 0);
    expect(curlArgs).toContain("http://127.0.0.1:9200/_cluster/health?wait_for_status=yellow&timeout=5s\n");
    expect(curlArgs).toContain("elastic:p&ss word\n");
  });

  test("the node has time to start, search-init retries, and the server's minor version matches the client's", () => {
    expect(es.healthcheck!.start_period).toBeDefined();
    expect(compose.services["search-init"]!.restart).toMatch(/^on-failure/);
    const client = (
      JSON.parse(readFileSync(join(import.meta.dir, "..", "..", "package.json"), "utf8")) as {
        dependencies: Record<string, string>;
      }
    ).dependencies["@elastic/elasticsearch"]!;
    const minor = (v: string) => /(\d+)\.(\d+)/.exec(v)!.slice(1, 3).join(".");
    expect(minor(es.image!)).toBe(minor(client));
  });
});
