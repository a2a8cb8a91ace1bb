import { scenarioSchema, toJsonSchema } from "../../scenarios/index.js";
import { parseCommandArgs, type Command } from "../command.js";

export const schemaCommand: Command = {
  name: "schema",
  summary: "print the JSON Schema of scenario files (for editor completion and checking)",
  help: `Usage: ccasim schema

Prints the JSON Schema (draft 2020-12) of ccasim scenario files. Point your editor's YAML
support at it, for example with a first line
  # yaml-language-server: $schema=./ccasim.schema.json
after 'npx ccasim schema > ccasim.schema.json'.`,
  run(ctx) {
    parseCommandArgs("schema", ctx.argv, {}, false);
    ctx.out(JSON.stringify(toJsonSchema(scenarioSchema(), { title: "ccasim scenario", id: "https://ccasim.invalid/scenario.schema.json" }), null, 2) + "\n");
    return 0;
  },
};
