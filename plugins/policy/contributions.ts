import type { Contributions } from '../../core/plugin/contributions.js';

/**
 * What the policy plugin adds to the server, as any plugin could: the approvals admin endpoint (at its 0.2 path),
 * the `policy`, `approvals` and `audit` commands, and the console's approvals, decided, activity and policy pages.
 * Declared here, loaded when mounted: a server over stdio loads none of them.
 */
export const POLICY_CONTRIBUTIONS: Contributions = {
  routes: [
    {
      prefix: '/admin/approvals',
      adminToken: true,
      credentials: "approvals are read with MCP_ADMIN_TOKEN and decided with an approver's own token",
      load: async () => (await import('./admin/approval-routes.js')).approvalRoutes,
    },
  ],
  commands: [
    {
      verb: 'policy',
      description: 'check a policy document, or explain how it decides a call',
      load: async () => (await import('./cli/policy-command.js')).registerPolicy,
    },
    {
      verb: 'approvals',
      description: 'list, show, grant or reject calls held for approval by the policy',
      load: async () => (await import('./cli/approvals-command.js')).registerApprovals,
    },
    { verb: 'audit', description: 'audit log tools', load: async () => (await import('./cli/audit-command.js')).registerAudit },
  ],
  console: {
    pages: [
      { path: 'approvals', label: 'Approvals', home: true },
      { path: 'decided', label: 'Decided' },
      { path: 'activity', label: 'Activity' },
      { path: 'policy', label: 'Policy' },
    ],
    load: async () => (await import('./console/approvals-console.js')).approvalsConsole,
  },
};
