// The module a config file names: the server loads every exported @Plugin class.
export { NotesPlugin } from './notes-plugin.js';
