import { expect } from 'chai';
import { documentedCode } from '../src/measure/harness-doc.js';
import { compileProgram } from '../src/harness/program-compiler.js';
import { ProgramTypeError } from '../src/harness/sandbox-errors.js';
import { namespaceName } from '../src/harness/tool-declarations.js';
import { failingJobsTask } from '../src/tasks/failing-jobs-task.js';
import { actionsHistory } from '../src/vendors/github-actions.js';
import { useHarness } from './support/harness-session.js';

/** The compiler's diagnostics for a program, or [] when it type-checks. */
function diagnosticsOf(source: string, declarations: string): string[] {
  try {
    compileProgram(source, declarations);
    return [];
  } catch (error) {
    if (error instanceof ProgramTypeError) return error.diagnostics;
    throw error;
  }
}

describe('declarations generated from tools/list (every built-in vendor)', () => {
  const session = useHarness([failingJobsTask]);

  it('declares every tool: schema tools return their Output, the others string', () => {
    const { tools, declarations } = session.harness;
    expect(tools.length).to.be.greaterThan(20);
    for (const tool of tools) {
      const space = namespaceName(tool.name);
      expect(declarations, tool.name).to.contain(`declare namespace ${space} {`);
      const returns = tool.outputSchema === undefined ? 'string' : `${space}.Output`;
      expect(declarations, tool.name).to.match(new RegExp(`  ${tool.name}\\(args\\??: ${space}\\.Input\\): Promise<${returns.replace('.', '\\.')}>;`));
    }
    const schemaTools = tools.filter((t) => t.outputSchema !== undefined).map((t) => t.name);
    // Tools that answer with a value declare an envelope; the ones that answer with text (logs, diffs, files, the
    // REST writes' bodies) do not, and the program gets their string.
    expect(schemaTools).to.include.members([
      'github_list_workflow_runs', 'github_get_issue', 'github_create_issue', 'github_merge_pull_request', 'github_graphql',
      'circleci_get', 'circleci_pipeline_status', 'jira_get', 'jira_search', 'jira_create_issue', 'conf_get', 'conf_get_page',
      'bb_get', 'bb_list_pipelines', 'bb_upload',
    ]);
    expect(schemaTools).not.to.include.any.members([
      'github_get_job_logs', 'github_get_pull_request_diff', 'github_get_file', 'circleci_logs', 'jira_post', 'bb_get_pipeline_step_log',
    ]);
  });

  it('types each output as its schema says, checked by the compiler for every tool', () => {
    // One line per tool: every key the output schema requires has the declared type; text tools give a string.
    const lines = session.harness.tools.map((tool, i) => {
      const space = namespaceName(tool.name);
      const call = `tools.${tool.name}(null as unknown as ${space}.Input)`;
      if (tool.outputSchema === undefined) return `const text${i}: string = await ${call};`;
      const keys = (tool.outputSchema.required ?? []) as string[];
      return `const out${i} = await ${call}; const keys${i}: unknown[] = [${keys.map((k) => `out${i}.${k}`).join(', ')}];`;
    });
    expect(diagnosticsOf(lines.join('\n'), session.harness.declarations)).to.deep.equal([]);
    // And a wrong use of each kind is refused: a structured result is not a string, a text result has no data.
    const wrong = diagnosticsOf(
      [
        "const runs: string = await tools.github_list_workflow_runs({ owner: 'o', repo: 'r' });",
        "const log = await tools.github_get_job_logs({ owner: 'o', repo: 'r', jobId: 1 });",
        'log.data;',
      ].join('\n'),
      session.harness.declarations,
    );
    expect(wrong).to.have.length(2);
    expect(wrong[0]).to.match(/^program\.ts:1:7 TS2322: Type 'Output' is not assignable to type 'string'/);
    expect(wrong[1]).to.match(/^program\.ts:3:5 TS2339: Property 'data' does not exist on type 'string'/);
  });

  it('types data as unknown, nextPage as number | null, cache as CircleCI cache metadata', () => {
    const source = [
      "const page = await tools.github_list_workflow_runs({ owner: 'o', repo: 'r' });",
      'const next: number | null = page.nextPage;',
      'const data: unknown = page.data;',
      "const circle = await tools.circleci_get({ path: '/me' });",
      'const hit: boolean = circle.cache.hit;',
      'const age: number = circle.cache.ageMs;',
      'page.data.workflow_runs;',
    ].join('\n');
    const diagnostics = diagnosticsOf(source, session.harness.declarations);
    expect(diagnostics).to.have.length(1);
    expect(diagnostics[0]).to.match(/^program\.ts:7:1 TS18046: 'page\.data' is of type 'unknown'/);
  });

  it('makes inputs with a server default optional and keeps required ones, enums and unknown keys checked', () => {
    const ok = "await tools.github_list_workflow_runs({ owner: 'o', repo: 'r' });\nawait tools.artifact_read({ artifactId: 'a' });";
    expect(diagnosticsOf(ok, session.harness.declarations)).to.deep.equal([]);
    const bad = diagnosticsOf(
      [
        "await tools.github_list_workflow_runs({ owner: 'o' });",
        "await tools.github_list_workflow_runs({ owner: 'o', repo: 'r', status: 'broken' });",
        "await tools.github_list_workflow_runs({ owner: 'o', repo: 'r', perpage: 5 });",
        "await tools.jira_post({ path: '/rest/api/3/issue' });",
      ].join('\n'),
      session.harness.declarations,
    );
    expect(bad.map((d) => d.split(' ')[0])).to.deep.equal(['program.ts:1:39', 'program.ts:2:64', 'program.ts:3:64', 'program.ts:4:23']);
    expect(bad[0]).to.contain("Property 'repo' is missing");
    expect(bad[1]).to.contain('"broken"');
    expect(bad[2]).to.contain("'perpage' does not exist");
    expect(bad[3]).to.contain("Property 'body' is missing");
  });

  it('matches the excerpt docs/harness.md shows', () => {
    expect(session.harness.declarations).to.contain(documentedCode('generated declarations excerpt'));
  });

  it('carries each tool\'s description and each argument\'s into doc comments', () => {
    const { declarations, tools } = session.harness;
    const runs = tools.find((t) => t.name === 'github_list_workflow_runs')!;
    expect(declarations).to.contain(` * ${runs.description!.slice(0, 80)}`);
    expect(declarations).to.contain("* From 1: the last result's nextPage.");
  });

  it('runs a program against the server: a text tool gives its text, a schema tool its structured value', async () => {
    session.world.mock.on('GET', '/user', { body: { login: 'octocat', id: 1 } });
    const run = await session.harness.run(
      [
        "const me = await tools.github_get({ path: '/user', jq: 'login' });",
        "const page = await tools.github_list_workflow_runs({ owner: 'octo-org', repo: 'octo-repo', branch: 'main', perPage: 2, jq: 'workflow_runs[*].id' });",
        'console.log(typeof me, me);',
        'return { nextPage: page.nextPage, ids: page.data };',
      ].join('\n'),
    );
    expect(run.printed).to.equal('string octocat');
    const newestOnMain = actionsHistory().runs.filter((r) => r.head_branch === 'main').slice(0, 2);
    expect(run.value).to.deep.equal({ nextPage: 2, ids: newestOnMain.map((r) => r.id) });
  });
});
