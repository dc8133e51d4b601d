import { expect } from 'chai';
import { secretScrubber } from '../../../core/result/secret-scrubber.js';
import { argumentPreview } from '../../../plugins/policy/approvals/argument-preview.js';
import { isCredentialName } from '../../../plugins/policy/approvals/credential-names.js';

const noScrub = secretScrubber([]);

/** What an approver is shown of `value` when a held call carries it under `key` (in a pipeline's parameters). */
function shown(key: string, value: unknown): unknown {
  const preview = argumentPreview({ body: { parameters: { [key]: value } } }, { redact: [], scrub: noScrub });
  return (JSON.parse(preview.json) as { body: { parameters: Record<string, unknown> } }).body.parameters[key];
}

/**
 * Keys a caller puts secrets under, written every way people write them: whole credential words, words run
 * together, any separator and case. Each value is hidden whole, whatever it looks like.
 */
const SECRET_KEYS = [
  'apitoken',
  'accesstoken',
  'clientsecret',
  'DB_PASS',
  'ssh_key',
  'sshkey',
  'NPM_AUTH',
  'authToken',
  'pwd',
  'passphrase',
  'credential',
  'cookie',
  'session',
  'pin',
  'private_key',
  'DEPLOY_TOKEN',
  'password',
  'Passwd',
  'SMTP_PASSWORD',
  'mysqlPwd',
  'api-key',
  'APIKey',
  'x-api-key',
  'X-Auth-Token',
  'Authorization',
  'Proxy-Authorization',
  'Set-Cookie',
  'JSESSIONID',
  'sessionId',
  'pinCode',
  'SIM_PIN',
  'aws_secret_access_key',
  'AWS_ACCESS_KEY_ID',
  'client_secret',
  'GITHUB_TOKEN',
  'slackBotToken',
  'webhookSecret',
  'signingKey',
  'deploy_key',
  'gpgKey',
  'encryption-key',
  'credentials',
  'creds',
  'otp',
  'jwt',
  'passcode',
  'refresh_token',
  'id_token',
  'bearer',
  'basic_auth',
  'passkey',
  'token2',
  'oauth2Token',
  'PRIVATEKEY',
  'privateKeyPem',
  'dbPassword',
  'secrets',
  'session.cookie',
];

/** Keys of ordinary values, some holding a credential word inside a longer one: their values are shown. */
const ORDINARY_KEYS: Array<[string, unknown]> = [
  ['branch', 'main'],
  ['monkey', 'patch'],
  ['author', 'octocat'],
  ['keyboard', 'dvorak'],
  ['passenger', 'Ada'],
  ['spinner', 'dots'],
  ['opinion', 'ship it'],
  ['key', 'DEPLOY_ENV'],
  ['issueKey', 'PLAT-1'],
  ['projectKey', 'PLAT'],
  ['publicKey', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIC9a example'],
  ['sortKey', 'created'],
  ['idempotencyKey', 'c0ffee-42'],
  ['tokenizer', 'whitespace'],
  ['secretary', 'Grace'],
  ['authorId', 42],
  ['authority', 'ca.acme.example'],
  ['turkey', 'roast'],
  ['hockey', 'ice'],
  ['keyword', 'flaky'],
  ['bypass', false],
  ['compass', 'north'],
  ['possession', 'ours'],
  ['pinned', true],
  ['passed', 12],
  ['private', true],
  ['access_level', 'write'],
  ['deploy_env', 'production'],
  ['release_notes', 'Fixes the login page'],
  ['oauth_scopes', 'repo'],
  ['authenticated', true],
  ['workflowId', 'deploy.yml'],
  ['ref', 'refs/heads/main'],
  ['sha', '6dcb09b5b57875f334f61aebed695e2e4193db5e'],
];

/** Values shaped like a vendor's token, under a key that names nothing: each token is cut out, the words around kept. */
const TOKEN_VALUES: Array<[string, string]> = [
  ['deploy with ghp_16C7e42F292c6912E7710c838347Ae178B4a please', 'deploy with [REDACTED] please'],
  ['gho_16C7e42F292c6912E7710c838347Ae178B4a', '[REDACTED]'],
  ['ghu_16C7e42F292c6912E7710c838347Ae178B4a', '[REDACTED]'],
  ['ghs_16C7e42F292c6912E7710c838347Ae178B4a', '[REDACTED]'],
  ['ghr_16C7e42F292c6912E7710c838347Ae178B4a', '[REDACTED]'],
  ['github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ', '[REDACTED]'],
  ['ATATT3xFfGF0T2u8vT5Yl0Ac1D2e3F4g5H6i7J8k9L0m1N2o3P4q5R6s7T8u9V0w=A1B2C3D4', '[REDACTED]'],
  ['CCIPAT_4Xk9qLm2Rt7Vw3Yz8Bc1Df6Gh0Jk5Np_3c9e0f0b8a6d2e1f3a5b7c9d0e1f2a3b4c5d6e7f8', '[REDACTED]'],
  ['CCIPRJ_4Xk9qLm2Rt7Vw3Yz8Bc1Df6Gh0Jk5Np_3c9e0f0b8a6d2e1f', '[REDACTED]'],
  ['ATBB4Xk9qLm2Rt7Vw3Yz8Bc1Df6Gh0Jk5NpC3D5E7F9', '[REDACTED]'],
  ['xoxb-2048-4096-AbCdEfGhIjKlMnOpQrStUvWx', '[REDACTED]'],
  ['xoxa-2-1234567890-abcdefghijkl', '[REDACTED]'],
  ['xoxp-1234567890-1234567890-abcdefABCDEF', '[REDACTED]'],
  ['xoxr-1234567890-abcdefghijkl', '[REDACTED]'],
  ['npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8', '[REDACTED]'],
  ['AKIAIOSFODNN7EXAMPLE', '[REDACTED]'],
  ['key AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY for maps', 'key [REDACTED] for maps'],
  ['https://hooks.slack.com/services/T0AB12CD3/B0EF45GH6/aBcDeFgHiJkLmNoPqRsTuVwX', 'https://hooks.slack.com/services/[REDACTED]'],
  [
    'post to https://hooks.slack.com/workflows/T0AB12CD3/A0EF45GH6/123456789/aBcDeFgHiJkL then stop',
    'post to https://hooks.slack.com/workflows/[REDACTED] then stop',
  ],
  ['https://discord.com/api/webhooks/112233445566778899/aBcDeFgHiJkLmNoPqRsTuVwXyZ-0123456789', 'https://discord.com/api/webhooks/[REDACTED]'],
  ['https://api.acme.example/v1/feed?format=json&access_token=9f8e7d6c5b4a', 'https://api.acme.example/v1/feed?format=json&access_token=[REDACTED]'],
  ['Token 9f8e7d6c5b4a39281706f5e4d3c2b1a0', '[REDACTED]'],
  ['Bot MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs', '[REDACTED]'],
  ['Bearer 4Xk9qLm2Rt7Vw3Yz8Bc1Df6G', '[REDACTED]'],
  ['Basic ZGVwbG95Omh1bnRlcjItcGFzcw==', '[REDACTED]'],
  ['Authorization: token 9f8e7d6c5b4a39281706', 'Authorization: [REDACTED]'],
  ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJyZW5lIn0.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', '[REDACTED]'],
  ['-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----', '[REDACTED]'],
  ['https://deploy:hunter2-pass@git.acme.example/app.git', 'https://deploy:[REDACTED]@git.acme.example/app.git'],
];

/** Ordinary text a token shape must not take for one. */
const ORDINARY_VALUES = [
  'main',
  'release/4.2',
  '6dcb09b5b57875f334f61aebed695e2e4193db5e',
  '6a3e1c2b-0000-4c43-9457-de07e2029e7b',
  'https://hooks.acme.example/services/deploy',
  'https://circleci.com/gh/acme/app/43',
  'The Token count is 5, the Bot deployment-runner is idle',
  'Rotate the private key before Friday',
  'Basic plan',
  'xoxo from the release team',
  'npm_config_cache',
  'Use OAuth for authentication',
];

describe('what a preview hides: credentials by name and by shape, and nothing else', () => {
  it(`hides the value under each of ${SECRET_KEYS.length} keys that name a credential`, () => {
    const leaked = SECRET_KEYS.filter((key) => shown(key, 'value-7Hq2') !== '[REDACTED]');
    expect(leaked, 'keys whose value was shown').to.deep.equal([]);
  });

  it(`shows the value under each of ${ORDINARY_KEYS.length} ordinary keys, though some hold a credential word inside a longer one`, () => {
    const hidden = ORDINARY_KEYS.filter(([key, value]) => JSON.stringify(shown(key, value)) !== JSON.stringify(value)).map(([key]) => key);
    expect(hidden, 'ordinary keys whose value was hidden').to.deep.equal([]);
  });

  it('judges a name the same way wherever it stands: a map key, a nested key, a query parameter', () => {
    for (const key of SECRET_KEYS) expect(isCredentialName(key), key).to.equal(true);
    for (const [key] of ORDINARY_KEYS) expect(isCredentialName(key), key).to.equal(false);
  });

  it(`cuts ${TOKEN_VALUES.length} token shapes out of the strings they are in`, () => {
    const wrong = TOKEN_VALUES.map(([value, expected]) => ({ value, expected, got: shown('note', value) })).filter((r) => r.got !== r.expected);
    expect(wrong).to.deep.equal([]);
  });

  it(`leaves ${ORDINARY_VALUES.length} ordinary strings as they are`, () => {
    const cut = ORDINARY_VALUES.filter((value) => shown('note', value) !== value);
    expect(cut, 'ordinary strings that were cut').to.deep.equal([]);
  });

  it('lists the path of each value it hid, and only those', () => {
    const preview = argumentPreview(
      { body: { branch: 'main', parameters: { DEPLOY_TOKEN: 'x', deploy_env: 'production', note: 'Token 9f8e7d6c5b4a39281706f5e4d3c2b1a0' } } },
      { redact: [], scrub: noScrub },
    );
    expect(preview.redacted).to.deep.equal(['body.parameters.DEPLOY_TOKEN', 'body.parameters.note']);
  });

  describe('name and value pairs (Bitbucket variables, headers, environment variables)', () => {
    const variables = (items: unknown[]): unknown => {
      const preview = argumentPreview({ body: { variables: items } }, { redact: [], scrub: noScrub });
      return (JSON.parse(preview.json) as { body: { variables: unknown } }).body.variables;
    };

    it("hides the value of a variable Bitbucket keeps secured, whatever it is named, and keeps the others'", () => {
      expect(
        variables([
          { key: 'RELEASE_CHANNEL', value: 'canary-7', secured: true },
          { key: 'DEPLOY_ENV', value: 'staging', secured: false },
          { key: 'REGION', value: 'eu-west-1' },
        ]),
      ).to.deep.equal([
        { key: 'RELEASE_CHANNEL', value: '[REDACTED]', secured: true },
        { key: 'DEPLOY_ENV', value: 'staging', secured: false },
        { key: 'REGION', value: 'eu-west-1' },
      ]);
    });

    it('hides the value of a pair whose name names a credential, as it would under that key', () => {
      expect(
        variables([
          { key: 'DB_PASS', value: 'x' },
          { name: 'Authorization', value: 'y' },
          { name: 'NPM_AUTH', value: 'z' },
          { name: 'keyboard', value: 'dvorak' },
        ]),
      ).to.deep.equal([
        { key: 'DB_PASS', value: '[REDACTED]' },
        { name: 'Authorization', value: '[REDACTED]' },
        { name: 'NPM_AUTH', value: '[REDACTED]' },
        { name: 'keyboard', value: 'dvorak' },
      ]);
    });
  });

  it('keeps hiding values under credential names at any depth and in arrays', () => {
    const preview = argumentPreview(
      { body: { steps: [{ env: { sshKey: 'k', branch: 'main' } }], headers: { 'X-Api-Key': 'k', Accept: 'application/json' } } },
      { redact: [], scrub: noScrub },
    );
    expect(JSON.parse(preview.json)).to.deep.equal({
      body: { steps: [{ env: { sshKey: '[REDACTED]', branch: 'main' } }], headers: { 'X-Api-Key': '[REDACTED]', Accept: 'application/json' } },
    });
  });
});
