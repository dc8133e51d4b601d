import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Principal } from '../../core/identity/principal.js';
import type { Clock, KeyValueStore } from '../../core/store/key-value-store.js';
import { sealSecret } from './sealed-secret.js';

export interface ConsoleSession {
  principal: { subject: string; groups: string[]; via: string };
  /** The token every form of this session carries; a POST without it is refused. */
  csrf: string;
  createdAt: string;
  expiresAt: string;
  /** What let the approver in, re-checked while the session lasts (session-check.ts). */
  credential: StoredCredential;
  /** When the credential and the groups were last found unchanged. */
  checkedAt: string;
}

/**
 * What signed a session in, as the re-check needs it: a bearer token by its SHA-256 (what the tokens file
 * holds, so no secret), or the OIDC subject and access token, the token sealed with a key only the session's
 * cookie gives (sealed-secret.ts): whoever reads the store cannot use it.
 */
export type SessionCredential = { kind: 'token'; sha256: string } | { kind: 'oidc'; sub: string; accessToken?: string; expiresAt?: number };
export type StoredCredential = { kind: 'token'; sha256: string } | { kind: 'oidc'; sub: string; sealed?: string; expiresAt?: number };

const SESSIONS = 'console-session';
const LOGINS = 'console-login';
const LOGIN_TTL_MS = 10 * 60 * 1000;

/** A new random secret for a cookie or a form: 32 bytes, URL-safe. */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Compares a secret a browser sent with the expected one, in constant time. */
export function sameSecret(sent: string | null | undefined, expected: string): boolean {
  if (typeof sent !== 'string' || sent === '') return false;
  return timingSafeEqual(digest(sent), digest(expected));
}

/**
 * Console sign-ins in the server's shared store (memory, SQLite or Redis), so every replica behind a load
 * balancer serves every approver. The store holds the SHA-256 of each cookie, never the cookie: reading the
 * store does not let anyone sign in as an approver.
 */
export class SessionStore {
  constructor(
    private readonly store: KeyValueStore,
    private readonly clock: Clock,
    readonly ttlMs: number,
  ) {}

  /** A new session for `principal`, signed in with `credential`; returns the cookie value that names it. */
  async create(principal: Principal, credential: SessionCredential): Promise<{ id: string; session: ConsoleSession }> {
    const id = randomSecret();
    const now = this.clock.now();
    const stored: StoredCredential =
      credential.kind === 'token'
        ? credential
        : {
            kind: 'oidc',
            sub: credential.sub,
            ...(credential.accessToken === undefined ? {} : { sealed: sealSecret(credential.accessToken, id) }),
            ...(credential.expiresAt === undefined ? {} : { expiresAt: credential.expiresAt }),
          };
    const session: ConsoleSession = {
      principal: { subject: principal.subject, groups: [...principal.groups], via: principal.via },
      csrf: randomSecret(),
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + this.ttlMs).toISOString(),
      credential: stored,
      checkedAt: new Date(now).toISOString(),
    };
    await this.store.set(SESSIONS, keyOf(id), session, this.ttlMs);
    return { id, session };
  }

  /** Saves a session found unchanged by its re-check, until the same expiry. */
  async update(id: string, session: ConsoleSession): Promise<void> {
    const left = Date.parse(session.expiresAt) - this.clock.now();
    if (left > 0) await this.store.set(SESSIONS, keyOf(id), session, left);
  }

  async get(id: string | undefined): Promise<ConsoleSession | undefined> {
    if (id === undefined || !/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
    const session = await this.store.get<ConsoleSession>(SESSIONS, keyOf(id));
    // The memory store drops expired entries only when read, and a clock may run ahead of the store's.
    return session !== undefined && Date.parse(session.expiresAt) > this.clock.now() ? session : undefined;
  }

  async destroy(id: string | undefined): Promise<void> {
    if (id !== undefined && /^[A-Za-z0-9_-]{43}$/.test(id)) await this.store.delete(SESSIONS, keyOf(id));
  }

  /** Keeps what an OIDC sign-in must find again at the callback (PKCE verifier, nonce), under its state. */
  async saveLogin(state: string, login: PendingLogin): Promise<void> {
    await this.store.set(LOGINS, keyOf(state), login, LOGIN_TTL_MS);
  }

  /**
   * The pending sign-in of `state`, at most once: read and deleted in one atomic operation of the store, so of
   * callbacks with one state arriving together at any workers or replicas, one gets it.
   */
  takeLogin(state: string): Promise<PendingLogin | undefined> {
    return this.store.take<PendingLogin>(LOGINS, keyOf(state));
  }

  get loginTtlSeconds(): number {
    return LOGIN_TTL_MS / 1000;
  }
}

export interface PendingLogin {
  codeVerifier: string;
  nonce: string;
}

function keyOf(secret: string): string {
  return digest(secret).toString('hex');
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
