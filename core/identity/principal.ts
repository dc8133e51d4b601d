/** Who is calling. Over stdio and unauthenticated loopback HTTP it is always `local`. */
export interface Principal {
  /** Stable identifier; owner key of artifacts and approvals. */
  readonly subject: string;
  readonly groups: readonly string[];
  /** How the principal was established (`local`, `tokens`, `oidc`). */
  readonly via: string;
}

export const LOCAL_PRINCIPAL: Principal = Object.freeze({ subject: 'local', groups: Object.freeze([]), via: 'local' });
