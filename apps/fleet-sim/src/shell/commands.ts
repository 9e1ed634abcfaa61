import type { MowerView } from './mower-view.ts';
import { isDir, lookup, mowerFileSystem, resolvePath } from './vfs.ts';

/** ANSI colours the shell uses (xterm renders them; recordings keep them). */
export const c = {
  reset: '\x1b[0m',
  bold: '\x1b[1m',
  dim: '\x1b[2m',
  red: '\x1b[31m',
  green: '\x1b[32m',
  yellow: '\x1b[33m',
  blue: '\x1b[34m',
  cyan: '\x1b[36m',
};

export interface CommandContext {
  mower: MowerView;
  cwd: string;
  user: string;
  out(line?: string): void;
  err(line: string): void;
  clear(): void;
  exit(): void;
}

interface Command {
  usage: string;
  help: string;
  run(ctx: CommandContext, args: string[]): void;
}

const pad = (s: string, n: number) => s + ' '.repeat(Math.max(0, n - s.length));
const kv = (ctx: CommandContext, key: string, value: string) => ctx.out(`  ${c.cyan}${pad(key, 12)}${c.reset}${value}`);

function batteryBar(percent: number): string {
  const filled = Math.round(percent / 10);
  const colour = percent <= 20 ? c.red : percent <= 50 ? c.yellow : c.green;
  return `${colour}${'█'.repeat(filled)}${c.dim}${'░'.repeat(10 - filled)}${c.reset} ${percent}%`;
}

function duration(s: number): string {
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${d > 0 ? `${d}d ` : ''}${h}h ${m}m ${s % 60}s`;
}

const commands: Record<string, Command> = {
  help: {
    usage: 'help',
    help: 'list the commands',
    run(ctx) {
      ctx.out(`${c.bold}Mower service shell${c.reset} — commands:`);
      for (const cmd of Object.values(commands)) ctx.out(`  ${c.green}${pad(cmd.usage, 26)}${c.reset}${cmd.help}`);
    },
  },
  status: {
    usage: 'status',
    help: 'state, activity, battery, blade, signal',
    run(ctx) {
      const t = ctx.mower.telemetry();
      ctx.out(`${c.bold}${ctx.mower.sn}${c.reset} (${ctx.mower.model}, firmware ${ctx.mower.firmware()})`);
      kv(ctx, 'state', `${t.state === 'error' ? c.red : c.green}${t.state}${c.reset}`);
      kv(ctx, 'activity', t.activity);
      kv(ctx, 'battery', `${batteryBar(t.battery)}${t.charging ? ' (charging)' : ''}`);
      kv(ctx, 'blade', t.bladeRpm > 0 ? `${t.bladeRpm} rpm` : 'off');
      kv(ctx, 'signal', `${t.rssi} dBm`);
      kv(ctx, 'error', t.errorCode ? `${c.red}${t.errorCode}${c.reset}` : 'none');
    },
  },
  battery: {
    usage: 'battery',
    help: 'state of charge',
    run(ctx) {
      const t = ctx.mower.telemetry();
      ctx.out(`battery ${batteryBar(t.battery)} ${t.charging ? 'charging' : 'discharging'}`);
      const ret = ctx.mower.settings.get('battery.return_percent');
      ctx.out(`returns to the station at ${String(ret)}%`);
    },
  },
  gps: {
    usage: 'gps',
    help: 'position fix',
    run(ctx) {
      const p = ctx.mower.telemetry().position;
      if (!p) return ctx.err('no position fix');
      ctx.out(`lat ${p.lat.toFixed(6)}  lng ${p.lng.toFixed(6)}  heading ${p.heading.toFixed(1)}°`);
    },
  },
  logs: {
    usage: 'logs [-n N]',
    help: 'recent log lines (default 20)',
    run(ctx, args) {
      const n = args[0] === '-n' ? Number(args[1]) : 20;
      if (!Number.isInteger(n) || n < 1) return ctx.err('usage: logs [-n N]');
      const lines = ctx.mower.logs();
      if (lines.length === 0) return ctx.out(`${c.dim}(no log lines yet)${c.reset}`);
      for (const line of lines.slice(-n)) ctx.out(line);
    },
  },
  config: {
    usage: 'config get [key] | set k v',
    help: 'read or change a setting',
    run(ctx, args) {
      const s = ctx.mower.settings;
      const [verb, key, value] = args;
      if (verb === 'get' && !key) {
        for (const k of s.keys()) kv(ctx, k.padEnd(24).slice(0, 24), String(s.get(k)));
        return;
      }
      if (verb === 'get' && key) {
        const v = s.get(key);
        return v === undefined ? ctx.err(`unknown key: ${key}`) : ctx.out(`${key} = ${String(v)}`);
      }
      if (verb === 'set' && key && value !== undefined && args.length === 3) {
        const refused = s.set(key, value);
        return refused ? ctx.err(refused) : ctx.out(`${c.green}✓${c.reset} ${key} = ${String(s.get(key))}`);
      }
      ctx.err('usage: config get [key] | config set <key> <value>');
    },
  },
  reboot: {
    usage: 'reboot',
    help: 'restart the mower (ends this session)',
    run(ctx) {
      ctx.out(`${c.yellow}Rebooting…${c.reset}`);
      ctx.mower.reboot(500);
      ctx.exit();
    },
  },
  uptime: {
    usage: 'uptime',
    help: 'time since the last boot',
    run(ctx) {
      ctx.out(`up ${duration(ctx.mower.uptimeS())}`);
    },
  },
  ota: {
    usage: 'ota status',
    help: 'firmware update state',
    run(ctx, args) {
      if (args[0] !== 'status') return ctx.err('usage: ota status');
      const o = ctx.mower.ota();
      kv(ctx, 'running', ctx.mower.firmware());
      kv(ctx, 'update', o.state);
      if (o.version) kv(ctx, 'target', o.version);
      if (o.progress !== null) kv(ctx, 'progress', `${o.progress}%`);
    },
  },
  ls: {
    usage: 'ls [path]',
    help: 'list a directory',
    run(ctx, args) {
      const target = resolvePath(ctx.cwd, args[0] ?? '.');
      const node = lookup(mowerFileSystem(ctx.mower), target);
      if (!node) return ctx.err(`ls: ${args[0]}: no such file or directory`);
      if (!isDir(node)) return ctx.out(target.split('/').pop());
      const names = Object.keys(node.dir).sort();
      ctx.out(names.map((n) => (isDir(node.dir[n]) ? `${c.blue}${c.bold}${n}/${c.reset}` : n)).join('  '));
    },
  },
  cat: {
    usage: 'cat <file>',
    help: 'print a file',
    run(ctx, args) {
      if (!args[0]) return ctx.err('usage: cat <file>');
      const node = lookup(mowerFileSystem(ctx.mower), resolvePath(ctx.cwd, args[0]));
      if (!node) return ctx.err(`cat: ${args[0]}: no such file or directory`);
      if (isDir(node)) return ctx.err(`cat: ${args[0]}: is a directory`);
      const text = node.file();
      for (const line of text.replace(/\n$/, '').split('\n')) ctx.out(line);
    },
  },
  cd: {
    usage: 'cd [dir]',
    help: 'change directory (default /home/root)',
    run(ctx, args) {
      const target = resolvePath(ctx.cwd, args[0] ?? '/home/root');
      if (!isDir(lookup(mowerFileSystem(ctx.mower), target))) return ctx.err(`cd: ${args[0]}: not a directory`);
      ctx.cwd = target;
    },
  },
  pwd: { usage: 'pwd', help: 'current directory', run: (ctx) => ctx.out(ctx.cwd) },
  whoami: { usage: 'whoami', help: 'who opened this session', run: (ctx) => ctx.out(ctx.user || 'service') },
  echo: { usage: 'echo [text]', help: 'print text', run: (ctx, args) => ctx.out(args.join(' ')) },
  date: { usage: 'date', help: 'device clock (UTC)', run: (ctx) => ctx.out(new Date().toUTCString()) },
  clear: { usage: 'clear', help: 'clear the screen', run: (ctx) => ctx.clear() },
  exit: { usage: 'exit', help: 'leave the shell', run: (ctx) => ctx.exit() },
};

/** Splits a line into words; double or single quotes group words. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3] ?? '');
  return words;
}

export function runCommand(ctx: CommandContext, line: string): void {
  const [name, ...args] = splitWords(line);
  if (!name) return;
  const cmd = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!cmd) return ctx.err(`${name}: command not found (type ${c.bold}help${c.reset}${c.red})`);
  cmd.run(ctx, args);
}
