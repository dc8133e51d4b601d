import { userInfo } from 'node:os';
import type { Command, CommandKit, ConfigOptions } from 'mcp-devtools/plugin';
import { NoteBook } from './note-book.js';

/**
 * `mcp-devtools notes list [--json]` and `mcp-devtools notes add TEXT`: the notes in the store the server uses
 * (MCP_STORE_URL, from the same config file, environment and `--set` as the server). A note added here is
 * written by this machine's user, as the CLI acts for whoever runs it.
 */
export function registerNotes(notes: Command, cli: CommandKit): void {
  cli
    .withConfigOptions(notes.command('list').description('the notes, newest first'))
    .option('--json', 'print JSON')
    .action(async (options: ConfigOptions & { json?: boolean }) => {
      await withBook(cli, options, async (book) => {
        const all = await book.list();
        if (options.json) process.stdout.write(`${JSON.stringify(all, null, 2)}\n`);
        else process.stdout.write(all.length === 0 ? 'No notes.\n' : all.map((n) => `${n.at}  ${n.author}: ${n.text}\n`).join(''));
      });
    });
  cli
    .withConfigOptions(notes.command('add <text>').description('leave a note, as the user running this command'))
    .action(async (text: string, options: ConfigOptions) => {
      await withBook(cli, options, async (book) => {
        const note = await book.add(userInfo().username, text);
        process.stdout.write(`Noted, as ${note.author}.\n`);
      });
    });
}

async function withBook(cli: CommandKit, options: ConfigOptions, work: (book: NoteBook) => Promise<void>): Promise<void> {
  const store = await cli.openStore(await cli.settings(options));
  try {
    await work(new NoteBook(store, { now: () => Date.now() }));
  } finally {
    await store.close();
  }
}
