import { loadScenario } from "../../scenarios/index.js";
import { parseCommandArgs, UsageError, type Command } from "../command.js";

export const validateCommand: Command = {
  name: "validate",
  help: `Usage: ccasim validate <scenario.yaml> [--set key=value ...]

Reads and checks a scenario the way 'ccasim run' does (YAML syntax, keys and types, units,
presets and overrides, component parameters and cost expressions, port connections, proxies,
metrics) and reports every problem with its file, line, column and key. Writes nothing.

Exit codes: 0 valid, 2 invalid.`,
  run(ctx) {
    const { values, positionals } = parseCommandArgs("validate", ctx.argv, { set: { type: "string", multiple: true } });
    if (positionals.length !== 1) throw new UsageError("give exactly one scenario file", "validate");
    const s = loadScenario(positionals[0], { set: (values.set as string[] | undefined) ?? [] });
    const c = s.config;
    ctx.out(
      `${s.file}: valid — scenario '${c.name}', ${s.machine.cluster.ranks} ranks on ${s.machine.cluster.nodes} ${s.machine.presetName} node(s), ` +
        `${s.assembly ? s.assembly.instances.length + " components" : "program model"}, metrics ${c.metrics.join(", ")}\n`,
    );
    return 0;
  },
};
