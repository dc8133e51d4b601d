import Type, { type Static } from 'typebox';
import { InvalidDocumentError, readYamlDocument, type DocumentProblem } from '../../../core/schema/yaml-document.js';
import { canonicalJson, sha256Hex } from '../canonical-json.js';

const Names = (description: string) => Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description });
const Globs = (pattern: string, description: string) =>
  Type.Array(Type.String({ minLength: 1, pattern }), { minItems: 1, description: `${description} * matches within one part, case is ignored.` });
const ArgValue = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);

/** What a rule matches on: every key given must hold (AND); any value of a list may (OR). */
export const Conditions = Type.Object(
  {
    tools: Type.Optional(Names('Tool name globs, such as "*_delete".')),
    vendors: Type.Optional(Names("Vendor globs: github, circleci, jira, confluence, bitbucket, or a plugin's own.")),
    methods: Type.Optional(
      Type.Array(Type.Union([Type.Literal('GET'), Type.Literal('POST'), Type.Literal('PUT'), Type.Literal('PATCH'), Type.Literal('DELETE')]), { minItems: 1 }),
    ),
    paths: Type.Optional(Names('Globs of the upstream path as sent, API prefix included, such as "/rest/api/3/issue*".')),
    subjects: Type.Optional(Names('Principal subjects, matched exactly.')),
    groups: Type.Optional(Names('Principal groups, matched exactly; any one suffices.')),
    readOnly: Type.Optional(Type.Boolean({ description: 'true: tools annotated read-only; false: the others.' })),
    credentials: Type.Optional(Names('Globs of the upstream credential label.')),
    hosts: Type.Optional(Names('Globs of the upstream base URL host.')),
    environments: Type.Optional(Names("Globs of the upstream credential's environment class.")),
    identity: Type.Optional(
      Type.Union([Type.Literal('user'), Type.Literal('service')], {
        description: "Who acts upstream: user (the caller's own linked account) or service (the configured credential).",
      }),
    ),
    logins: Type.Optional(Names('Globs of the vendor login of the linked account acting (never holds for the service credential).')),
    args: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.Union([ArgValue, Type.Array(ArgValue, { minItems: 1 })]))),
    session: Type.Optional(
      Type.Object(
        {
          read: Type.Array(Type.Union([Type.Literal('untrusted'), Type.Literal('private')]), {
            minItems: 1,
            description: 'The session has read content of every kind listed (docs/untrusted-content.md#flow-rules).',
          }),
        },
        { additionalProperties: false },
      ),
    ),
    target: Type.Optional(
      Type.Object(
        {
          visibility: Type.Union([Type.Literal('public'), Type.Literal('private')], {
            description: "The write target's visibility; unknown counts as public.",
          }),
        },
        { additionalProperties: false },
      ),
    ),
    resources: Type.Optional(
      Type.Object(
        {
          repos: Type.Optional(Globs('^[^/]+/[^/]+$', 'GitHub repositories, owner/repo (acme/*).')),
          bitbucketRepos: Type.Optional(Globs('^[^/]+/[^/]+$', 'Bitbucket repositories, workspace/repo (Data Center: PROJECT/repo).')),
          circleciProjects: Type.Optional(Globs('^[^/]+/[^/]+/[^/]+$', 'CircleCI project slugs, vcs/org/repo (gh/acme/*).')),
          jiraProjects: Type.Optional(Globs('^[^/]+$', 'Jira project keys (PLAT).')),
          confluenceSpaces: Type.Optional(Globs('^[^/]+$', 'Confluence space keys (ENG).')),
        },
        {
          additionalProperties: false,
          minProperties: 1,
          description:
            "The request names resources of its vendor, every one on that vendor's list here (read as the MCP_ALLOW_* settings read them, docs/policy.md#allowlists); never holds for a vendor without a list here or a request that names none.",
        },
      ),
    ),
    graphql: Type.Optional(
      Type.Object(
        {
          operation: Type.Optional(Type.Union([Type.Literal('query'), Type.Literal('mutation')], { description: 'The operation type.' })),
          fields: Type.Optional(Names('Globs of root fields, such as "issue*". An operation of several root fields is decided field by field.')),
        },
        { additionalProperties: false, minProperties: 1, description: 'What a GraphQL operation asks for; never holds for a REST call.' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const RuleSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]*$', maxLength: 128 }),
    effect: Type.Union([Type.Literal('allow'), Type.Literal('deny'), Type.Literal('approval_required'), Type.Literal('confirm')]),
    /** Shown to the caller when this rule refuses or holds a call. */
    reason: Type.Optional(Type.String({ minLength: 1 })),
    match: Type.Optional(Conditions),
    /** The rule does not apply when these conditions all hold too (e.g. a deny except for a group). */
    except: Type.Optional(Conditions),
    /** approval_required rules: argument paths (dotted, `*` for any one key) whose values approvers never see. */
    redact: Type.Optional(Type.Array(Type.String({ minLength: 1, pattern: '^[^.]+(\\.[^.]+)*$' }), { minItems: 1 })),
  },
  { additionalProperties: false },
);

export const PolicyDocumentSchema = Type.Object(
  {
    version: Type.Literal(1),
    rules: Type.Array(RuleSchema),
  },
  { additionalProperties: false },
);

export type ConditionsSpec = Static<typeof Conditions>;
export type RuleSpec = Static<typeof RuleSchema>;
export type PolicyDocument = Static<typeof PolicyDocumentSchema>;

export interface LoadedPolicy {
  document: PolicyDocument;
  /** `sha256:` and the first 16 hex digits of the canonical document: comments and layout do not change it. */
  version: string;
  /** Line of each rule, for `policy explain` and log messages. */
  ruleLines: ReadonlyMap<string, number>;
}

/**
 * Reads and checks a policy document. Everything wrong is reported with its line: YAML syntax, unknown keys,
 * wrong types, duplicate rule ids, paths that do not start with "/", an empty `except` (which would silently
 * turn its rule off).
 */
export function readPolicyDocument(text: string, label: string): LoadedPolicy {
  const { value, lineOf } = readYamlDocument(text, PolicyDocumentSchema, label);
  const problems: DocumentProblem[] = [];
  const ruleLines = new Map<string, number>();
  value.rules.forEach((rule, i) => {
    if (ruleLines.has(rule.id)) {
      problems.push({
        line: lineOf(['rules', i, 'id']),
        message: `rules[${i}].id: "${rule.id}" is already the id of the rule on line ${ruleLines.get(rule.id)}; rule ids must be unique.`,
      });
    } else {
      ruleLines.set(rule.id, lineOf(['rules', i]) ?? 0);
    }
    if (rule.except !== undefined && holdsAlways(rule.except)) {
      problems.push({
        line: lineOf(['rules', i, 'except']),
        message: `rules[${i}].except: is empty, so it always holds and the rule would never apply. Give the conditions under which the rule does not apply, or remove except.`,
      });
    }
    if (rule.redact !== undefined && rule.effect !== 'approval_required') {
      problems.push({
        line: lineOf(['rules', i, 'redact']),
        message: `rules[${i}].redact: only an approval_required rule shows a call to approvers, so only it can hide argument values from them; remove redact here.`,
      });
    }
    for (const part of ['match', 'except'] as const) {
      rule[part]?.paths?.forEach((p, j) => {
        if (!p.startsWith('/') && !p.startsWith('*')) {
          problems.push({
            line: lineOf(['rules', i, part, 'paths', j]),
            message: `rules[${i}].${part}.paths[${j}]: "${p}" must start with "/" (the path as sent, such as /rest/api/3/issue*).`,
          });
        }
      });
    }
  });
  if (problems.length > 0) throw new InvalidDocumentError(label, problems);
  return { document: value, version: policyVersion(value), ruleLines };
}

/** Conditions that name nothing to check (no key, or only an empty `args`): they always hold. */
function holdsAlways(conditions: ConditionsSpec): boolean {
  return Object.values(conditions).every((v) => v === undefined || (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0));
}

export function policyVersion(document: PolicyDocument): string {
  return `sha256:${sha256Hex(canonicalJson(document)).slice(0, 16)}`;
}
