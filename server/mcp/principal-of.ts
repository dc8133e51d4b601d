import { LOCAL_PRINCIPAL, type Principal } from '../../core/identity/principal.js';

/** Who sent a request: the principal the transport's authentication found (`authInfo.extra.principal`), `local` without it. */
export const principalOf = (ctx: { http?: { authInfo?: { extra?: Record<string, unknown> } } }): Principal =>
  (ctx.http?.authInfo?.extra?.principal as Principal | undefined) ?? LOCAL_PRINCIPAL;
