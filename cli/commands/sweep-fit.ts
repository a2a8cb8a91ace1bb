import { StudyStore, studyObservations, type StudyObservations } from "../../profile/study/index.js";
import { parseCommandArgs, UsageError, type CommandContext } from "../command.js";
import { textTable } from "../table-format.js";

/** Help of `ccasim sweep fit`. */
export const SWEEP_FIT_HELP = `Usage: ccasim sweep fit <study.db> --parameter Q [--by KEY] [--component C] [--port P] [--method M] [--value V] [--json]

Takes the per-invocation records of every successful point of a study as (Q, T) observations,
split by the value of a swept parameter (--by, e.g. machine.l2.size), and prints them per group:
the input of a fit of T as a function of Q and the swept parameter.

Options:
  --parameter Q   record parameter used as Q (e.g. Q, x)
  --by KEY        swept parameter (a key of the sweep's axes)
  --component C, --port P, --method M   which records
  --value V       wallTime (default), computeTime, mpiTime or a counter name
  --json          print the observations as JSON ({ groups: [{ by, q: [...], t: [...] }] })`;

/** Reads the selection options of `ccasim sweep fit` and extracts the observations. */
export async function sweepFitObservations(argv: readonly string[]): Promise<{ obs: StudyObservations; json: boolean }> {
  const { values, positionals } = parseCommandArgs("sweep fit", argv, {
    parameter: { type: "string" },
    by: { type: "string" },
    component: { type: "string" },
    port: { type: "string" },
    method: { type: "string" },
    value: { type: "string" },
    json: { type: "boolean" },
  });
  if (positionals.length !== 1) throw new UsageError("sweep fit: give one study database (see ccasim sweep fit --help)", "sweep");
  if (!values.parameter) throw new UsageError("sweep fit: --parameter is required (the record parameter used as Q)", "sweep");
  const store = await StudyStore.open(positionals[0], { readOnly: true });
  try {
    const obs = await studyObservations(store, {
      parameter: values.parameter as string,
      by: values.by as string | undefined,
      component: values.component as string | undefined,
      port: values.port as string | undefined,
      method: values.method as string | undefined,
      value: values.value as string | undefined,
    });
    return { obs, json: values.json === true };
  } finally {
    store.close();
  }
}

/** `ccasim sweep fit`: the study side of fits across a sweep. */
export async function sweepFit(ctx: CommandContext, argv: readonly string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    ctx.out(SWEEP_FIT_HELP + "\n");
    return 0;
  }
  const { obs, json } = await sweepFitObservations(argv);
  if (json) {
    ctx.out(JSON.stringify({ qLabel: obs.qLabel, tLabel: obs.tLabel, byLabel: obs.byLabel ?? null, groups: obs.groups.map((g) => ({ by: Number.isNaN(g.by) ? null : g.by, q: [...g.q], t: [...g.t] })) }) + "\n");
    return 0;
  }
  const rows = obs.groups.map((g) => {
    const distinct = new Set(g.q).size;
    let sum = 0;
    for (const v of g.t) sum += v;
    return [Number.isNaN(g.by) ? "(all)" : g.by, g.q.length, distinct, Math.min(...g.q), Math.max(...g.q), sum / g.t.length];
  });
  ctx.out(`${obs.tLabel} as a function of ${obs.qLabel}${obs.byLabel ? ` and ${obs.byLabel}` : ""}:\n`);
  ctx.out(textTable([obs.byLabel ?? "group", "observations", `distinct ${obs.qLabel}`, `min ${obs.qLabel}`, `max ${obs.qLabel}`, "mean T"], rows));
  return 0;
}
