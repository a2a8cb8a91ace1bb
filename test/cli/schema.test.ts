import { describe, expect, it } from "vitest";
import { main } from "../../cli/main.js";

async function schemaOf(args: string[]) {
  let out = "";
  const code = await main(["schema", ...args], { out: (s) => (out += s), err: () => undefined });
  return { code, schema: JSON.parse(out) as { title: string; properties: Record<string, unknown> } };
}

describe("ccasim schema", () => {
  it("prints the scenario file schema with every top-level section", async () => {
    const { code, schema } = await schemaOf([]);
    expect(code).toBe(0);
    expect(schema.title).toBe("ccasim scenario");
    for (const key of ["name", "seed", "machine", "metrics", "workload", "assembly", "program", "outputs"]) expect(schema.properties).toHaveProperty(key);
  });

  it("prints the sweep file schema with --sweep", async () => {
    const { code, schema } = await schemaOf(["--sweep"]);
    expect(code).toBe(0);
    expect(schema.title).toBe("ccasim sweep");
    for (const key of ["scenario", "axes"]) expect(schema.properties).toHaveProperty(key);
  });
});
