import { fitAcrossSweep, type OwnChange, type PerValueFit } from "../../analysis/study/index.js";
import { fitFamilies, fitModels, parseFamilySpec, fitWarnings, formulaVariable, isFormulaVariable, isMathjsName, type FitWarning, type SelectionCriterion } from "../../analysis/index.js";
import { StudyStore, studyObservations, type StudyObservations } from "../../profile/study/index.js";
import { axisNumber } from "../../scenarios/sweep/index.js";
import { parseCommandArgs, UsageError, type CommandContext } from "../command.js";
import { criterionOption, fitWarningText, formatNumber, groupedFitWarningLines, list, pooledComponentMethodsWarning, pooledRecordParametersWarning, textAssignments } from "./analysis-io.js";
import { textTable } from "../table-format.js";

/** Help of `ccasim sweep fit` (`ccasim sweep fit --help`). */
export const SWEEP_FIT_HELP = `ccasim sweep fit: fit a component's model T(Q) across a sweep, as a function of Q and of a
swept parameter P

Usage:
  ccasim sweep fit <study.db> --parameter Q [--by KEY] [--by-variable N] [--component C] [--port PORT]
                   [--method M] [--where name=value]... [--value V] [--family F]... [--criterion C] [--json]

The per-invocation records of every successful point of the study ('ccasim sweep' wrote it) are
(Q, T) observations, grouped by the point's value of the swept parameter P (--by, e.g.
machine.l2.size). One model shape T(Q) is chosen for all values (the best in total leave-one-out
SMAPE among each value's best), fitted at each value, and each coefficient is fitted as a function
of P, giving T(Q, P) as a formula and a mathjs expression. A two-segment shape (a cache that
overflows at some Q) may keep its change point Q0 for every value, or take each value's own: then
Q0 is fitted as a function of P too (Q0(P), printed with the coefficients), and the formula writes
[Q > Q0(P)]: a transition that moves with the cache size. Q0(P) and the coefficients are then
fitted on the values whose own data change within their range (a cache the arrays never overflow
has no transition), when at least 3 do; Q0(P) is held within the observed Q.
The moving change point is kept when it fits 2 % better per value and its T(Q, P) fits better. Without --by, T(Q) is fitted on all
observations (as 'ccasim fit'). Points that differ in another swept parameter at the same Q (an
implementation, a second cache size) are pooled into one fit, with a warning naming it; so are
records that differ in a record parameter (a mode); --where separates both. Records of several
component methods (no --component or --method) are pooled too, with a warning naming them.

Options:
  --parameter Q     record parameter used as Q (e.g. Q, x); required. Formulas and expressions
                    name it as the records do (--parameter x gives T(x) = ...·x)
  --by KEY          swept parameter P: a key of the sweep's axes (see 'ccasim query <db> --tables'
                    and the parameter table); its values must be numbers
  --by-variable N   name of P in the formulas and the expression (default P), e.g. L2
  --component C     only records of this component (instance name, e.g. StatesConstructor)
  --port PORT       only records of this provides port
  --method M        only records of this method
  --where name=value  only records whose parameter has this value, as text or number
                    (repeatable), e.g. --where mode=strided; a name the sweep sweeps keeps the
                    points of that value instead, as text or as a quantity in the sweep file's
                    units (--where machine.network.params.bandwidth=1600MB/s, or =1.6GB/s, or
                    =1600000000), to fit one value of a parameter that is not --by
  --value V         T: wallTime (default), computeTime, mpiTime or a counter name, or their
                    columns in the study database (wall_time) or the record files
                    (wall_time [us], counter:PAPI_TOT_CYC [count])
  --family <spec>   family to search for T(Q) (repeatable), as 'ccasim fit --family':
                    ${fitFamilies.names().join(", ")}, with options (polynomial:maxDegree=2,
                    segmented:change=step). Default: as 'ccasim fit', a significant change point's
                    two-segment model competing; families without segmented keep it (and so a
                    moving change point) out
  --criterion <c>   loo-smape (default) or adjusted-r2: how each value's best model is chosen (as
                    'ccasim fit'), the common shape (least total LOO SMAPE, or least total
                    1 − adj. R², over the values) and a moving change point against a fixed one
                    (that score, then SMAPE, or R², of T(Q, P) over all observations). Use
                    adjusted-r2 when some Q have a mean of 0 (a counter below a cache knee)
  --json            print the observations as JSON ({ groups: [{ by, q: [...], t: [...] }] })

Not read, and refused: --weighted (the shapes are fitted to each value's observations, not to
means per Q; 'ccasim fit --weighted' on one value's records), --no-sd (no standard deviation is
fitted), --predict, --top, --variable (formulas name Q after the record parameter and P by
--by-variable; evaluate the printed expression to predict).

Warnings (on stderr), as 'ccasim fit' gives them: the records of several component methods
pooled into one fit (without --component or --method; choose one); records that differ in a
record parameter, or points in another swept parameter, pooled at the same Q (above); and, one
line per kind listing the values of P it applies to with each one's figures: some Q of a value
have a mean of 0 under LOO SMAPE (the ranking says little: try --criterion adjusted-r2); a value's
T(Q), or T(Q, P), goes below 0 inside that value's observed Q for a time or count. Of its own:
no coefficient of T(Q, P) (nor a moving Q0) depends on P although the own fits of the values it
is fitted on differ by more than a quarter at some Q they all observed (named: caches of several
sizes agree where the arrays fit all of them or none); Q0(P) came out constant although the values' own change points
differ by more than a quarter (listed): no trend is significant over the values of P, and T(Q, P)
puts the change at the same Q for every value.

Examples:
  ccasim sweep scenarios/shock-l2.sweep.yaml --jobs 2
  ccasim sweep fit out/shock-l2.sweep.db --component StatesConstructor --parameter Q --where mode=strided --by machine.l2.size --by-variable L2
  ccasim sweep fit out/shock-l2.sweep.db --component EFMFlux --parameter Q --value compute_time

Exit codes: 0 success, 2 missing database, bad options or no matching records.`;

/**
 * Options of 'ccasim fit' that sweep fit refuses, with why. Why refuse rather than not know them:
 * the user comes from 'ccasim fit' and is told what to do instead.
 */
const REFUSED: Record<string, { readonly type: "string" | "boolean"; readonly why: string }> = {
  weighted: { type: "boolean", why: "the shapes are fitted to each value's observations, not to means per Q; weight one value's fit with 'ccasim fit --weighted' on its records" },
  "no-sd": { type: "boolean", why: "it fits no standard deviation" },
  predict: { type: "string", why: "evaluate the printed expression of T(Q, P) instead" },
  top: { type: "string", why: "it lists one model per value, not the candidates" },
  variable: { type: "string", why: "formulas name Q after the record parameter (--parameter) and P by --by-variable" },
};

/** Reads the selection options of `ccasim sweep fit` and extracts the observations. */
export async function sweepFitObservations(
  argv: readonly string[],
): Promise<{ obs: StudyObservations; json: boolean; byVariable: string; families?: readonly string[]; criterion?: SelectionCriterion }> {
  const { values, positionals } = parseCommandArgs("sweep fit", argv, {
    parameter: { type: "string" },
    by: { type: "string" },
    component: { type: "string" },
    port: { type: "string" },
    method: { type: "string" },
    value: { type: "string" },
    json: { type: "boolean" },
    "by-variable": { type: "string" },
    where: { type: "string", multiple: true },
    family: { type: "string", multiple: true },
    criterion: { type: "string" },
    ...Object.fromEntries(Object.entries(REFUSED).map(([name, r]) => [name, { type: r.type }])),
  } as const);
  for (const [name, r] of Object.entries(REFUSED)) if (values[name] !== undefined) throw new UsageError(`--${name} is an option of 'ccasim fit' that sweep fit does not read: ${r.why} (see 'ccasim sweep fit --help')`, "sweep fit");
  const criterion = criterionOption("sweep fit", values.criterion);
  const families = list(values.family);
  // A misspelt family is named before the study is opened, which might not be fitted at all.
  for (const f of families) parseFamilySpec(f);
  if (positionals.length !== 1) throw new UsageError("give one study database (see 'ccasim sweep fit --help')", "sweep fit");
  if (!values.parameter) throw new UsageError("--parameter is required (the record parameter used as Q)", "sweep fit");
  const byVariable = (values["by-variable"] as string | undefined) ?? "P";
  if (!isFormulaVariable(byVariable))
    throw new UsageError(
      `--by-variable '${byVariable}' cannot name a variable in an expression (an identifier that is not a mathjs constant or function, such as P or L2)${isMathjsName(byVariable) ? `: mathjs defines '${byVariable}'` : ""}`,
      "sweep fit",
    );
  if (values.by !== undefined && byVariable === values.parameter) {
    throw new UsageError(`the record parameter and the swept parameter would both be '${byVariable}' in the formulas; name the swept one with --by-variable`, "sweep fit");
  }
  const store = await StudyStore.open(positionals[0], { readOnly: true, study: true });
  try {
    const selection = {
      parameter: values.parameter as string,
      by: values.by as string | undefined,
      component: values.component as string | undefined,
      port: values.port as string | undefined,
      method: values.method as string | undefined,
      value: values.value as string | undefined,
      where: textAssignments("sweep fit", "where", values.where),
      // A swept parameter's value in the sweep file's units (1600MB/s), as its points store it.
      sweptValue: (text: string) => axisNumber(text) ?? undefined,
    };
    const obs = await studyObservations(store, selection);
    return { obs, json: values.json === true, byVariable, ...(families.length > 0 ? { families } : {}), ...(criterion ? { criterion } : {}) };
  } finally {
    store.close();
  }
}

/** `ccasim sweep fit`: the study side of fits across a sweep (its help is {@link SWEEP_FIT_HELP}). */
export async function sweepFit(ctx: CommandContext, argv: readonly string[]): Promise<number> {
  try {
    return await sweepFitRun(ctx, argv);
  } catch (e) {
    // Errors name the subcommand: 'ccasim sweep fit: ...' (see `commandName` in cli/main.ts).
    if (e instanceof Error) {
      e.message = e.message.replace(/^fit: /, "");
      Object.assign(e, { commandName: "sweep fit" });
    }
    throw e;
  }
}

async function sweepFitRun(ctx: CommandContext, argv: readonly string[]): Promise<number> {
  const { obs, json, byVariable, families, criterion } = await sweepFitObservations(argv);
  const warn = (where: string, w: FitWarning, variable: string) => ctx.err(`warning: ${where}${fitWarningText(w, variable)}\n`);
  const eachValue = obs.byLabel ? ` at each value of ${obs.byLabel}` : "";
  if (obs.sources.length > 1) ctx.err(pooledComponentMethodsWarning(obs.sources, eachValue));
  if (obs.pooledRecordParameters.length > 0) ctx.err(pooledRecordParametersWarning(obs.pooledRecordParameters, obs.qLabel, eachValue));
  if (obs.pooled.length > 0) {
    ctx.err(
      `warning: one fit${eachValue} pools points that differ in ${obs.pooled.join(", ")} at the same ${obs.qLabel}; ` +
        `fit one value at a time (--where ${obs.pooled[0]}=<value>) or, for numbers, pass it as --by\n`,
    );
  }
  if (json) {
    ctx.out(JSON.stringify({ qLabel: obs.qLabel, tLabel: obs.tLabel, byLabel: obs.byLabel ?? null, groups: obs.groups.map((g) => ({ by: Number.isNaN(g.by) ? null : g.by, q: [...g.q], t: [...g.t] })) }) + "\n");
    return 0;
  }
  // why: printed once the fit has succeeded, so that a fit that fails prints nothing on stdout
  const heading = `${obs.tLabel} as a function of ${obs.qLabel}${obs.byLabel ? ` and ${obs.byLabel} (${byVariable})` : ""}: ${obs.q.length} observations\n\n`;
  if (!obs.byLabel) {
    const report = fitModels({ q: obs.q, t: obs.t }, { variable: obs.qLabel, families, criterion, fitStdDev: false });
    ctx.out(heading);
    for (const w of fitWarnings(report)) if (w.kind !== "sd-departs") warn("", w, report.variable);
    ctx.out(`T(${report.variable}) = ${report.mean.formula}   (LOO SMAPE ${report.mean.quality.looSmape.toFixed(2)} %)\nexpression: ${report.mean.expression}\n`);
    return 0;
  }
  const fit = fitAcrossSweep(obs.groups, { variable: obs.qLabel, byVariable, byName: obs.byLabel, families, criterion });
  ctx.out(heading);
  // A shape's label names its variable Q; print it under the record parameter's name.
  const variable = formulaVariable(obs.qLabel);
  // One line per kind of warning, listing the values it applies to.
  const perValue = fit.perValue.flatMap((v) => v.warnings.map((warning) => ({ by: v.by, warning })));
  for (const line of groupedFitWarningLines(perValue, `T(${variable})`, obs.byLabel, variable)) ctx.err(line);
  for (const line of groupedFitWarningLines(fit.warnings, `T(${variable}, ${byVariable})`, obs.byLabel, variable)) ctx.err(line);
  if (fit.constantInP) {
    const spread = fit.spread!;
    ctx.err(
      `warning: no coefficient of T(${variable}, ${byVariable}) depends on ${byVariable}${fit.changePoint ? `, nor does its change point Q0` : ""}: each came out constant over ${(fit.changePointValues ?? fit.perValue).length} values of ${obs.byLabel}, ` +
        `though their own fits differ by up to ×${formatNumber(spread.ratio)} (at ${variable} = ${spread.at}); read the fits per value (more values of ${obs.byLabel} may show a trend)\n`,
    );
  } else if (fit.changePointConstantInP) {
    // The values Q0(P) was fitted on, with their own change points.
    const on = fit.perValue.filter((v) => (fit.changePointValues ?? []).includes(v.by));
    const own = on.map((v) => v.model.changePoint!);
    ctx.err(
      `warning: Q0(${byVariable}) came out constant over ${on.length} values of ${obs.byLabel} (no trend in ${byVariable} is significant), though their own change points range from ` +
        `${Math.min(...own)} to ${Math.max(...own)} (${on.map((v) => `${v.by}: ${v.model.changePoint!}`).join(", ")}): ` +
        `T(${variable}, ${byVariable}) puts the change at the same ${variable} for every value; read the change points per value (more values of ${obs.byLabel} may show a trend)\n`,
    );
  }
  const shapeLabel = fit.shape.label.replace(/\bQ\b/g, variable);
  const moving = fit.perValue.some((v) => v.model.changePoint !== fit.shape.changePoint);
  ctx.out(`common shape: ${shapeLabel}${fit.shape.logResponse ? " (fitted on log T)" : ""}${moving ? `, its change point Q0 fitted at each value of ${obs.byLabel}` : ""}\n`);
  ctx.out(
    textTable(
      // Under adjusted-r2 the score the shape was chosen by is shown too.
      [obs.byLabel, "observations", `T(${variable})`, "LOO SMAPE %", ...(criterion === "adjusted-r2" ? ["adj. R²"] : [])],
      fit.perValue.map((v) => [v.by, v.n, v.model.formula, Number(v.model.quality.looSmape.toFixed(3)), ...(criterion === "adjusted-r2" ? [Number(v.model.quality.adjustedR2.toFixed(4))] : [])]),
      90,
    ),
  );
  if (!fit.coefficients) {
    ctx.out(`\n(fewer than 3 values of ${obs.byLabel}: the coefficients are not fitted as functions of it)\n`);
    return 0;
  }
  ctx.out(`\ncoefficients as functions of ${byVariable} = ${obs.byLabel}:\n`);
  fit.coefficients.forEach((c, k) => ctx.out(`  c${k}(${byVariable}) = ${c.formula}\n`));
  if (fit.changePoint) {
    const on = fit.changePointValues ?? [];
    const all = on.length === fit.perValue.length;
    ctx.out(`  Q0(${byVariable}) = ${fit.changePoint.formula}   (the last ${variable} before the change, held within the observed ${variable}; Q0 and the coefficients fitted on ${all ? "every value" : `the values whose data change within their range: ${on.join(", ")}`}; R² ${fit.changePoint.quality.r2.toFixed(4)})\n`);
    if (!all) {
      // Say why the others are left out, and that their rows above are the shape forced on them.
      const left = fit.perValue.filter((v) => !on.includes(v.by));
      ctx.out(
        `  left out: ${obs.byLabel} = ${left.map((v) => v.by).join(", ")}, whose own best fit has no change within the observed ${variable}: ${ownChangeReasons(left, variable)}; ` +
          `their rows above force the common shape's change point on them (read their LOO SMAPE), and T(${variable}, ${byVariable}) extrapolates to them\n`,
      );
    }
  }
  ctx.out(`\nT(${variable}, ${byVariable}) = ${fit.formula}\n  SMAPE over all observations ${fit.smape!.toFixed(2)} %\n  expression: ${fit.expression}\n`);
  return 0;
}

/** Why values' own best fits have no change point, as `ownChange` says: one reason, or each reason with its values. */
function ownChangeReasons(left: readonly PerValueFit[], variable: string): string {
  const text: Record<Exclude<OwnChange, "chosen">, string> = {
    "not-significant": `no change point is significant: their data do not change, change too little, or change between the two smallest or the two largest ${variable}, where no change point can be placed`,
    outranked: "a change point is significant, but a single-segment model ranks above it (a change small against the scatter of their observations)",
    "not-searched": `no change point is searched with fewer than 5 or more than 5000 distinct ${variable} (as 'ccasim fit' searches)`,
  };
  const reasons = [...new Set(left.map((v) => v.ownChange))].filter((r): r is Exclude<OwnChange, "chosen"> => r !== "chosen");
  if (reasons.length === 1) return text[reasons[0]!];
  return reasons.map((r) => `${left.filter((v) => v.ownChange === r).map((v) => v.by).join(", ")}: ${text[r]}`).join("; ");
}
