/**
 * Built-in machine presets, registered in {@link machinePresets} on import.
 *
 * @packageDocumentation
 */
import { machinePresets } from "../node/preset.js";
import { itanium2Preset } from "./itanium2.js";
import { xeonPreset } from "./xeon.js";
import { pentium3XeonPreset } from "./pentium3-xeon.js";

for (const p of [xeonPreset, itanium2Preset, pentium3XeonPreset]) if (!machinePresets.has(p.name)) machinePresets.register(p);

export { xeonPreset, itanium2Preset, pentium3XeonPreset };
