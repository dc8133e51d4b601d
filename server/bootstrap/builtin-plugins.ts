import type { PluginClass } from '../../core/plugin/metadata.js';

type Loader = () => Promise<PluginClass>;

/**
 * Cross-cutting plugins: loaded always, in this order, unless a config file lists them under `disable`.
 * (Stage order is fixed by the pipeline, not by this list.)
 */
export const CROSS_CUTTING: Readonly<Record<string, Loader>> = {
  projection: async () => (await import('../../plugins/projection/index.js')).ProjectionPlugin,
  toon: async () => (await import('../../plugins/toon/index.js')).ToonPlugin,
  truncation: async () => (await import('../../plugins/truncation/index.js')).TruncationPlugin,
  cache: async () => (await import('../../plugins/cache/index.js')).CachePlugin,
  artifacts: async () => (await import('../../plugins/artifacts/index.js')).ArtifactsPlugin,
  structured: async () => (await import('../../plugins/structured/index.js')).StructuredOutputPlugin,
  policy: async () => (await import('../../plugins/policy/index.js')).PolicyPlugin,
};

/** Vendor plugins: all loaded when there is no config file; otherwise those the file's `plugins` names. */
export const VENDORS: Readonly<Record<string, Loader>> = {
  github: async () => (await import('../../plugins/github/index.js')).GithubPlugin,
  circleci: async () => (await import('../../plugins/circleci/index.js')).CircleciPlugin,
  jira: async () => (await import('../../plugins/jira/index.js')).JiraPlugin,
  confluence: async () => (await import('../../plugins/confluence/index.js')).ConfluencePlugin,
  bitbucket: async () => (await import('../../plugins/bitbucket/index.js')).BitbucketPlugin,
};
