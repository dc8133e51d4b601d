import type { TObject } from 'typebox';
import { AuthSettings } from '../auth/auth-settings.js';
import { PublicEndpointSettings } from '../auth/public-endpoint.js';
import { ConsoleSettings } from '../console/console-settings.js';
import { HostSettings } from '../http/host-settings.js';
import { LogOutputSettings } from './log-output.js';
import { MetricsSettings } from '../metrics/metrics-settings.js';
import { TaskSettings } from '../mcp/tasks/task-settings.js';

/**
 * Settings schemas of the server-side parts that are not plugins (authentication adds its own here), so the
 * configuration cascade validates them and `mcp-devtools config` lists them.
 */
export const serverSettingsSchemas: TObject[] = [
  AuthSettings,
  PublicEndpointSettings,
  ConsoleSettings,
  MetricsSettings,
  HostSettings,
  LogOutputSettings,
  TaskSettings,
];
