import { describe, expect, it } from "vitest";
import { StudyError } from "../../profile/study/index.js";
import { loadSweep, slurmArrayScript } from "../../scenarios/sweep/index.js";

const sweep = loadSweep("scenarios/kernel-l2.sweep.yaml");

describe("the numbers of a Slurm job-array script", () => {
  it.each([0, -2, 1.5, Number.NaN])("refuses %s tasks and %s worker threads per task", (v) => {
    expect(() => slurmArrayScript(sweep, { db: "out/k.db", ccasim: "ccasim", tasks: v })).toThrow(StudyError);
    expect(() => slurmArrayScript(sweep, { db: "out/k.db", ccasim: "ccasim", tasks: v })).toThrow(`tasks must be an integer >= 1, got ${v}`);
    expect(() => slurmArrayScript(sweep, { db: "out/k.db", ccasim: "ccasim", jobs: v })).toThrow(`jobs must be an integer >= 1, got ${v}`);
  });

  it("writes whole tasks and threads, no more tasks than points", () => {
    const script = slurmArrayScript(sweep, { db: "out/k.db", ccasim: "ccasim", tasks: 1000, jobs: 2 });
    expect(script).toContain(`#SBATCH --array=0-${sweep.points.length - 1}`);
    expect(script).toContain("#SBATCH --cpus-per-task=2");
    expect(script).toContain(`--slice "\${SLURM_ARRAY_TASK_ID}/${sweep.points.length}"`);
  });
});
