import type { UpstreamClient } from '../../core/http/upstream-client.js';
import type { Confidentiality } from '../../core/plugin/provenance.js';
import type { AnyToolContext } from '../../core/plugin/tool-context.js';
import type { UpstreamRequest } from '../../core/plugin/upstream-types.js';

// Who may read a Jira project or a Confluence space: public only when the vendor says anonymous people may
// (docs/untrusted-content.md#how-trust-is-derived-per-vendor); anything not learned is private.

export interface PlaceVisibility {
  confidentiality: Confidentiality;
  /** False when the vendor did not say and private is assumed. */
  known: boolean;
  why: string;
  warning?: string;
}

const LOOKUP_TTL_MS = 60_000;
const looked = new Map<string, { at: number; visibility: PlaceVisibility }>();

/** Most projects or spaces one call looks up; items of others are private (not looked up). */
export const MAX_PLACE_LOOKUPS = 5;

/**
 * One call's visibility lookups, each remembered a minute per site and place. A lookup that fails (a 403: the
 * permission scheme needs an administrator; a timeout; a policy refusal) gives private with a warning.
 */
export class PlaceLookup {
  private lookups = 0;
  /** This call's answers, failures included: a place is asked about once per call. */
  private readonly decided = new Map<string, PlaceVisibility>();

  constructor(
    private readonly client: UpstreamClient,
    private readonly ctx: AnyToolContext,
    /** `project` or `space`, in labels and warnings. */
    private readonly kind: string,
    private readonly request: (place: string) => UpstreamRequest,
    /** True when the answer says anonymous people may read the place. */
    private readonly anonymousRead: (body: unknown) => boolean,
  ) {}

  async of(place: string): Promise<PlaceVisibility> {
    const once = this.decided.get(place.toLowerCase());
    if (once !== undefined) return once.warning === undefined ? once : { ...once, warning: undefined };
    const visibility = await this.lookedUp(place);
    this.decided.set(place.toLowerCase(), visibility);
    return visibility;
  }

  private async lookedUp(place: string): Promise<PlaceVisibility> {
    const key = `${this.client.identity.host}|${this.kind}|${place}`.toLowerCase();
    const known = looked.get(key);
    if (known !== undefined && Date.now() - known.at < LOOKUP_TTL_MS) return known.visibility;
    if (this.lookups >= MAX_PLACE_LOOKUPS) return { confidentiality: 'private', known: false, why: `${this.kind} visibility not looked up` };
    this.lookups++;
    try {
      const body = (await this.client.send(this.ctx, this.request(place), { expect: 'json' })).body;
      const visibility: PlaceVisibility = this.anonymousRead(body)
        ? { confidentiality: 'public', known: true, why: `${this.kind} readable anonymously` }
        : { confidentiality: 'private', known: true, why: `${this.kind} not readable anonymously` };
      if (looked.size > 500) looked.clear();
      looked.set(key, { at: Date.now(), visibility });
      return visibility;
    } catch (error) {
      if (this.ctx.signal.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      return {
        confidentiality: 'private',
        known: false,
        why: `${this.kind} visibility unknown`,
        warning: `The visibility of ${this.kind} ${place} could not be read (${reason}): its items are labelled private.`,
      };
    }
  }
}
