import { failedPipelinesTask } from './failed-pipelines-task.js';
import { failingJobsTask } from './failing-jobs-task.js';
import type { Task } from './task.js';
import { unassignedIssuesTask } from './unassigned-issues-task.js';
import { assigneeLoadTask } from './assignee-load-task.js';
import { repeatFailuresTask } from './repeat-failures-task.js';
import { workflowFailureRateTask } from './workflow-failure-rate-task.js';

/** The three tasks of docs/harness.md, in the order of its table. */
export const ALL_TASKS: readonly Task[] = [failingJobsTask, unassignedIssuesTask, failedPipelinesTask] as readonly Task[];

/** Those three and three more multi-step ones: what the server-side code mode is measured on (docs/benchmarks.md). */
export const SERVER_TASKS: readonly Task[] = [...ALL_TASKS, repeatFailuresTask, workflowFailureRateTask, assigneeLoadTask] as readonly Task[];
