import type { Command } from "../command.js";
import { profileCommand } from "./profile.js";
import { queryCommand } from "./query.js";
import { reportCommand } from "./report.js";
import { runCommand } from "./run.js";
import { schemaCommand } from "./schema.js";
import { sweepCommand } from "./sweep.js";
import { validateCommand } from "./validate.js";
import { fitCommand } from "./fit.js";
import { pruneCommand } from "./prune.js";
import { selectCommand } from "./select.js";
import { powerCommand } from "./power.js";
import { validateModelCommand } from "./validate-model.js";

/**
 * Every `ccasim` subcommand, in the order `ccasim --help` lists them. A new subcommand is a file
 * in this folder exporting a {@link Command}, plus one line here.
 */
export const commands: readonly Command[] = [
  runCommand,
  validateCommand,
  validateModelCommand,
  schemaCommand,
  profileCommand,
  fitCommand,
  pruneCommand,
  selectCommand,
  powerCommand,
  sweepCommand,
  queryCommand,
  reportCommand,
];
