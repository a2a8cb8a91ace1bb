import { scenarioSchema, toJsonSchema } from "../../scenarios/index.js";
import { sweepSchema } from "../../scenarios/sweep/sweep-schema.js";
import { parseCommandArgs, type Command } from "../command.js";

export const schemaCommand: Command = {
  name: "schema",
  help: `Usage: ccasim schema [--sweep]

Prints the JSON Schema (draft 2020-12) of ccasim scenario files, or with --sweep of sweep files.
Point your editor's YAML support at it, for example with a first line
  # yaml-language-server: $schema=./ccasim.schema.json
after 'npx ccasim schema > ccasim.schema.json'.`,
  run(ctx) {
    const { values } = parseCommandArgs("schema", ctx.argv, { sweep: { type: "boolean" } }, false);
    const schema = values.sweep
      ? toJsonSchema(sweepSchema(), { title: "ccasim sweep", id: "https://ccasim.invalid/sweep.schema.json" })
      : toJsonSchema(scenarioSchema(), { title: "ccasim scenario", id: "https://ccasim.invalid/scenario.schema.json" });
    ctx.out(JSON.stringify(schema, null, 2) + "\n");
    return 0;
  },
};
