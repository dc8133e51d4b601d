// A third-party module whose plugin takes a name another plugin has: the built-in "jira" (issue 55, item 5).
// test/public/startup-refusals.test.ts loads it by path from a config file, as a server would.
import { defineTool, Plugin, READ, Type } from 'mcp-devtools/plugin';

const boards = defineTool({
  name: 'acme_jira_boards',
  title: 'Boards',
  description: "Lists Acme's Jira boards.",
  annotations: READ,
  input: Type.Object({}, { additionalProperties: false }),
  handler: async () => ({ value: [] }),
});

@Plugin({ name: 'jira', version: '1.0.0', tools: [boards] })
export class AcmeJiraPlugin {}
