import Type from 'typebox';

/** Settings of inbound authentication (Streamable HTTP). Registered in server-settings.ts. */
export const AuthSettings = Type.Object({
  MCP_AUTH_MODE: Type.Union([Type.Literal('off'), Type.Literal('tokens'), Type.Literal('oidc')], {
    default: 'off',
    description: 'off (principal "local"; loopback only), tokens (MCP_AUTH_TOKENS_FILE) or oidc (JWT bearer tokens).',
  }),
  MCP_AUTH_TOKENS_FILE: Type.String({ default: '', description: 'YAML or JSON file of {tokens: [{sha256, subject, groups}]}; reloaded when it changes.' }),
  MCP_OIDC_ISSUER: Type.String({ default: '', description: 'Issuer URL the tokens must name (iss).' }),
  MCP_OIDC_AUDIENCE: Type.String({
    default: '',
    description: 'Audience the tokens may name (aud) besides the public endpoint (MCP_PUBLIC_URL, the RFC 8707 resource).',
  }),
  MCP_OIDC_JWKS_URL: Type.String({ default: '', description: "JWKS URL; empty: discovered from the issuer's /.well-known/openid-configuration." }),
  MCP_OIDC_CLOCK_SKEW_SECONDS: Type.Integer({ minimum: 0, maximum: 600, default: 60, description: 'Tolerance of exp/nbf/iat checks.' }),
  MCP_OIDC_MAX_TOKEN_LIFETIME_SECONDS: Type.Integer({
    minimum: 60,
    maximum: 2678400,
    default: 86400,
    description: 'Longest lifetime (exp minus iat, or minus now without iat) a token may have; tokens without exp are refused.',
  }),
  MCP_OIDC_SUBJECT_CLAIM: Type.String({ minLength: 1, default: 'sub', description: "Claim (dotted path) holding the principal's subject." }),
  MCP_OIDC_GROUPS_CLAIM: Type.String({
    minLength: 1,
    default: 'groups',
    description: 'Claim (dotted path) holding the groups: a list, or a space- or comma-separated string.',
  }),
});
