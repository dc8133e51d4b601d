/** The document of issue 5, as written there: it must keep working. */
export const ISSUE_EXAMPLE = `version: 1
rules:
  - id: contractors-read-only
    effect: deny
    match: { groups: [contractors], readOnly: false }
  - id: deletes-need-approval
    effect: approval_required
    match: { tools: ["*_delete", "circleci_post"] }
  - id: jira-writes-for-developers
    effect: allow
    match: { vendors: [jira], methods: [POST, PUT], paths: ["/rest/api/3/issue*"], groups: [developers] }
  - id: everyone-reads
    effect: allow
    match: { readOnly: true }
`;
