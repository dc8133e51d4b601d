/**
 * The `instructions` of the initialize answer: what a client's model should know before its first call, in a
 * few lines (clients put them in the model's context, so every word costs tokens in every session).
 */
export const SERVER_INSTRUCTIONS = [
  'mcp-devtools serves GitHub Actions, CircleCI, Jira, Confluence and Bitbucket.',
  '- Project before you read: every vendor tool takes `jq`, a JMESPath expression applied to the response (e.g. `workflow_runs[*].{id: id, status: conclusion}`); ask only for the fields you need.',
  '- Page with `nextPage`: when a result has one, call again with `page` set to it; null means the last page.',
  '- Read spills with `artifact_read`: an oversized value is saved as an artifact (`incomplete.artifactId`); read it in chunks from offset 0, following `nextOffset` until `eof`.',
  '- Check `isError` before `structuredContent`: an error result has no structured value; its text gives the code and what to do.',
].join('\n');
