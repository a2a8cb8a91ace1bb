import { describe, expect, it } from "vitest";
import { shortTimerName } from "../../cli/commands/analysis-io.js";

describe("timer names shortened for tables", () => {
  const sample = "[SAMPLE] H5S_hyper_get_seq_list_single [{/home/users/seanb/pelibs/hdf5/1.8.8/rpm/BUILD/cray-hdf5-1.8.8-pgi-serial/src/./H5Shyper.c} {8673}]";

  it("keeps a name that fits, and every name at width 0", () => {
    expect(shortTimerName("WRF [{wrf.f90} {4,1}-{32,15}]", 40)).toBe("WRF [{wrf.f90} {4,1}-{32,15}]");
    expect(shortTimerName(sample, 0)).toBe(sample);
  });

  it("cuts directory paths first, so samples of one routine at different lines stay apart", () => {
    expect(shortTimerName(sample, 64)).toBe("[SAMPLE] H5S_hyper_get_seq_list_single [{…/H5Shyper.c} {8673}]");
    expect(shortTimerName("paralleldo [OpenMP location: file:/global/u2/k/khuck/src/XGC-1_CPU/pushe2.F95 <72, 150>]", 60)).toBe(
      "paralleldo [OpenMP location: file:…/pushe2.F95 <72, 150>]",
    );
  });

  it("then drops TAU's source location but a sample's, then the middle of the name", () => {
    expect(shortTimerName("MODULE_WRF_TOP::WRF_INIT [{module_wrf_top.f90} {73,4}-{245,26}]", 40)).toBe("MODULE_WRF_TOP::WRF_INIT");
    // A sample keeps its line: samples of one routine differ by it alone.
    expect(shortTimerName(sample, 40)).toBe("[SAMPLE] H5S_hyper_get_s…yper.c} {8673}]");
    const xgc = "[SAMPLE] pushe2_ [{/global/u2/k/khuck/src/XGC-1_CPU/./pushe2.pomp.inst.F95} {";
    expect([100, 104].map((line) => shortTimerName(`${xgc}${line}}]`, 46))).toEqual([
      "[SAMPLE] pushe2_ [{…/pushe2…p.inst.F95} {100}]",
      "[SAMPLE] pushe2_ [{…/pushe2…p.inst.F95} {104}]",
    ]);
    const param = shortTimerName("int __wrap_dgemm(int) C [{wb.c} {5,1}-{11,1}] [ <size> = <100000> ]", 30);
    expect(param).toBe("int __wrap_dgemm(i… <100000> ]");
    expect(param.length).toBeLessThanOrEqual(30);
  });
});
