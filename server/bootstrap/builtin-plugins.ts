import type { PluginClass } from '../../core/plugin/metadata.js';

type Loader = () => Promise<PluginClass>;

const builtins = new WeakSet<PluginClass>();

/** Marks the class a loader gives as built in (its schemas are checked by the test suite). */
const builtin =
  (load: Loader): Loader =>
  async () => {
    const cls = await load();
    builtins.add(cls);
    return cls;
  };

/** Whether a plugin class is one of this package's own, loaded through the lists below. */
export function isBuiltinPlugin(cls: PluginClass): boolean {
  return builtins.has(cls);
}

/**
 * Cross-cutting plugins: loaded always, in this order, unless a config file lists them under `disable`.
 * (Stage order is fixed by the pipeline, not by this list.)
 */
export const CROSS_CUTTING: Readonly<Record<string, Loader>> = {
  provenance: builtin(async () => (await import('../../plugins/provenance/index.js')).ProvenancePlugin),
  projection: builtin(async () => (await import('../../plugins/projection/index.js')).ProjectionPlugin),
  toon: builtin(async () => (await import('../../plugins/toon/index.js')).ToonPlugin),
  truncation: builtin(async () => (await import('../../plugins/truncation/index.js')).TruncationPlugin),
  cache: builtin(async () => (await import('../../plugins/cache/index.js')).CachePlugin),
  artifacts: builtin(async () => (await import('../../plugins/artifacts/index.js')).ArtifactsPlugin),
  structured: builtin(async () => (await import('../../plugins/structured/index.js')).StructuredOutputPlugin),
  allowlists: builtin(async () => (await import('../../plugins/allowlists/index.js')).AllowlistsPlugin),
  policy: builtin(async () => (await import('../../plugins/policy/index.js')).PolicyPlugin),
  toolsets: builtin(async () => (await import('../../plugins/toolsets/index.js')).ToolsetsPlugin),
  code: builtin(async () => (await import('../../plugins/code-mode/index.js')).CodeModePlugin),
  identity: builtin(async () => (await import('../../plugins/identity/index.js')).IdentityPlugin),
};

/** Vendor plugins: all loaded when there is no config file; otherwise those the file's `plugins` names. */
export const VENDORS: Readonly<Record<string, Loader>> = {
  github: builtin(async () => (await import('../../plugins/github/index.js')).GithubPlugin),
  circleci: builtin(async () => (await import('../../plugins/circleci/index.js')).CircleciPlugin),
  jira: builtin(async () => (await import('../../plugins/jira/index.js')).JiraPlugin),
  confluence: builtin(async () => (await import('../../plugins/confluence/index.js')).ConfluencePlugin),
  bitbucket: builtin(async () => (await import('../../plugins/bitbucket/index.js')).BitbucketPlugin),
  ci: builtin(async () => (await import('../../plugins/ci/index.js')).CiPlugin),
};
