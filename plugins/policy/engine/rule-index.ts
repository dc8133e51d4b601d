import type { CallFacts } from './call-facts.js';
import type { CompiledRule } from './compiled-rule.js';
import { lookup, pathKeys, valueKey, type Condition } from './conditions.js';

/** A rule narrowed to one (tool, caller): only its request conditions are left to evaluate. */
export interface ResidualRule {
  rule: CompiledRule;
  /** Request conditions of `except`; undefined when `except` cannot hold for this tool and caller. */
  except?: Condition[];
}

/**
 * The rules of one effect that can still apply to one (tool, caller), filed by their index condition:
 * argument rules by argument and literal value, path rules by literal folder. A call looks up its own
 * argument values and path folders and gets, in document order, the only filed rules that can apply to it,
 * so hundreds of per-project or per-repository rules cost a few map lookups, not hundreds of matches.
 */
export class RuleIndex {
  private readonly args = new Map<string, { path: readonly string[]; byValue: Map<string, ResidualRule[]> }>();
  private readonly paths = new Map<string, ResidualRule[]>();
  /** Rules without an index condition: tried in order on every call. */
  readonly unfiled: ResidualRule[] = [];

  /** `residuals` in document order. */
  constructor(residuals: readonly ResidualRule[]) {
    for (const r of residuals) {
      const hint = r.rule.indexedBy;
      if (hint === undefined) {
        this.unfiled.push(r);
        continue;
      }
      let table = this.paths;
      if (hint.kind === 'arg') {
        const name = hint.path.join('.');
        let entry = this.args.get(name);
        if (entry === undefined) this.args.set(name, (entry = { path: hint.path, byValue: new Map() }));
        table = entry.byValue;
      }
      for (const key of new Set(hint.keys)) {
        const list = table.get(key);
        if (list === undefined) table.set(key, [r]);
        else list.push(r);
      }
    }
  }

  /** The first rule in document order whose request conditions hold for this call, if any. */
  first(facts: CallFacts, applies: (r: ResidualRule) => boolean): ResidualRule | undefined {
    let best: ResidualRule | undefined;
    for (const r of this.unfiled) {
      if (applies(r)) {
        best = r;
        break;
      }
    }
    const consider = (list: readonly ResidualRule[] | undefined): void => {
      if (list === undefined) return;
      for (const r of list) {
        if (best !== undefined && r.rule.pos >= best.rule.pos) return;
        if (applies(r)) {
          best = r;
          return;
        }
      }
    };
    for (const { path, byValue } of this.args.values()) {
      const value = lookup(facts.args, path);
      if (Array.isArray(value)) for (const v of value) consider(byValue.get(valueKey(v) ?? ''));
      else consider(byValue.get(valueKey(value) ?? ''));
    }
    if (this.paths.size > 0 && facts.path !== null) for (const key of pathKeys(facts.path)) consider(this.paths.get(key));
    return best;
  }
}
