import type { ToolsetSpec } from '../../core/plugin/contract.js';

/** CircleCI's toolsets: what a red build needs by default; the API passthroughs on request. */
export const CIRCLECI_TOOLSETS: Record<string, ToolsetSpec> = {
  'circleci.pipelines': {
    description: "A branch's pipeline status, step logs, test results and flaky tests; rerun workflows, trigger pipelines; reads of the API.",
  },
  'circleci.rest': { description: "CircleCI's API writes as they are: POST, PUT, PATCH and DELETE on any path.", default: false },
};
