import { expect, spyOn, test } from "bun:test";
import { Hono } from "hono";
import { useId } from "react";
import { Island } from "./island.tsx";
import { renderPage } from "./render.tsx";

// The server side of the islands protocol, rendered through renderPage as the routes do.

function Labelled({ label }: { label: string }) {
  const id = useId();
  return (
    <label htmlFor={id}>
      {label}
      <input id={id} />
    </label>
  );
}

function Broken(): never {
  throw new Error("boom");
}

const page = (body: React.ReactNode, islands: ("LoginForm" | "SignupForm")[]) =>
  new Hono().get("/", (c) => renderPage(c, { title: "Test", islands, body })).request("/");

test("each island is its own root: ids carry the island's prefix, so two islands never share an id", async () => {
  const res = await page(
    <>
      <Island name="LoginForm" component={Labelled} props={{ label: "First" }} />
      <Island name="SignupForm" component={Labelled} props={{ label: "Second" }} />
    </>,
    ["LoginForm", "SignupForm"],
  );
  const html = await res.text();
  const prefixes = [...html.matchAll(/data-island-id="([^"]+)"/g)].map((m) => m[1] ?? "");
  const ids = [...html.matchAll(/<input id="([^"]+)"/g)].map((m) => m[1] ?? "");
  expect(prefixes).toHaveLength(2);
  expect(new Set(prefixes).size).toBe(2);
  expect(ids).toHaveLength(2);
  // React writes useId values as `_<identifierPrefix>R_…_`; the browser hydrates with the same prefix.
  for (const [i, id] of ids.entries()) expect(id).toStartWith(`_${prefixes[i]}R`);
  expect(new Set(ids).size).toBe(2);
});

test("an island that fails on the server leaves the rest of the page intact and is marked for a browser render", async () => {
  const logged = spyOn(console, "error").mockImplementation(() => {});
  try {
    const res = await page(
      <main>
        <h1>Still here</h1>
        <Island name="LoginForm" component={Broken} props={{}} />
      </main>,
      ["LoginForm"],
    );
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("<h1>Still here</h1>");
    expect(html).toMatch(/data-island="LoginForm"[^>]*data-ssr="failed"/);
    expect(logged).toHaveBeenCalled();
  } finally {
    logged.mockRestore();
  }
});

test("an island the page did not declare is refused, so its scripts can never be missing", async () => {
  const logged = spyOn(console, "error").mockImplementation(() => {});
  try {
    const res = await new Hono()
      .get("/", (c) =>
        renderPage(c, {
          title: "Test",
          islands: [],
          body: <Island name="LoginForm" component={Labelled} props={{ label: "x" }} />,
        }),
      )
      .onError((err, c) => c.text(err.message, 500))
      .request("/");
    expect(res.status).toBe(500);
    expect(await res.text()).toContain("not declared");
  } finally {
    logged.mockRestore();
  }
});
