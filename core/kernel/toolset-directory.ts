import type { Principal } from '../identity/principal.js';
import type { KeyValueStore } from '../store/key-value-store.js';
import type { ToolSelection } from './tool-selection.js';

/** How long a caller's enabled toolsets are kept since it last enabled one: a working day. */
export const ENABLED_TOOLSETS_TTL_MS = 12 * 60 * 60 * 1000;
const NAMESPACE = 'toolsets';

/** A toolset as `list_toolsets` shows it to one caller. */
export interface ToolsetListing {
  name: string;
  description: string;
  /** Tools of it this server would serve (after --exclude-tools and --read-only). */
  tools: number;
  /** Whether this caller is served it now (selected at start-up, or enabled). */
  enabled: boolean;
}

/**
 * The toolsets of a server started with MCP_DYNAMIC_TOOLSETS, as its three toolset tools see them (provided to
 * plugins as TOKENS.Toolsets). What a caller enabled is kept in the store under its principal, so every worker
 * and replica sharing the store serves it the same tools; without dynamic toolsets nothing is ever enabled.
 */
export class ToolsetDirectory {
  private selection: ToolSelection | undefined;

  constructor(private readonly store: KeyValueStore) {}

  /** Set by the kernel once the tools are registered. @internal */
  attach(selection: ToolSelection): void {
    this.selection = selection;
  }

  get dynamic(): boolean {
    return this.selection?.dynamic ?? false;
  }

  /** The toolsets a caller has enabled (empty unless the server has dynamic toolsets). */
  async enabled(principal: Principal): Promise<ReadonlySet<string>> {
    if (!this.dynamic) return new Set();
    return new Set((await this.store.get<string[]>(NAMESPACE, principal.subject)) ?? []);
  }

  /** Every toolset that has a tool this server can serve, and whether the caller has it. */
  async list(principal: Principal): Promise<ToolsetListing[]> {
    const selection = this.selectionOrFail();
    const enabled = await this.enabled(principal);
    return [...selection.toolsets.values()]
      .map((set) => {
        const servable = set.tools.filter((t) => selection.hiddenBy(t, new Set([set.name])) === undefined);
        return {
          name: set.name,
          description: set.description,
          tools: servable.length,
          enabled: servable.length > 0 && servable.every((t) => selection.hiddenBy(t, enabled) === undefined),
        };
      })
      .filter((set) => set.tools > 0 && set.name !== 'toolsets');
  }

  /**
   * The names of the tools this server can serve of a toolset, or of every toolset a name stands for as
   * --toolsets reads it (a plugin's name: all of its toolsets); undefined for a name that is none of them.
   */
  toolsOf(name: string): string[] | undefined {
    const selection = this.selectionOrFail();
    const sets = selection.toolsetsFor(name).filter((set) => set !== 'toolsets');
    if (sets.length === 0) return undefined;
    return sets.flatMap((set) => (selection.toolsets.get(set)?.tools ?? []).filter((t) => selection.hiddenBy(t, new Set([set])) === undefined));
  }

  /** Enables a toolset (or every toolset a name stands for) for a caller; returns the tools that became served to it. */
  async enable(principal: Principal, name: string): Promise<string[]> {
    const selection = this.selectionOrFail();
    const before = await this.enabled(principal);
    const after = new Set([...before, ...selection.toolsetsFor(name).filter((set) => set !== 'toolsets')]);
    const added = (this.toolsOf(name) ?? []).filter((t) => selection.hiddenBy(t, before) !== undefined);
    if (added.length > 0) await this.store.set(NAMESPACE, principal.subject, [...after], ENABLED_TOOLSETS_TTL_MS);
    return added;
  }

  private selectionOrFail(): ToolSelection {
    if (this.selection === undefined) throw new Error('the toolset directory is read before the kernel registered its tools');
    return this.selection;
  }
}
