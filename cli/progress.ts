/** Draws sweep progress: a bar with rate and ETA on a terminal, plain periodic lines otherwise. */
export interface ProgressView {
  /** `saved`: points committed so far (shown while fewer than `done`). */
  update(done: number, total: number, failed: number, elapsedSeconds: number, saved?: number): void;
  end(): void;
}

function clock(seconds: number): string {
  if (!Number.isFinite(seconds)) return "--:--";
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  return `${h > 0 ? `${h}:${String(m).padStart(2, "0")}` : String(m)}:${String(r).padStart(2, "0")}`;
}

/**
 * One status text: `12/40 (30%)  3.2 points/s  ETA 0:08  1 failed`, with `(9 saved)` after the
 * count while fewer points are committed than finished (what an interruption would keep).
 */
export function progressText(done: number, total: number, failed: number, elapsedSeconds: number, saved = done): string {
  const rate = done / Math.max(elapsedSeconds, 1e-9);
  const eta = done > 0 ? (total - done) / rate : Infinity;
  const pct = total > 0 ? Math.floor((100 * done) / total) : 100;
  const unsaved = saved < done ? ` (${saved} saved)` : "";
  return `${done}/${total} (${pct}%)${unsaved}  ${rate.toFixed(rate < 10 ? 2 : 1)} points/s  ETA ${clock(eta)}${failed ? `  ${failed} failed` : ""}`;
}

/**
 * A progress view writing to `err`: on a terminal a redrawn bar (at most every 100 ms); otherwise
 * a plain line every `intervalSeconds` (default 5) and at the end.
 */
export function progressView(err: (s: string) => void, interactive: boolean, intervalSeconds = 5): ProgressView {
  let last = -Infinity;
  let drawn = false;
  let finalPrinted = false;
  let lastArgs: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  return {
    update(done, total, failed, elapsed, saved = done) {
      lastArgs = [done, total, failed, elapsed, saved];
      const now = performance.now();
      if (interactive) {
        if (now - last < 100 && done < total) return;
        last = now;
        const width = 28;
        const fill = total > 0 ? Math.round((width * done) / total) : width;
        err(`\r[${"#".repeat(fill)}${"-".repeat(width - fill)}] ${progressText(done, total, failed, elapsed, saved)}\x1b[K`);
        drawn = true;
      } else if (now - last >= intervalSeconds * 1000 || (done === total && saved === done)) {
        // The final count once: the last commit and the end of the run both report it.
        const final = done === total && saved === done;
        if (final && finalPrinted) return;
        finalPrinted = final;
        last = now;
        err(`sweep: ${progressText(done, total, failed, elapsed, saved)}\n`);
      }
    },
    end() {
      if (interactive && drawn) {
        const [d, t, f, e, s] = lastArgs;
        err(`\r${progressText(d, t, f, e, s)}\x1b[K\n`);
      }
    },
  };
}
