/** One line of a held call's arguments as an approver sees them. */
export interface ArgumentLine {
  depth: number;
  key: string;
  /** The value as JSON when MCP_CONSOLE_ARGUMENT_VALUES shows it, else its type: string, number, array(3), object. */
  text: string;
  value: boolean;
}

const MAX_VALUE_CHARS = 200;
const MAX_LINES = 80;
const MAX_DEPTH = 6;

/**
 * Which argument values approvers may see (MCP_CONSOLE_ARGUMENT_VALUES): a dotted path shows that value and
 * everything under it, `*` shows all. Everything else shows its shape only, as the audit log does, so what
 * agents write into tickets is not put in front of every approver unless the operator chose to.
 */
export class ArgumentValues {
  private readonly all: boolean;
  private readonly paths: string[];

  constructor(setting: string) {
    const entries = setting
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    this.all = entries.includes('*');
    this.paths = entries.filter((e) => e !== '*');
  }

  shows(path: string): boolean {
    return this.all || this.paths.some((p) => path === p || path.startsWith(`${p}.`));
  }

  /** The lines of an approval's arguments (its JSON preview), or why they cannot be shown. */
  lines(argumentsJson: string): ArgumentLine[] | { unavailable: string } {
    let args: unknown;
    try {
      args = JSON.parse(argumentsJson);
    } catch {
      // The approval store cuts the preview at 4 KiB; a cut preview is not JSON any more.
      return { unavailable: 'The arguments are too large to show here; use `mcp-devtools approvals list --json`.' };
    }
    const out: ArgumentLine[] = [];
    this.walk(args, '', 0, out);
    if (out.length > MAX_LINES) return [...out.slice(0, MAX_LINES), { depth: 0, key: '...', text: `${out.length - MAX_LINES} more`, value: false }];
    return out;
  }

  private walk(value: unknown, path: string, depth: number, out: ArgumentLine[]): void {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || depth >= MAX_DEPTH) return;
    for (const key of Object.keys(value).sort()) {
      const child = (value as Record<string, unknown>)[key];
      const at = path === '' ? key : `${path}.${key}`;
      const nested = child !== null && typeof child === 'object' && !Array.isArray(child) && depth + 1 < MAX_DEPTH;
      if (nested) {
        out.push({ depth, key, text: 'object', value: false });
        this.walk(child, at, depth + 1, out);
      } else if (this.shows(at)) {
        const json = JSON.stringify(child) ?? 'undefined';
        out.push({ depth, key, text: json.length > MAX_VALUE_CHARS ? `${json.slice(0, MAX_VALUE_CHARS)}...` : json, value: true });
      } else {
        out.push({ depth, key, text: typeName(child), value: false });
      }
    }
  }
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array(${value.length})`;
  return typeof value;
}
