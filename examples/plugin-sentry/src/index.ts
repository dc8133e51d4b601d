// The module a config file names: the server loads every exported @Plugin class.
export { SentryPlugin } from './sentry-plugin.js';
