/** One action of a v1.1 job step: a container's run of the step (one per parallel container). */
export interface V1Action {
  name?: string;
  status?: string;
  exit_code?: number | null;
  failed?: boolean | null;
  index?: number;
  has_output?: boolean;
  output_url?: string;
}

/** The part of CircleCI's v1.1 job detail (`/api/v1.1/project/{vcs}/{org}/{repo}/{number}`) this tool reads. */
export interface V1JobDetail {
  status?: string;
  steps?: Array<{ name?: string; actions?: V1Action[] }>;
}

/** A step action chosen for its output, with where it sits in the job. */
export interface SelectedAction {
  /** 1-based, as shown and as `step` selects it. */
  stepNumber: number;
  stepName: string;
  action: V1Action;
  /** The step ran on more than one container: the heading names this one. */
  parallel: boolean;
}

export type StepChoice = { selected: SelectedAction[] } | { unmatched: string };

/** Statuses of an action that failed the job ("canceled" did not: something else stopped it). */
const FAILED_STATUSES = new Set(['failed', 'timedout', 'infrastructure_fail']);

export function actionFailed(action: V1Action): boolean {
  if (action.failed === true || FAILED_STATUSES.has(action.status ?? '')) return true;
  return typeof action.exit_code === 'number' && action.exit_code !== 0;
}

/**
 * The actions whose output to show: those of the one `step` asked for (by number or name, whatever their
 * status), else every action, or only the failed ones. A `step` that names no step says which steps exist.
 */
export function chooseActions(detail: V1JobDetail, step: number | string | undefined, failedOnly: boolean): StepChoice {
  const steps = Array.isArray(detail.steps) ? detail.steps : [];
  const selected: SelectedAction[] = [];
  steps.forEach((s, i) => {
    const stepNumber = i + 1;
    const stepName = typeof s.name === 'string' ? s.name : `step ${stepNumber}`;
    if (step !== undefined && step !== stepNumber && step !== stepName) return;
    const actions = Array.isArray(s.actions) ? s.actions : [];
    for (const action of actions) {
      if (step === undefined && failedOnly && !actionFailed(action)) continue;
      selected.push({ stepNumber, stepName, action, parallel: actions.length > 1 });
    }
  });
  if (step !== undefined && !steps.some((s, i) => step === i + 1 || step === s.name)) {
    const names = steps.map((s, i) => `${i + 1} ${JSON.stringify(s.name ?? '')}`).join(', ');
    return { unmatched: `The job has no step ${JSON.stringify(step)}; its steps are ${names || 'none'}.` };
  }
  return { selected };
}

/** The heading of an action's output: `=== Step 5 "Run tests" (failed, exit code 1) ===`. */
export function actionHeading(s: SelectedAction): string {
  const facts = [s.action.status ?? 'no status'];
  if (typeof s.action.exit_code === 'number') facts.push(`exit code ${s.action.exit_code}`);
  if (s.parallel) facts.push(`container ${s.action.index ?? 0}`);
  return `=== Step ${s.stepNumber} ${JSON.stringify(s.stepName)} (${facts.join(', ')}) ===`;
}
