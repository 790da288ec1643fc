import { describe, expect, test } from "bun:test";
import { startSchedules } from "./schedule.ts";
import type { AppDeps } from "../deps.ts";

const deps = {} as AppDeps;

describe("schedules", () => {
  test("a schedule fires on its cron pattern (UTC) and its errors do not stop it", async () => {
    let runs = 0;
    const fired = Promise.withResolvers<void>();
    const scheduler = startSchedules(deps, [
      {
        name: "every-second",
        cron: "* * * * * *",
        run: async () => {
          runs++;
          if (runs === 1) throw new Error("first run fails");
          fired.resolve();
        },
      },
    ]);
    const origError = console.error;
    console.error = () => {};
    try {
      await fired.promise;
    } finally {
      console.error = origError;
      scheduler.stop();
    }
    expect(runs).toBe(2);
  }, 5_000);

  test("the next run of a weekly pattern is reported in UTC", () => {
    const scheduler = startSchedules(deps, [{ name: "weekly", cron: "0 6 * * 1", run: async () => {} }]);
    const next = scheduler.nextRuns().weekly!;
    scheduler.stop();
    expect(next.getUTCDay()).toBe(1);
    expect(next.getUTCHours()).toBe(6);
    expect(next.getUTCMinutes()).toBe(0);
  });

  test("an invalid pattern is refused at start", () => {
    expect(() => startSchedules(deps, [{ name: "bad", cron: "not a cron", run: async () => {} }])).toThrow();
  });
});
