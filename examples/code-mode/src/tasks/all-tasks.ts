import { failedPipelinesTask } from './failed-pipelines-task.js';
import { failingJobsTask } from './failing-jobs-task.js';
import type { Task } from './task.js';
import { unassignedIssuesTask } from './unassigned-issues-task.js';

/** The three tasks of docs/harness.md, in the order of its table. */
export const ALL_TASKS: readonly Task[] = [failingJobsTask, unassignedIssuesTask, failedPipelinesTask] as readonly Task[];
