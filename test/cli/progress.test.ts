import { describe, expect, it } from "vitest";
import { progressText, progressView } from "../../cli/progress.js";

describe("sweep progress", () => {
  it("shows the points saved while fewer than finished, and not once all are", () => {
    expect(progressText(58, 160, 0, 10, 20)).toMatch(/^58\/160 \(36%\) \(20 saved\)  5\.80 points\/s  ETA 0:18$/);
    expect(progressText(58, 160, 2, 10)).toBe("58/160 (36%)  5.80 points/s  ETA 0:18  2 failed");
    expect(progressText(160, 160, 0, 10, 160)).not.toContain("saved");
  });

  it("prints its last plain line when every finished point is saved, not before", () => {
    const lines: string[] = [];
    const view = progressView((s) => lines.push(s), false, 3600);
    view.update(1, 2, 0, 1, 0);
    view.update(2, 2, 0, 2, 1);
    view.update(2, 2, 0, 2, 2);
    // The end of the run reports the same final count again: printed once.
    view.update(2, 2, 0, 2.1, 2);
    expect(lines).toEqual(["sweep: 1/2 (50%) (0 saved)  1.00 points/s  ETA 0:01\n", "sweep: 2/2 (100%)  1.00 points/s  ETA 0:00\n"]);
  });
});
