import { describe, expect, test } from "bun:test";
import { CONFIG_RULES, type ConfigRole, configWarnings, loadConfig, publicUrlIsSafe, rulesFor } from "./config.ts";

describe("PUBLIC_URL in production", () => {
  test("a plain-HTTP public origin is refused: unsubscribe links must be HTTPS (RFC 8058)", () => {
    expect(() => loadConfig({ NODE_ENV: "production", PUBLIC_URL: "http://litreview.example.org" })).toThrow(
      /PUBLIC_URL: must be an https:\/\/ URL in production/,
    );
  });

  test("https, and http on this machine, are accepted", () => {
    for (const url of [
      "https://litreview.example.org",
      "http://localhost:3000",
      "http://127.0.0.1:8080",
      "http://[::1]:3000",
    ]) {
      expect(loadConfig({ NODE_ENV: "production", PUBLIC_URL: url }).PUBLIC_URL).toBe(url);
    }
  });

  test("outside production any http origin is allowed (development, tests)", () => {
    expect(loadConfig({ NODE_ENV: "development", PUBLIC_URL: "http://dev.internal:3000" }).PUBLIC_URL).toBe(
      "http://dev.internal:3000",
    );
  });

  test("a host that only starts like a loopback name is not loopback", () => {
    expect(publicUrlIsSafe("http://localhost.evil.example")).toBe(false);
    expect(publicUrlIsSafe("http://127.0.0.1.nip.io")).toBe(false);
    expect(publicUrlIsSafe("ftp://localhost")).toBe(false);
  });
});

// The start-up rules across variables (issue 25, item 7): in the schema, held by role, with the messages the server
// printed when they lived in src/server.ts.
describe("start-up rules by role", () => {
  const shared = { DATABASE_URL: "postgres://db/litreview" };
  const key = "k".repeat(40);
  const quiet = (role: ConfigRole) => ({ role, warn: () => {} });

  test("the server and workers refuse a shared database without SECRET_KEY, saying what to set", () => {
    for (const role of ["server", "worker"] as const) {
      expect(() => loadConfig(shared, quiet(role))).toThrow(
        /SECRET_KEY is not set\. With DATABASE_URL every server process must sign access tokens with the same key: set SECRET_KEY to a random value of at least 32 characters/,
      );
    }
  });

  test("with SECRET_KEY, or on the embedded database, the server starts", () => {
    expect(loadConfig({ ...shared, SECRET_KEY: key }, quiet("server")).SECRET_KEY).toBe(key);
    expect(loadConfig({}, quiet("server")).SECRET_KEY).toBeUndefined();
  });

  test("a database-only tool (migrate, outbox) is not asked for a key it never uses", () => {
    expect(loadConfig(shared, quiet("cli")).DATABASE_URL).toBe(shared.DATABASE_URL);
    // The default role is the tools'.
    expect(loadConfig(shared).DATABASE_URL).toBe(shared.DATABASE_URL);
  });

  test("every role refuses a plain-HTTP PUBLIC_URL in production", () => {
    for (const role of ["server", "worker", "cli"] as const) {
      expect(() =>
        loadConfig({ NODE_ENV: "production", PUBLIC_URL: "http://litreview.example.org" }, quiet(role)),
      ).toThrow(/PUBLIC_URL: must be an https:\/\/ URL in production/);
    }
  });

  test("all broken error rules are listed at once", () => {
    const env = { ...shared, NODE_ENV: "production", PUBLIC_URL: "http://litreview.example.org" };
    expect(() => loadConfig(env, quiet("server"))).toThrow(/SECRET_KEY is not set[\s\S]*\n {2}PUBLIC_URL: must be/);
  });

  test("the Stripe key without a webhook secret is a warning of a process that serves HTTP, not a refusal", () => {
    const stripe = { STRIPE_SECRET_KEY: "sk_test_x" };
    const warnings: string[] = [];
    loadConfig(stripe, { role: "server", warn: (l) => warnings.push(l) });
    expect(warnings).toEqual([
      "STRIPE_SECRET_KEY is set without STRIPE_WEBHOOK_SECRET: checkout works, but Stripe's webhook deliveries will be refused, so payments will not be recorded",
    ]);
    // Satisfied: both set. Not concerned: a WORKER=only process, a worker, a tool (no webhook reaches them).
    expect(configWarnings(loadConfig({ ...stripe, STRIPE_WEBHOOK_SECRET: "whsec_x" }), "server")).toEqual([]);
    expect(configWarnings(loadConfig({ ...stripe, WORKER: "only" }), "server")).toEqual([]);
    expect(configWarnings(loadConfig(stripe), "worker")).toEqual([]);
    expect(configWarnings(loadConfig(stripe), "cli")).toEqual([]);
  });

  test("FIRST_SUPERUSER without its password (or the reverse) is reported: no administrator would be created", () => {
    const message =
      "FIRST_SUPERUSER and FIRST_SUPERUSER_PASSWORD go together: with only one of them set, no administrator is created";
    expect(configWarnings(loadConfig({ FIRST_SUPERUSER: "root@litreview.test" }), "server")).toEqual([message]);
    expect(configWarnings(loadConfig({ FIRST_SUPERUSER_PASSWORD: "first-root-pass" }), "worker")).toEqual([message]);
    const both = loadConfig({ FIRST_SUPERUSER: "root@litreview.test", FIRST_SUPERUSER_PASSWORD: "first-root-pass" });
    expect(configWarnings(both, "server")).toEqual([]);
  });

  test("an Elasticsearch API key together with a user is refused by every role: the client would ignore the user", () => {
    const es = { ELASTICSEARCH_URL: "https://es.example.org:9200", ELASTICSEARCH_API_KEY: "aWQ6a2V5" };
    for (const role of ["server", "worker", "cli"] as const) {
      for (const user of [
        { ELASTICSEARCH_USERNAME: "litreview" },
        { ELASTICSEARCH_PASSWORD: "s3cret" },
        { ELASTICSEARCH_URL: "https://litreview:s3cret@es.example.org:9200" },
      ]) {
        expect(() => loadConfig({ ...es, ...user }, quiet(role))).toThrow(
          /ELASTICSEARCH_API_KEY is set together with a user .*: keep one kind of credentials/,
        );
      }
    }
    // One kind at a time starts; credentials of a cluster that is not used refuse nothing.
    expect(loadConfig(es, quiet("server")).ELASTICSEARCH_API_KEY).toBe("aWQ6a2V5");
    const user = { ELASTICSEARCH_URL: es.ELASTICSEARCH_URL, ELASTICSEARCH_USERNAME: "u", ELASTICSEARCH_PASSWORD: "p" };
    expect(loadConfig(user, quiet("server")).ELASTICSEARCH_USERNAME).toBe("u");
    expect(
      loadConfig({ ELASTICSEARCH_API_KEY: "k", ELASTICSEARCH_USERNAME: "u" }, quiet("server")).ELASTICSEARCH_URL,
    ).toBeUndefined();
  });

  test("each rule names its roles; only the tools' rules hold for the default role", () => {
    expect(CONFIG_RULES.map((r) => r.name).sort()).toEqual(
      [
        "elasticsearch-one-credential",
        "first-superuser-pair",
        "public-url-https",
        "shared-secret-key",
        "stripe-webhook-secret",
      ].sort(),
    );
    expect(rulesFor("cli").map((r) => r.name)).toEqual(["public-url-https", "elasticsearch-one-credential"]);
  });
});
