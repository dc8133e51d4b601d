/**
 * Whose credential acts upstream for a vendor (`<VENDOR>_CREDENTIALS`): the deployment's service credential
 * (`service`, the default), always the calling person's own linked account (`user`: never the service
 * credential, a caller who has not linked is refused), or the linked account when there is one and the service
 * credential otherwise (`user-or-service`, which the operator opts into).
 */
export const CREDENTIAL_MODES = ['service', 'user', 'user-or-service'] as const;

export type CredentialMode = (typeof CREDENTIAL_MODES)[number];

/** The setting that holds a vendor's mode: `GITHUB_CREDENTIALS` for the prefix `GITHUB`. */
export const credentialModeSetting = (prefix: string): string => `${prefix}_CREDENTIALS`;
