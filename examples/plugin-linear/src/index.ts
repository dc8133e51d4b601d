// The module a config file names: the server loads every exported @Plugin class.
export { LinearPlugin } from './linear-plugin.js';
