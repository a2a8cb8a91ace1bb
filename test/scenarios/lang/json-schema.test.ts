import { readFileSync, writeFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Dimension } from "../../../engine/params.js";
import { parseQuantity, quantityPattern, s, toJsonSchema, unitsOf, type Schema } from "../../../scenarios/lang/index.js";

const GOLDEN = new URL("./golden/small-schema.json", import.meta.url);

const component = s.union(
  [
    s.object({ type: s.literal("kernel"), cost: s.expression({ doc: "time per invocation (us) as a function of Q", known: ["Q"] }) }, { doc: "a compute kernel" }),
    s.object({ type: s.literal("halo"), message: s.quantity("bytes", { min: 1, doc: "message size" }) }),
  ],
  { discriminator: "type", doc: "a component" },
);
const tree: Schema = s.lazy("group", () => s.object({ name: s.string(), groups: s.optional(s.array(tree)) }), { doc: "a timer group" });

const small = s.object(
  {
    name: s.string({ doc: "scenario name", pattern: "^[a-z][a-z0-9-]*$" }),
    seed: s.optional(s.integer({ min: 0, doc: "random seed" }), 1),
    latency: s.optional(s.quantity("time", { doc: "link latency" }), 1.5),
    bandwidth: s.optional(s.quantity("bandwidth", { max: 1e12 }), 1.25e9),
    share: s.optional(s.quantity("ratio", { max: 1 }), 0.5),
    enabled: s.optional(s.boolean(), true),
    mode: s.optional(s.enumOf(["sequential", "strided"]), "sequential"),
    components: s.record(component, { keyPattern: "^[A-Z]\\w*$", doc: "components by instance name" }),
    metrics: s.optional(s.array(s.string(), { minItems: 1 }), ["TIME"]),
    timers: s.optional(tree),
    extra: s.optional(s.any({ doc: "free-form notes" })),
    params: s.optional(s.object({}, { additional: s.number() }), {}),
  },
  { doc: "a small scenario" },
);

describe("JSON Schema emission", () => {
  it("matches the golden file for a small schema", () => {
    const json = `${JSON.stringify(toJsonSchema(small, { title: "small", id: "https://ccasim.dev/schema/small.json" }), null, 2)}\n`;
    if (process.env.UPDATE_GOLDEN === "1") writeFileSync(GOLDEN, json);
    expect(json).toBe(readFileSync(GOLDEN, "utf8"));
  });

  it("turns docs into descriptions and writes quantity defaults with units", () => {
    const json = toJsonSchema(small) as { properties: Record<string, Record<string, unknown>>; description: string };
    expect(json.description).toBe("a small scenario");
    expect(json.properties.latency.default).toBe("1.5us");
    expect(json.properties.bandwidth.default).toBe("1.25GB/s");
    expect(json.properties.share.default).toBe(0.5);
    expect(json.properties.name.description).toBe("scenario name");
  });

  it("describes parameter docs with their defaults written as a scenario would", () => {
    const json = toJsonSchema(
      s.fromParams([
        { name: "l2.size", type: "quantity", dimension: "bytes", doc: "L2 size", default: 262144 },
        { name: "l2.latency", type: "quantity", dimension: "time", doc: "L2 hit latency", default: 0.005 },
        { name: "cores", type: "integer", doc: "cores per node", min: 1 },
      ]),
    ) as { properties: Record<string, { default?: unknown; properties?: Record<string, { default?: unknown; description?: string }> }>; required: string[] };
    expect(json.required).toEqual(["cores"]);
    expect(json.properties.l2.default).toEqual({ size: 262144, latency: "5ns" });
    expect(json.properties.l2.properties?.latency.default).toBe("5ns");
    expect(json.properties.l2.properties?.size.description).toBe("L2 size (a size such as 512KiB or 64B)");
  });

  const dims: Dimension[] = ["bytes", "time", "frequency", "bandwidth", "power", "count", "ratio"];

  it("gives quantity patterns that match every string parseQuantity accepts", () => {
    const text = fc.tuple(fc.constantFrom(...dims), fc.double({ min: 0, max: 1e6, noNaN: true }), fc.boolean()).chain(([dim, n, space]) =>
      fc.constantFrom("", ...unitsOf(dim)).map((u) => ({ dim, text: `${n}${space ? " " : ""}${u}` })),
    );
    fc.assert(
      fc.property(text, ({ dim, text: t }) => {
        let ok = true;
        try {
          parseQuantity(t, dim);
        } catch {
          ok = false;
        }
        if (ok) expect(new RegExp(quantityPattern(dim), "u").test(t)).toBe(true);
      }),
      { seed: 7, numRuns: 400 },
    );
  });

  it("gives quantity patterns that reject ambiguous and wrong units", () => {
    const re = (d: Dimension) => new RegExp(quantityPattern(d), "u");
    expect(re("bytes").test("512K")).toBe(false);
    expect(re("frequency").test("2.8G")).toBe(false);
    expect(re("time").test("30")).toBe(false);
    expect(re("time").test("3MHz")).toBe(false);
    expect(re("time").test("-3us")).toBe(false);
    expect(new RegExp(quantityPattern("time", true), "u").test("-3us")).toBe(true);
    expect(re("bandwidth").test("100Mb/s")).toBe(false);
    expect(re("bytes").test("512KiB")).toBe(true);
  });
});
