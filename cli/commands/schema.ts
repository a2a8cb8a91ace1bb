import { scenarioJsonSchema, sweepJsonSchema } from "../../scenarios/index.js";
import { parseCommandArgs, type Command } from "../command.js";

export const schemaCommand: Command = {
  name: "schema",
  help: `Usage: ccasim schema [--sweep]

Prints the JSON Schema (draft 2020-12) of ccasim scenario files, or with --sweep of sweep files.
The scenario schema knows the machine and interconnect presets, every node parameter a machine
section may override, the network keys (each model's parameters included), the component types
and each type's parameters (the items of list parameters and the keys of map parameters
included), with their documentation, so an editor completes and checks them as the loader will.
The sweep schema checks an inline scenario against the scenario schema, and the value a sweep
gives a component's list or map parameter or a network section against that key's schema.
Point your editor's YAML support at it, for example with a first line
  # yaml-language-server: $schema=./ccasim.schema.json
after 'npx ccasim schema > ccasim.schema.json'.`,
  run(ctx) {
    const { values } = parseCommandArgs("schema", ctx.argv, { sweep: { type: "boolean" } }, false);
    const schema = values.sweep ? sweepJsonSchema() : scenarioJsonSchema();
    ctx.out(JSON.stringify(schema, null, 2) + "\n");
    return 0;
  },
};
