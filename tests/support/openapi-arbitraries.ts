import fc from "fast-check";

/**
 * fast-check arbitraries built from the OpenAPI 3.1 document the API serves, for the property-based API test: a
 * value valid for a parameter's or a body's JSON Schema, and nearby invalid values (wrong types, missing required
 * fields, out-of-range numbers, control characters, long strings).
 */

/** The part of JSON Schema (as @asteasolutions/zod-to-openapi writes it) that the generator reads. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
  example?: unknown;
}

/** The components a `$ref` may point to. */
export type Components = { schemas?: Record<string, JsonSchema> };

function resolve(schema: JsonSchema, components: Components): JsonSchema {
  let s = schema;
  for (let depth = 0; s.$ref && depth < 10; depth++) {
    const name = s.$ref.replace("#/components/schemas/", "");
    s = components.schemas?.[name] ?? {};
  }
  return s;
}

/** Strings that break naive handling: control characters, lone surrogates, SQL and markup, long and empty ones. */
export const nastyString = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "a\u0000b",
    "\u0007\u001b[31m",
    "\ud800",
    "\udfff",
    "%00",
    "'; DROP TABLE users; --",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "\u202e",
    "null",
    "-1",
    "1e309",
  ),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ minLength: 300, maxLength: 3000 }),
);

/** A value valid for `schema` (as far as JSON Schema can say: zod refinements may still refuse it). */
export function validValue(schema: JsonSchema, components: Components, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema, components);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const variants = s.anyOf ?? s.oneOf;
  if (variants) return fc.oneof(...variants.map((v) => validValue(v, components, depth + 1)));
  if (s.allOf?.length) return validValue(s.allOf[0]!, components, depth + 1);
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : ["string"];
  return fc.oneof(...types.map((t) => validOfType(t, s, components, depth)));
}

function validOfType(type: string, s: JsonSchema, components: Components, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer": {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1000);
      const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 100_000);
      return fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31 - 1) });
    }
    case "number":
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true });
    case "array":
      return depth > 3 ? fc.constant([]) : fc.array(validValue(s.items ?? {}, components, depth + 1), { maxLength: 4 });
    case "object": {
      if (depth > 3 || !s.properties) return fc.constant({});
      const required = new Set(s.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(s.properties)) record[k] = validValue(v, components, depth + 1);
      return fc.record(record, { requiredKeys: [...required].filter((k) => k in record) });
    }
    default:
      return validString(s);
  }
}

function validString(s: JsonSchema): fc.Arbitrary<string> {
  const minLength = s.minLength ?? 0;
  const maxLength = Math.min(s.maxLength ?? 60, 200);
  switch (s.format) {
    case "email":
      return fc.emailAddress();
    case "uuid":
      return fc.uuid();
    case "date-time":
      return fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString());
    case "password":
      return fc.string({ minLength: Math.max(8, minLength), maxLength: Math.max(8, maxLength) });
    default: {
      const examples = typeof s.example === "string" ? [fc.constant(s.example)] : [];
      return fc.oneof(...examples, fc.string({ minLength, maxLength: Math.max(minLength, maxLength) }));
    }
  }
}

/**
 * A value for `schema` that is valid about half the time and otherwise wrong in one of the ways clients get it
 * wrong: any JSON value instead, a nasty string, a field dropped or replaced.
 */
export function anyValue(schema: JsonSchema, components: Components): fc.Arbitrary<unknown> {
  const s = resolve(schema, components);
  const wrong: fc.Arbitrary<unknown>[] = [fc.jsonValue({ maxDepth: 2 }), nastyString];
  if (s.properties) {
    const keys = Object.keys(s.properties);
    wrong.push(
      fc
        .tuple(
          validValue(s, components),
          fc.constantFrom(...keys),
          fc.oneof(nastyString, fc.jsonValue({ maxDepth: 1 }), fc.constant(undefined)),
        )
        .map(([obj, key, v]) => {
          const copy = { ...(obj as Record<string, unknown>) };
          if (v === undefined) delete copy[key];
          else copy[key] = v;
          return copy;
        }),
    );
  }
  return fc.oneof(
    { weight: 2, arbitrary: validValue(s, components) },
    ...wrong.map((arbitrary) => ({ weight: 1, arbitrary })),
  );
}

/** A query or path parameter as the URL carries it: text (valid, or wrong). */
export function parameterText(schema: JsonSchema, components: Components, extra: string[] = []): fc.Arbitrary<string> {
  const asText = (v: unknown) => (typeof v === "string" ? v : (JSON.stringify(v) ?? ""));
  const options: fc.Arbitrary<string>[] = [validValue(schema, components).map(asText), nastyString];
  if (extra.length) options.push(fc.constantFrom(...extra));
  return fc.oneof(...options);
}
