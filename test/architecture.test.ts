import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** What each layer may import (DESIGN.md: arrows point from a layer to what it may import). */
const ALLOWED: Record<string, readonly string[]> = {
  engine: [],
  profile: [],
  machine: ["engine"],
  components: ["machine", "engine", "profile"],
  scenarios: ["components", "machine", "engine", "profile"],
  analysis: ["profile"],
  cli: ["scenarios", "components", "machine", "engine", "profile", "analysis"],
};

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (name.endsWith(".ts")) out.push(p);
  }
  return out;
}

describe("layering", () => {
  for (const [layer, allowed] of Object.entries(ALLOWED)) {
    it(`${layer}/ imports only ${allowed.length ? allowed.join(", ") : "nothing else of the project"}`, () => {
      const bad: string[] = [];
      for (const file of sources(layer)) {
        const text = readFileSync(file, "utf8");
        for (const m of text.matchAll(/(?:import|export)[^"']*?from\s+["'](\.[^"']+)["']/g)) {
          const depth = file.split("/").length - 1;
          const parts = m[1].split("/");
          let up = 0;
          while (parts[up] === "..") up++;
          if (up < depth) continue; // stays inside the layer
          const target = parts[up];
          if (target !== layer && !allowed.includes(target)) bad.push(`${file} imports ${m[1]}`);
        }
      }
      expect(bad).toEqual([]);
    });
  }
});
