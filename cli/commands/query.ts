import { StudyStore, STUDY_TABLES, TIMING_TABLE, META_TABLE } from "../../profile/study/index.js";
import { parseCommandArgs, UsageError, type Command } from "../command.js";
import { csvTable, jsonTable, textTable } from "../table-format.js";

/** `ccasim query`: SQL on a study database, printed or exported to Parquet/CSV. */
export const queryCommand: Command = {
  name: "query",
  help: `Usage: ccasim query <study.db> ["SELECT ..."] [--json | --csv] [--out FILE.parquet|FILE.csv]
       ccasim query <study.db> --tables

Runs SQL (DuckDB's dialect) on a study database written by 'ccasim sweep', or reads a whole table
when the argument is a table name (a study's table in its canonical order: the same rows whatever
--jobs or resumptions stored it), and prints the result as a table (--json, --csv for machine
use). With --out, writes it to Parquet or CSV, chosen by the extension (atomically; never the
database itself). An export interrupted (Ctrl-C, kill) removes its unfinished file, then ccasim
ends by the signal (130 / 143 in a shell); a signal that comes as the file is being completed
leaves it complete, and ccasim says so and exits 0. One statement per call (a trailing ';' and
'--' comments are fine; a PIVOT is one, as the last example's: a row per point, a column per
swept key). Without SQL, prints the number of rows of every table. The database is opened
read-only, and SQL that writes files, opens another database or installs an extension (COPY,
EXPORT, ATTACH, DETACH, INSTALL, LOAD) is refused: export with --out.

Tables (docs/study-schema.md): ${[...STUDY_TABLES, TIMING_TABLE, META_TABLE].map((t) => t.name).join(", ")}.

Swept values are stored as given (parameter.value, text: '512KiB') and as numbers in base units
(parameter.numeric_value: 524288); sort and compare numbers by numeric_value, since text sorts
'1048576' before '262144'.

Examples (on the study of 'ccasim sweep scenarios/shock-l2.sweep.yaml'):
  ccasim query out/shock-l2.sweep.db --tables
  ccasim query out/shock-l2.sweep.db "SELECT name, numeric_value, count(*) AS points FROM parameter GROUP BY ALL ORDER BY ALL"
  ccasim query out/shock-l2.sweep.db "SELECT p.numeric_value AS l2_bytes, r.component, avg(r.wall_time) AS mean_us
                           FROM record r JOIN parameter p USING (point_id)
                           WHERE p.name = 'machine.l2.size' GROUP BY ALL ORDER BY ALL" --csv
  ccasim query out/shock-l2.sweep.db record --out records.parquet
  ccasim query out/shock-l2.sweep.db "PIVOT (SELECT point_id, name, numeric_value FROM parameter) ON name USING first(numeric_value)" --csv

Exit codes: 0 success, 2 bad SQL, missing database or arguments, 130/143 interrupted (see above).`,
  async run(ctx) {
    const options = {
      json: { type: "boolean" },
      csv: { type: "boolean" },
      out: { type: "string" },
      tables: { type: "boolean" },
    } as const;
    // why: SQL that opens with a `-- comment` is an argument, not an option (its first word is no
    // option's name and more words follow); a newline before it changes nothing
    const isSqlComment = (a: string) => /^--/.test(a) && /\s/.test(a) && !Object.hasOwn(options, /^--([^\s=]*)/.exec(a)![1]);
    const argv = ctx.argv.map((a) => (isSqlComment(a) ? `\n${a}` : a));
    const { values, positionals } = parseCommandArgs("query", argv, options);
    if (positionals.length < 1 || positionals.length > 2) throw new UsageError("give a study database and at most one SQL statement (see ccasim query --help)", "query");
    if (values.json && values.csv) throw new UsageError("give --json or --csv, not both (see ccasim query --help)", "query");
    if (values.tables && positionals.length === 2) throw new UsageError("give SQL or --tables, not both (see ccasim query --help)", "query");
    if (values.out !== undefined && (values.json || values.csv)) throw new UsageError("--out writes the format its extension names (.parquet, .csv); leave out --json and --csv", "query");
    const store = await StudyStore.open(positionals[0], { readOnly: true, study: positionals.length === 1 });
    try {
      let sql = positionals[1];
      if (sql === undefined) {
        sql = [...STUDY_TABLES, TIMING_TABLE, META_TABLE].map((t) => `SELECT '${t.name}' AS "table", count(*) AS "rows" FROM "${t.name}"`).join(" UNION ALL ");
      }
      // (An empty --out is a path too, which the export refuses as empty.)
      if (values.out !== undefined) {
        await store.exportQuery(sql, values.out as string);
        ctx.err(`wrote ${values.out as string}\n`);
        return 0;
      }
      const r = await store.query(sql);
      ctx.out(values.json ? jsonTable(r.columns, r.rows) : values.csv ? csvTable(r.columns, r.rows) : textTable(r.columns, r.rows) + `(${r.rows.length} row${r.rows.length === 1 ? "" : "s"})\n`);
      return 0;
    } finally {
      store.close();
    }
  },
};
