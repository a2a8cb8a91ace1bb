import { describe, expect, it } from "vitest";
import { componentTypes, type ComponentType } from "../../components/index.js";
import { MpiDeadlockError, type Comm } from "../../machine/index.js";
import { executeScenario, loadScenarioText } from "../../scenarios/index.js";

/** Every rank receives from its left neighbour before sending to its right one: a ring that never starts. */
const ring: ComponentType<null> = {
  name: "test-receive-first-ring",
  summary: "receives from the left neighbour, then sends to the right one",
  params: [],
  prepare: () => null,
  ports: () => ({ provides: { go: { name: "Go", methods: [{ name: "go", args: [] }] } }, uses: {} }),
  create(ctx) {
    const comm = ctx.mpi as Comm;
    return {
      provides: {
        go: {
          *go() {
            const left = (comm.rank + comm.size - 1) % comm.size;
            yield* comm.recv(left, 0, 1 << 20);
            yield* comm.send((comm.rank + 1) % comm.size, 0, 1 << 20);
          },
        },
      },
    };
  },
};
if (!componentTypes.has(ring.name)) componentTypes.register(ring);

const SCENARIO = [
  "name: ring",
  "machine: { preset: xeon-2.8ghz-512k, nodes: 2, processesPerNode: 1 }",
  "assembly:",
  "  components:",
  "    Ring: { type: test-receive-first-ring }",
  "  entry: Ring.go.go",
  "",
].join("\n");

describe("a deadlock in an assembly", () => {
  it("places each blocked rank's MPI call in the component method that made it", () => {
    const scenario = loadScenarioText(SCENARIO, "ring.yaml");
    let error: unknown;
    try {
      executeScenario(scenario);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MpiDeadlockError);
    const ranks = (error as MpiDeadlockError).ranks;
    expect(ranks.map((r) => r.call)).toEqual(["MPI_Recv() in Ring::go()", "MPI_Recv() in Ring::go()"]);
    expect((error as Error).message).toContain("rank 0 in MPI_Recv() in Ring::go() waits for receive from rank 1 with tag 0");
  });
});
