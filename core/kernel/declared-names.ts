import { StartupError } from '../errors/tool-error.js';

/** Plugin names: lower case, as config files, toolsets (`<plugin>.<group>`) and error messages use them. */
const PLUGIN_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Tool names as the MCP specification advises: 1 to 64 of A-Z, a-z, 0-9, `_`, `-` and `.`. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** Refuses a plugin name config files and toolsets could not name, saying what a name may be. */
export function checkPluginName(name: unknown, className: string): string {
  if (typeof name === 'string' && PLUGIN_NAME.test(name)) return name;
  throw new StartupError(
    `${className || 'A plugin class'} is named ${JSON.stringify(name)} in @Plugin: a plugin's name is 1 to 64 lower-case letters, digits, "-" and "_", starting with a letter or digit (it names the plugin in config files and its toolsets).`,
  );
}

/** Refuses a tool name the MCP specification advises against, naming the plugin that declared it. */
export function checkToolName(name: unknown, plugin: string): string {
  if (typeof name === 'string' && TOOL_NAME.test(name)) return name;
  throw new StartupError(
    `Plugin "${plugin}" declares a tool named ${JSON.stringify(name)}: a tool's name is 1 to 64 of A-Z, a-z, 0-9, "_", "-" and "." (as the MCP specification advises), such as "${plugin}_get_issue".`,
  );
}
