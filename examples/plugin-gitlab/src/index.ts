// The module a config file names: the server loads every exported @Plugin class.
export { GitlabPlugin } from './gitlab-plugin.js';
