import { c, runCommand, type CommandContext } from './commands.ts';
import type { ShellIo, ShellProgram } from './endpoint.ts';
import type { MowerView } from './mower-view.ts';

const MAX_LINE = 1024;
const MAX_HISTORY = 50;

/**
 * The mower's service shell: a prompt, a line editor (printable input, backspace, Ctrl-C, Ctrl-D,
 * Ctrl-L, ↑/↓ history) and the commands of commands.ts over the mower's own state and its small
 * virtual file system. It never starts a process or touches the host.
 */
export class MowerShell implements ShellProgram {
  private io!: ShellIo;
  private line = '';
  private cwd = '/home/root';
  private history: string[] = [];
  private historyAt = 0;
  /** Bytes of an escape sequence being received (arrow keys arrive as ESC [ A). */
  private escape = '';
  private done = false;

  constructor(
    private readonly mower: MowerView,
    private readonly user: string,
  ) {}

  start(io: ShellIo): void {
    this.io = io;
    const t = this.mower.telemetry();
    io.write(`${c.bold}${c.green}MowerOS ${this.mower.firmware()}${c.reset} — ${this.mower.model} ${c.bold}${this.mower.sn}${c.reset}\r\n`);
    io.write(`${c.dim}Session opened by ${this.user || 'service'}. State ${t.state}, battery ${t.battery}%. Type 'help' for the commands.${c.reset}\r\n`);
    this.prompt();
  }

  input(data: Buffer): void {
    for (const ch of data.toString('utf8')) {
      if (this.done) return;
      this.key(ch);
    }
  }

  private key(ch: string): void {
    if (this.escape) {
      this.escape += ch;
      // CSI sequences end with a letter or `~`; anything else that is not `[` or a digit ends it too.
      if (this.escape.length === 2 && ch !== '[' && ch !== 'O') this.escape = '';
      else if (/[A-Za-z~]/.test(ch) && this.escape.length > 2) {
        this.arrow(this.escape.at(-1)!);
        this.escape = '';
      }
      return;
    }
    switch (ch) {
      case '\x1b':
        this.escape = ch;
        return;
      case '\r':
      case '\n':
        return this.enter();
      case '\x7f':
      case '\b':
        if (this.line.length > 0) {
          this.line = [...this.line].slice(0, -1).join('');
          this.io.write('\b \b');
        }
        return;
      case '\x03': // Ctrl-C
        this.line = '';
        this.io.write('^C\r\n');
        return this.prompt();
      case '\x04': // Ctrl-D on an empty line
        if (this.line === '') this.finish();
        return;
      case '\x0c': // Ctrl-L
        this.io.write('\x1b[2J\x1b[H');
        this.prompt();
        this.io.write(this.line);
        return;
      default:
        if (ch < ' ' || this.line.length >= MAX_LINE) return;
        this.line += ch;
        this.io.write(ch);
    }
  }

  private arrow(final: string): void {
    if (final !== 'A' && final !== 'B') return;
    if (this.history.length === 0) return;
    this.historyAt = Math.max(0, Math.min(this.history.length, this.historyAt + (final === 'A' ? -1 : 1)));
    const next = this.history[this.historyAt] ?? '';
    this.io.write('\b \b'.repeat([...this.line].length) + next);
    this.line = next;
  }

  private enter(): void {
    const line = this.line.trim();
    this.line = '';
    this.io.write('\r\n');
    if (line) {
      if (this.history.at(-1) !== line) this.history.push(line);
      if (this.history.length > MAX_HISTORY) this.history.shift();
    }
    this.historyAt = this.history.length;
    const ctx: CommandContext = {
      mower: this.mower,
      cwd: this.cwd,
      user: this.user,
      out: (l = '') => this.io.write(`${l}\r\n`),
      err: (l) => this.io.write(`${c.red}${l}${c.reset}\r\n`),
      clear: () => this.io.write('\x1b[2J\x1b[3J\x1b[H'),
      exit: () => this.finish(),
    };
    runCommand(ctx, line);
    this.cwd = ctx.cwd;
    if (!this.done) this.prompt();
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.io.write('logout\r\n');
    this.io.exit('exit');
  }

  private prompt(): void {
    this.io.write(`${c.green}${c.bold}root@${this.mower.sn.toLowerCase()}${c.reset}:${c.blue}${c.bold}${this.cwd}${c.reset}# `);
  }
}
