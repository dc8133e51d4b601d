import type { ToolsetSpec } from '../../core/plugin/contract.js';

/** Bitbucket's toolsets: pull requests and pipelines by default; the REST passthrough and Downloads on request. */
export const BITBUCKET_TOOLSETS: Record<string, ToolsetSpec> = {
  'bitbucket.pull_requests': { description: 'List pull requests, read their diffs, comment on them (inline too).' },
  'bitbucket.pipelines': { description: "List pipelines, read a step's log, run a branch's or a custom pipeline." },
  'bitbucket.repos': { description: "Bitbucket's REST API as it is (GET, POST, PUT, PATCH, DELETE) and uploads to Downloads.", default: false },
};
