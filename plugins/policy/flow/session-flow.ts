import { nodeCrypto } from '../../../core/node-crypto.js';
import type { Logger } from '../../../core/logging/logger.js';
import type { Call } from '../../../core/plugin/call.js';
import { PROVENANCE_META_KEY, type ProvenanceLabel } from '../../../core/plugin/provenance.js';
import type { KeyValueStore } from '../../../core/store/key-value-store.js';
import type { FlowFacts } from '../engine/call-facts.js';

const NAMESPACE = 'flow';
/** How long a resource's visibility, once learned, is believed (a repository made public is learned again). */
const VISIBILITY_TTL_MS = 60 * 60 * 1000;
const MAX_LOCAL_SESSIONS = 10_000;

/** A label as it travels in `_meta` (without the paths into the value). */
type ShownLabel = Omit<ProvenanceLabel, 'at' | 'fields'>;

/**
 * What each session has read (docs/untrusted-content.md#flow-rules), kept in the shared store so that every
 * replica decides on the same facts. A session is the stdio connection, or over stateless HTTP the principal
 * and the conversation its requests name (`X-MCP-Conversation`), or the principal alone when they name none.
 * Facts written here are also kept in this process, so a write the store dropped is still known locally.
 */
export class SessionFlow {
  private readonly local = new Map<string, { untrusted?: string; private?: string }>();

  constructor(
    private readonly store: KeyValueStore,
    private readonly ttlMs: number,
    private readonly logger: Logger,
  ) {}

  /** The session a call belongs to, as a store key (the principal and conversation, hashed). */
  static sessionOf(call: Pick<Call, 'principal' | 'session'>): string {
    const who = `${call.principal.via}\u0000${call.principal.subject}\u0000${call.session?.conversation ?? ''}`;
    return nodeCrypto().createHash('sha256').update(who).digest('hex').slice(0, 40);
  }

  /**
   * The facts a flow rule decides on. A store that cannot be read makes the session count as having read
   * untrusted and private content (the flow rules then hold the call: they fail closed).
   */
  async facts(call: Call): Promise<FlowFacts> {
    const session = SessionFlow.sessionOf(call);
    const local = this.local.get(session) ?? {};
    const resource = targetOf(call);
    try {
      const [untrusted, privately, visibility] = await Promise.all([
        this.store.get<string>(NAMESPACE, `${session}|untrusted`),
        this.store.get<string>(NAMESPACE, `${session}|private`),
        resource === null ? undefined : this.store.get<'public' | 'private'>(NAMESPACE, `visibility|${resource}`),
      ]);
      return {
        ...defined('untrusted', untrusted ?? local.untrusted),
        ...defined('private', privately ?? local.private),
        target: resource === null ? null : { resource, visibility: visibility ?? 'public', known: visibility !== undefined },
      };
    } catch (error) {
      this.logger.error({ err: error, tool: call.tool.spec.name }, 'session flow facts could not be read; flow rules hold the call');
      return { storeDown: true, target: resource === null ? null : { resource, visibility: 'public', known: false } };
    }
  }

  /** Records what a result's labels say the session has now read, and the visibility of what it read from. */
  async record(call: Call, meta: Record<string, unknown> | undefined): Promise<void> {
    const labels = ((meta?.[PROVENANCE_META_KEY] as { labels?: ShownLabel[] } | undefined)?.labels ?? []) as ShownLabel[];
    if (labels.length === 0) return;
    const session = SessionFlow.sessionOf(call);
    const untrusted = labels.find((l) => l.integrity === 'untrusted');
    const privately = labels.find((l) => l.confidentiality === 'private');
    const local = { ...this.local.get(session) };
    if (untrusted !== undefined) local.untrusted ??= untrusted.item;
    if (privately !== undefined) local.private ??= privately.resource;
    if (this.local.size >= MAX_LOCAL_SESSIONS) this.local.clear();
    this.local.set(session, local);
    const writes: Array<Promise<void>> = [];
    if (untrusted !== undefined) writes.push(this.store.set(NAMESPACE, `${session}|untrusted`, local.untrusted!, this.ttlMs));
    if (privately !== undefined) writes.push(this.store.set(NAMESPACE, `${session}|private`, local.private!, this.ttlMs));
    const learned = new Map<string, 'public' | 'private'>();
    for (const l of labels) if (l.assumed !== true && !l.resource.endsWith(':unknown')) learned.set(l.resource, l.confidentiality);
    for (const [resource, visibility] of learned) writes.push(this.store.set(NAMESPACE, `visibility|${resource}`, visibility, VISIBILITY_TTL_MS));
    const failed = (await Promise.allSettled(writes)).find((r) => r.status === 'rejected');
    if (failed !== undefined)
      this.logger.warn({ err: (failed as PromiseRejectedResult).reason }, 'session flow facts not stored; this process still knows them');
  }
}

/**
 * Where a call writes, as flow rules judge it: the target its tool declares; a write that declares none writes
 * to an unknown resource of its vendor (which counts as public); a read writes nowhere.
 */
function targetOf(call: Call): string | null {
  const declared = call.tool.spec.provenance?.target?.(call.args as never);
  if (declared !== undefined) return declared;
  return call.tool.spec.annotations.readOnlyHint ? null : `${call.tool.upstream?.identity.vendor ?? call.tool.plugin}:unknown`;
}

function defined<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
