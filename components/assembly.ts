import type { ComponentPorts, ComponentType, PrepareEnv } from "./component.js";
import { componentTypes } from "./registry.js";
import type { PortType } from "./ports.js";
import type { ProxyExtractor } from "./bound-method.js";
import { nearestName } from "../engine/index.js";
import { checkDocumentedParams } from "./documented-params.js";

/** One component instance of an assembly, as the scenario gives it. */
export interface InstanceConfig {
  readonly name: string;
  readonly type: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** A connection `user.usesPort -> provider.providesPort`. */
export interface ConnectionConfig {
  readonly user: string;
  readonly usesPort: string;
  readonly provider: string;
  readonly providesPort: string;
}

/**
 * A proxy in front of `component.port` (a provides port). `parameters` maps each performance
 * parameter to record onto what to extract from the call's arguments: `argument x` (its value),
 * `size of argument field` (an array's length; numbers count as their own size), or the shorthands
 * `x` and `field.length`; or `parameter implementation`, the component's own scenario parameter
 * (which implementation it runs), the same in every call.
 */
export interface ProxyConfig {
  readonly component: string;
  readonly port: string;
  readonly parameters: Readonly<Record<string, string>>;
  /**
   * The port's methods to record (paper 000: the user picks the methods of interest); default,
   * every method. The others are forwarded and timed as any call, without records.
   */
  readonly methods?: readonly string[];
}

/** The entry point each rank calls once: `component.port.method`, a method without arguments (it is called with none). */
export interface EntryConfig {
  readonly component: string;
  readonly port: string;
  readonly method: string;
}

/** An assembly: instances, connections, proxies and the entry point. */
export interface AssemblyConfig {
  readonly instances: readonly InstanceConfig[];
  readonly connections: readonly ConnectionConfig[];
  readonly proxies: readonly ProxyConfig[];
  readonly entry?: EntryConfig;
}

/** How assembly errors are reported: `path` is a path in the scenario (`["assembly", "connections", 2]`). */
export interface AssemblyErrorSink {
  fail(path: readonly (string | number)[], message: string): never;
  /** The expression compiler and located errors for one instance's parameters. */
  envFor(instance: InstanceConfig, index: number, workloadNames: readonly string[]): PrepareEnv;
  /**
   * Throws one error for several input errors (what `fail` and the instances threw), so that a
   * scenario's mistakes in several components are reported together. Without it, the first
   * error stops the preparation.
   */
  combine?(errors: readonly unknown[]): never;
  /**
   * Reports something the assembly may mean but most likely does not (a component connected to
   * nothing). Without it, nothing is reported.
   */
  warn?(path: readonly (string | number)[], message: string): void;
}

/** A proxy resolved against its port type: per method, the extractor of each parameter. */
export interface PreparedProxy {
  readonly component: string;
  readonly port: string;
  /** Per method recorded (every method of the port unless the configuration names some): where each parameter comes from. */
  readonly extract: ReadonlyMap<string, ReadonlyArray<ProxyExtractor>>;
}

/** An instance with its type resolved, parameters prepared and ports known. */
export interface PreparedInstance {
  readonly name: string;
  readonly typeName: string;
  readonly type: ComponentType;
  readonly prepared: unknown;
  readonly ports: ComponentPorts;
}

/** A validated assembly, ready to be instantiated on every rank. */
export interface PreparedAssembly {
  readonly instances: readonly PreparedInstance[];
  readonly byName: ReadonlyMap<string, PreparedInstance>;
  /** user instance -> uses port -> [provider instance, provides port] */
  readonly wiring: ReadonlyMap<string, ReadonlyMap<string, readonly [string, string]>>;
  readonly proxies: readonly PreparedProxy[];
  readonly entry: EntryConfig;
}

const PROXY_SPEC = /^(?:(size of )?argument\s+'?([A-Za-z_][\w]*)'?|([A-Za-z_][\w]*)(\.length)?)$/;
/** `parameter <name>`: a component's own scenario parameter, recorded as it is in every call. */
const PROXY_OWN_PARAMETER = /^parameter\s+'?([A-Za-z_][\w]*)'?$/;

/**
 * The value a proxy records for `parameter <key>` of instance `inst`: the scenario's text or
 * number as written (an expression's text, not its value), else the type's documented default;
 * a boolean as 1 or 0, as arguments are. Why the text is copied: a slice of a YAML source that
 * holds any non-Latin-1 character is a two-byte string, and every records line built with it
 * would be too (writing the records took half as long again).
 */
function ownParameter(inst: PreparedInstance, params: Readonly<Record<string, unknown>>, key: string, fail: (message: string) => never): number | string {
  const doc = inst.type.params?.find((p) => p.name === key);
  const value = key in params ? params[key] : doc?.default;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return value;
  if (typeof value === "string") return JSON.parse(JSON.stringify(value)) as string;
  if (value === undefined) {
    const names = [...new Set([...Object.keys(params), ...(inst.type.params ?? []).map((p) => p.name)])];
    return fail(`component '${inst.name}' has no parameter '${key}' to record${doc === undefined ? "" : " (it has no default)"}; its parameters: ${names.join(", ") || "(none)"}`);
  }
  return fail(`parameter '${key}' of '${inst.name}' is a ${Array.isArray(value) ? "list" : "map"}: a record holds one text or number`);
}

/**
 * Resolves types, prepares parameters, and checks the wiring: every connection names existing
 * instances and ports of the same port type, every uses port is connected exactly once, proxies
 * name provides ports and arguments that exist, and the entry point exists.
 * @throws whatever `sink.fail` throws (a located input error)
 */
export function prepareAssembly(config: AssemblyConfig, workloadNames: readonly string[], sink: AssemblyErrorSink): PreparedAssembly {
  const byName = new Map<string, PreparedInstance>();
  const instances: PreparedInstance[] = [];
  // Input errors of one component, connection or proxy are kept while the others are checked
  // (when the sink can combine them); what names a component that failed is then not checked.
  const failures: unknown[] = [];
  const failed = new Set<string>();
  const attempt = (check: () => void): boolean => {
    try {
      check();
      return true;
    } catch (e) {
      if (sink.combine === undefined || (e as { isInputError?: boolean }).isInputError !== true) throw e;
      failures.push(e);
      return false;
    }
  };
  config.instances.forEach((inst, i) => {
    const ok = attempt(() => {
      if (byName.has(inst.name)) sink.fail(["assembly", "components", inst.name], `duplicate component name '${inst.name}'`);
      let type: ComponentType;
      try {
        type = componentTypes.get(inst.type);
      } catch (e) {
        sink.fail(["assembly", "components", inst.name, "type"], (e as Error).message);
      }
      const env = sink.envFor(inst, i, workloadNames);
      checkDocumentedParams(inst.params, type.params, (key, message) => env.error(key, message));
      const prepared = type.prepare(inst.params, env);
      const p: PreparedInstance = { name: inst.name, typeName: inst.type, type, prepared, ports: type.ports(prepared) };
      byName.set(inst.name, p);
      instances.push(p);
    });
    if (!ok) failed.add(inst.name);
  });

  const wiring = new Map<string, Map<string, readonly [string, string]>>();
  // Uses ports whose connection names a component that failed, or was itself refused (a wrong
  // port, a port type mismatch): connected, though not checked, so that one mistake is one error
  // rather than that error and a "missing connection" of the same port.
  const unchecked = new Set<string>();
  config.connections.forEach((c, i) => {
    if (failed.has(c.user) || failed.has(c.provider) || !attempt(() => connect(c, i))) {
      unchecked.add(`${c.user}.${c.usesPort}`);
      // A misspelt uses port was meant to connect the port its name is nearest to.
      const uses = byName.get(c.user)?.ports.uses;
      const meant = uses && !Object.hasOwn(uses, c.usesPort) ? nearestName(c.usesPort, Object.keys(uses)) : undefined;
      if (meant !== undefined) unchecked.add(`${c.user}.${meant}`);
    }
  });
  for (const inst of instances)
    for (const port of Object.keys(inst.ports.uses))
      if (!wiring.get(inst.name)?.has(port) && !unchecked.has(`${inst.name}.${port}`))
        attempt(() => sink.fail(["assembly", "connections"], `missing connection: uses port ${inst.name}.${port} (type '${inst.ports.uses[port].name}') is not connected`));

  checkEndlessCycles();

  const proxies: PreparedProxy[] = [];
  config.proxies.forEach((px, i) => {
    if (!failed.has(px.component)) attempt(() => void proxies.push(prepareProxy(px, i)));
  });
  if (failures.length > 0) sink.combine!(failures);
  const seen = new Set<string>();
  config.proxies.forEach((px, i) => {
    const k = `${px.component}.${px.port}`;
    if (seen.has(k)) sink.fail(["assembly", "proxies", i], `port ${k} is proxied twice`);
    seen.add(k);
  });
  const entry = entryPoint();
  if (sink.warn) warnUnconnected(entry, sink.warn);
  return { instances, byName, wiring, proxies, entry };

  /**
   * Warns about each component that no connection names and that is not the entry point: it never
   * runs. Not about a component held as an alternative implementation: one that a proxy names, or
   * one of another component type than the connected providers of a port type some connected uses
   * port takes (a connection can be switched to it with --set, as the shock scenarios switch
   * EFMFlux and GodunovFlux). A second, unconnected instance of a connected provider's type is
   * warned about.
   */
  function warnUnconnected(entry: EntryConfig, warn: NonNullable<AssemblyErrorSink["warn"]>): void {
    const named = new Set<string>([entry.component]);
    for (const c of config.connections) named.add(c.user).add(c.provider);
    for (const px of config.proxies) named.add(px.component);
    // Port types that connected uses ports take -> the component types connected to provide them.
    const providersOf = new Map<string, Set<string>>();
    for (const c of config.connections) {
      const type = byName.get(c.user)?.ports.uses[c.usesPort]?.name;
      const provider = byName.get(c.provider)?.typeName;
      if (type === undefined || provider === undefined) continue;
      let set = providersOf.get(type);
      if (!set) providersOf.set(type, (set = new Set()));
      set.add(provider);
    }
    const alternative = (inst: (typeof instances)[number]) => Object.values(inst.ports.provides).some((p) => providersOf.has(p.name) && !providersOf.get(p.name)!.has(inst.typeName));
    for (const inst of instances) {
      if (named.has(inst.name) || alternative(inst)) continue;
      warn(["assembly", "components", inst.name], `component '${inst.name}' (${inst.typeName}) is connected to nothing and is not the entry point: it never runs (connect it, or remove it)`);
    }
  }

  /**
   * Refuses a cycle of connections that every invocation follows (each uses port on it called
   * with a constant count): it recurses until the nesting limit. Located at the connection that
   * closes it (the last of the cycle in the file), naming every connection of it.
   */
  function checkEndlessCycles(): void {
    const connectionOf = new Map<string, number>();
    config.connections.forEach((c, i) => connectionOf.set(`${c.user}.${c.usesPort}`, i));
    const edges = new Map<string, number[]>();
    for (const inst of instances) {
      const always = inst.type.alwaysCalls?.(inst.prepared) ?? [];
      edges.set(inst.name, always.map((port) => connectionOf.get(`${inst.name}.${port}`)).filter((i): i is number => i !== undefined && wiring.get(inst.name)?.has(config.connections[i]!.usesPort) === true));
    }
    const state = new Map<string, "open" | "done">();
    const path: number[] = [];
    const reported = new Set<string>();
    const visit = (name: string): void => {
      state.set(name, "open");
      for (const i of edges.get(name) ?? []) {
        const next = config.connections[i]!.provider;
        path.push(i);
        if (state.get(next) === "open") {
          // The cycle: the connections on the path since `next` was entered.
          const start = path.findIndex((j) => config.connections[j]!.user === next);
          const cycle = path.slice(start);
          const key = [...cycle].sort((a, b) => a - b).join(",");
          if (!reported.has(key)) {
            reported.add(key);
            const last = Math.max(...cycle);
            const text = cycle.map((j) => { const c = config.connections[j]!; return `${c.user}.${c.usesPort} -> ${c.provider}.${c.providesPort}`; }).join(", ");
            const who = [...new Set(cycle.map((j) => config.connections[j]!.user))].join(", ");
            attempt(() =>
              sink.fail(["assembly", "connections", last], `endless recursion: ${text} form${cycle.length === 1 ? "s" : ""} a cycle that every invocation of ${who} follows (its calls there have a constant count): make the count of one of these calls an expression of the arguments that reaches 0`),
            );
          }
        } else if (state.get(next) === undefined) visit(next);
        path.pop();
      }
      state.set(name, "done");
    };
    for (const inst of instances) if (state.get(inst.name) === undefined) visit(inst.name);
  }

  /** Wires connection `i` (`c`), checking its instances, ports and port types. */
  function connect(c: AssemblyConfig["connections"][number], i: number): void {
    const path = ["assembly", "connections", i];
    const user = byName.get(c.user);
    if (!user) sink.fail(path, `no component named '${c.user}'${hint(c.user, byName)}`);
    const provider = byName.get(c.provider);
    if (!provider) sink.fail(path, `no component named '${c.provider}'${hint(c.provider, byName)}`);
    const usesType = user.ports.uses[c.usesPort];
    if (!usesType)
      sink.fail(path, `component '${c.user}' (${user.typeName}) has no uses port '${c.usesPort}'; its uses ports: ${list(user.ports.uses)}`);
    const provType = provider.ports.provides[c.providesPort];
    if (!provType)
      sink.fail(
        path,
        `component '${c.provider}' (${provider.typeName}) has no provides port '${c.providesPort}'; its provides ports: ${list(provider.ports.provides)}`,
      );
    if (usesType.name !== provType.name)
      sink.fail(
        path,
        `port type mismatch: ${c.user}.${c.usesPort} uses '${usesType.name}' but ${c.provider}.${c.providesPort} provides '${provType.name}' ` +
          `(methods ${provType.methods.map((m) => `${m.name}(${m.args.join(", ")})`).join(", ")}); give both the same port type, e.g. portType: ${provType.name} on the calls of ${c.user} through '${c.usesPort}'`,
      );
    if (signature(usesType) !== signature(provType))
      sink.fail(path, `port type '${usesType.name}' differs between ${c.user}.${c.usesPort} (${signature(usesType)}) and ${c.provider}.${c.providesPort} (${signature(provType)})`);
    let m = wiring.get(c.user);
    if (!m) wiring.set(c.user, (m = new Map()));
    if (m.has(c.usesPort)) sink.fail(path, `uses port ${c.user}.${c.usesPort} is connected twice`);
    m.set(c.usesPort, [c.provider, c.providesPort]);
  }

  /** Resolves proxy `i` (`px`) against the port type of the port it names. */
  function prepareProxy(px: AssemblyConfig["proxies"][number], i: number): PreparedProxy {
    const path = ["assembly", "proxies", i];
    const inst = byName.get(px.component);
    if (!inst) sink.fail(path, `no component named '${px.component}'${hint(px.component, byName)}`);
    const pt: PortType | undefined = inst.ports.provides[px.port];
    if (!pt) sink.fail(path, `component '${px.component}' has no provides port '${px.port}'; its provides ports: ${list(inst.ports.provides)}`);
    const methods = px.methods === undefined ? pt.methods : px.methods.map((name, k) => pt.methods.find((m) => m.name === name) ?? sink.fail([...path, "methods", k], `port type '${pt.name}' has no method '${name}'${nearestHint(name, pt.methods.map((m) => m.name))}; its methods: ${pt.methods.map((m) => m.name).join(", ")}`));
    const extract = new Map<string, ProxyExtractor[]>();
    for (const method of methods) extract.set(method.name, []);
    for (const [param, spec] of Object.entries(px.parameters)) {
      const own = PROXY_OWN_PARAMETER.exec(spec.trim());
      if (own) {
        const value = ownParameter(inst, config.instances.find((x) => x.name === px.component)?.params ?? {}, own[1]!, (message) => sink.fail([...path, "parameters", param], message));
        for (const method of methods) extract.get(method.name)!.push([param, own[1]!, "constant", value]);
        continue;
      }
      const m = PROXY_SPEC.exec(spec.trim());
      if (!m)
        sink.fail([...path, "parameters", param], `cannot read '${spec}': write "argument <name>", "size of argument <name>", "<name>", "<name>.length" or "parameter <name>" (the component's own)`);
      const arg = m[2] ?? m[3];
      const kind = m[1] || m[4] ? "size" : "value";
      let found = false;
      for (const method of methods)
        if (method.args.includes(arg)) {
          extract.get(method.name)!.push([param, arg, kind]);
          found = true;
        }
      if (!found)
        sink.fail(
          [...path, "parameters", param],
          `no ${px.methods === undefined ? "" : "recorded "}method of port type '${pt.name}' has an argument '${arg}'; arguments: ${[...new Set(methods.flatMap((x) => x.args))].join(", ") || "(none)"}`,
        );
    }
    return { component: px.component, port: px.port, extract };
  }

  /** The entry point: `assembly.entry`, else the one driver's first method. */
  function entryPoint(): EntryConfig {
    let entry = config.entry;
    if (!entry) {
      const drivers = instances.filter((x) => x.typeName === "driver");
      if (drivers.length !== 1)
        sink.fail(["assembly"], drivers.length === 0 ? "no entry point: add a component of type 'driver' or set assembly.entry" : `several drivers (${drivers.map((d) => d.name).join(", ")}): set assembly.entry`);
      const d = drivers[0];
      const port = Object.keys(d.ports.provides)[0];
      entry = { component: d.name, port, method: d.ports.provides[port].methods[0].name };
    } else {
      const inst = byName.get(entry.component);
      const pt = inst?.ports.provides[entry.port];
      const method = pt?.methods.find((m) => m.name === entry!.method);
      if (!method) sink.fail(["assembly", "entry"], `entry point ${entry.component}.${entry.port}.${entry.method} does not exist`);
      // Each rank calls the entry point with no arguments: an argument would read no value (NaN),
      // and shadow the workload variable of its name in the component's expressions.
      if (method.args.length > 0)
        sink.fail(
          ["assembly", "entry"],
          `entry point ${entry.component}.${entry.port}.${entry.method}(${method.args.join(", ")}) takes arguments, but each rank calls the entry point with none: declare the method without arguments (args: [] for a dummy or kernel component; its expressions then read the workload variables), or call it from a driver, which passes them`,
        );
    }
    return entry;
  }
}

/** A port type's methods and arguments, for comparing two declarations of the same type. */
function signature(pt: PortType): string {
  return pt.methods.map((m) => `${m.name}(${m.args.join(", ")})`).join("; ");
}

function list(ports: Readonly<Record<string, PortType>>): string {
  const k = Object.keys(ports);
  return k.length ? k.join(", ") : "(none)";
}

function hint(name: string, byName: ReadonlyMap<string, unknown>): string {
  return nearestHint(name, [...byName.keys()]) || `; components: ${[...byName.keys()].join(", ")}`;
}

/** ` (did you mean 'x'?)` for the name of `names` nearest to `name`, or "" when none is near. */
function nearestHint(name: string, names: readonly string[]): string {
  const best = nearestName(name, names);
  return best ? ` (did you mean '${best}'?)` : "";
}
