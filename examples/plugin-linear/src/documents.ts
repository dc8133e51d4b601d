// The operations the Linear tools send. Each is parsed at start-up: its type (query or mutation) makes the tool
// a read or a write, and a handler may send only these.

/** A team's issues, a page at a time: `after` is the previous page's pageInfo.endCursor. */
export const LIST_ISSUES = `query Issues($team: String!, $first: Int!, $after: String) {
  issues(first: $first, after: $after, filter: { team: { key: { eq: $team } } }) {
    nodes { identifier title description priority url state { name } }
    pageInfo { hasNextPage endCursor }
  }
}`;

/** A new issue; its description is Markdown, sent as written. */
export const CREATE_ISSUE = `mutation CreateIssue($input: IssueCreateInput!) {
  issueCreate(input: $input) { success issue { identifier title url } }
}`;
