import { compileExpression } from "../scenarios/lang/expression.js";
import { math } from "../scenarios/lang/math.js";
import { formatRate, printTable, timeBest, type Benchmark } from "./registry.js";

interface Case {
  readonly text: string;
  readonly variable: string;
  /** The same cost written by hand in JavaScript, with the same calling convention: the ceiling for generated code. */
  readonly native: (v: Float64Array) => number;
}

const CASES: readonly Case[] = [
  { text: "exp(1.19*log(Q) - 3.68)", variable: "Q", native: (v) => Math.exp(1.19 * Math.log(v[0]) - 3.68) },
  { text: "2*x + x^2", variable: "x", native: (v) => 2 * v[0] + v[0] ** 2 },
];

/**
 * A fresh timing loop: `f` is called with the argument holder the loop fills in (`values[0]` or
 * `scope[name]`). Built with `new Function` so every measured path gets its own call-site
 * feedback: a shared loop would go megamorphic and penalise the fastest path most.
 */
function makeLoop(kind: "array" | "scope"): (n: number, f: (x: never) => number, arg: Float64Array | Record<string, number>, name: string) => number {
  const set = kind === "array" ? "arg[0] = x; sum += f(arg);" : "arg[name] = x; sum += f(arg);";
  return new Function(`return function loop(n, f, arg, name) { let sum = 0; for (let i = 0; i < n; i++) { const x = 1 + (i & 1023); ${set} } return sum; };`)();
}

/** One measured path: a timing loop of its own, the callee and its argument holder. */
interface Path {
  readonly kind: "array" | "scope";
  readonly n: number;
  readonly f: (x: never) => number;
  readonly arg: Float64Array | Record<string, number>;
}

/**
 * Evaluations per second of each path, best of `rounds`. The paths run interleaved, round by round,
 * so a burst of load from the other core hits them alike and the ratios stay meaningful.
 */
function rates(paths: readonly Path[], name: string, rounds: number): { perSecond: number; checksum: number }[] {
  const loops = paths.map((p) => makeLoop(p.kind));
  paths.forEach((p, i) => loops[i](Math.min(p.n, 1e5), p.f, p.arg, name)); // warm up
  const best = paths.map(() => Infinity);
  const sums = paths.map(() => 0);
  for (let r = 0; r < rounds; r++) {
    paths.forEach((p, i) => {
      const seconds = timeBest(() => {
        sums[i] = loops[i](p.n, p.f, p.arg, name); // the sum keeps the loop from being optimised away
      }, 1);
      best[i] = Math.min(best[i], seconds);
    });
  }
  return paths.map((p, i) => ({ perSecond: p.n / best[i], checksum: sums[i] }));
}

export const expressionBenchmark: Benchmark = {
  name: "expression",
  summary: "cost expressions: generated closures (bind) versus mathjs compile().evaluate, evaluations per second",
  run(args) {
    const quick = args.includes("--quick");
    const fast = quick ? 1e6 : 5e6;
    const slow = quick ? 5e4 : 2e5;
    const rows: (string | number)[][] = [];
    for (const c of CASES) {
      const compiled = compileExpression(c.text);
      const bound = compiled.bind([c.variable]);
      const mathjs = math.compile(c.text);
      const values = new Float64Array(1);
      const scope: Record<string, number> = { [c.variable]: 0 };
      const argOf = (i: number): number => 1 + (i & 1023);
      const [b, e, m, n] = rates(
        [
          { kind: "array", n: fast, f: bound as (x: never) => number, arg: values },
          { kind: "scope", n: slow, f: ((s: Record<string, number>) => compiled.evaluate(s)) as (x: never) => number, arg: scope },
          { kind: "scope", n: slow, f: ((s: Record<string, number>) => mathjs.evaluate(s) as number) as (x: never) => number, arg: scope },
          { kind: "array", n: fast, f: c.native as (x: never) => number, arg: values },
        ],
        c.variable,
        quick ? 3 : 7,
      );
      for (let i = 0; i < 1024; i++) {
        values[0] = scope[c.variable] = argOf(i);
        if (bound(values) !== mathjs.evaluate(scope)) throw new Error(`${c.text}: generated and mathjs results differ at ${c.variable}=${argOf(i)}`);
      }
      if (!Number.isFinite(b.checksum + e.checksum + m.checksum + n.checksum)) throw new Error(`${c.text}: non-finite checksum`);
      rows.push([
        c.text,
        `${formatRate(b.perSecond)}/s`,
        `${formatRate(e.perSecond)}/s`,
        `${formatRate(m.perSecond)}/s`,
        `${formatRate(n.perSecond)}/s`,
        `${(b.perSecond / m.perSecond).toFixed(1)}x`,
        `${(b.perSecond / n.perSecond).toFixed(2)}x`,
      ]);
    }
    printTable(["expression", "bind (generated)", "evaluate(scope)", "mathjs evaluate", "hand-written JS", "bind/mathjs", "bind/hand-written"], rows);
  },
};
