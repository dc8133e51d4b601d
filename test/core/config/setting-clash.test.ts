import { expect } from 'chai';
import Type from 'typebox';
import { resolveSettings, type SettingOwner } from '../../../core/config/settings.js';
import { secret } from '../../../core/config/setting-kinds.js';
import { mapLayer } from '../../../core/config/sources.js';

const TOKEN = 'ghp_clashCanary0123456789abcdef';

function resolve(owners: SettingOwner[], env: Record<string, string> = {}): () => unknown {
  return () => resolveSettings(owners, [mapLayer('environment', env)], new Map(), () => {});
}
const owner = (name: string, schema: SettingOwner['schema']): SettingOwner => ({ name, schema, sections: [name] });

describe('a setting two plugins declare', () => {
  it('fails start-up when they disagree on its type, naming both plugins and never the value', () => {
    const github = owner('github', Type.Object({ GITHUB_TOKEN: secret(Type.String({ default: '' })) }));
    const other = owner('metrics-exporter', Type.Object({ GITHUB_TOKEN: Type.Integer({ default: 0 }) }));
    for (const order of [
      [github, other],
      [other, github],
    ]) {
      const run = resolve(order, { GITHUB_TOKEN: TOKEN });
      expect(run).to.throw(/Setting GITHUB_TOKEN is declared by plugin "(github|metrics-exporter)" as .* and by plugin "(github|metrics-exporter)" as /);
      try {
        run();
      } catch (error) {
        expect((error as Error).message).to.not.include(TOKEN);
        expect((error as Error).message)
          .to.include('plugin "github"')
          .and.include('plugin "metrics-exporter"');
      }
    }
  });

  it('fails start-up when one declares it secret and the other not, whatever the order (a secret is never unmasked)', () => {
    const masked = owner('jira', Type.Object({ ATLASSIAN_API_TOKEN: secret(Type.String({ default: '' })) }));
    const plain = owner('reporter', Type.Object({ ATLASSIAN_API_TOKEN: Type.String({ default: '' }) }));
    expect(resolve([masked, plain])).to.throw('as a secret string (default "(secret)") and by plugin "reporter" as string (default "")');
    expect(resolve([plain, masked])).to.throw('by plugin "reporter" as string (default "") and by plugin "jira" as a secret string');
  });

  it('shares a setting declared alike, and masks a secret value in every error', () => {
    const schema = Type.Object({ ATLASSIAN_API_TOKEN: secret(Type.String({ default: '' })), PAGE: Type.Integer({ default: 1 }) });
    const settings = resolveSettings(
      [owner('jira', schema), owner('confluence', schema)],
      [mapLayer('environment', { ATLASSIAN_API_TOKEN: 'x' })],
      new Map(),
      () => {},
    );
    expect(settings.get('ATLASSIAN_API_TOKEN')).to.equal('x');
    const secretInt = owner('vault', Type.Object({ VAULT_PIN: secret(Type.Integer({ default: 0 })) }));
    expect(resolve([secretInt], { VAULT_PIN: '12ab34' })).to.throw('Setting VAULT_PIN=(secret) from environment');
    try {
      resolve([secretInt], { VAULT_PIN: '12ab34' })();
    } catch (error) {
      expect((error as Error).message).to.not.include('12ab34');
    }
  });
});
