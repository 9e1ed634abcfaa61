import type { MowerView } from './mower-view.ts';

/** A file's content is computed when read, from the mower's live state. */
type Node = { dir: Record<string, Node> } | { file: () => string };

/** A small read-only file system describing the mower: nothing of the host is ever reachable. */
export function mowerFileSystem(m: MowerView): Node {
  const conf = () =>
    m.settings
      .keys()
      .map((k) => `${k} = ${String(m.settings.get(k))}`)
      .join('\n') + '\n';
  return {
    dir: {
      etc: {
        dir: {
          hostname: { file: () => `${m.sn.toLowerCase()}\n` },
          'mower.conf': { file: conf },
          'os-release': { file: () => `NAME="MowerOS"\nVERSION="${m.firmware()}"\nID=moweros\nPRETTY_NAME="MowerOS ${m.firmware()} (${m.model})"\n` },
        },
      },
      proc: {
        dir: {
          uptime: { file: () => `${m.uptimeS()}.00\n` },
          battery: { file: () => `${m.telemetry().battery}\n` },
        },
      },
      var: { dir: { log: { dir: { 'mower.log': { file: () => m.logs().join('\n') + (m.logs().length ? '\n' : '') } } } } },
      data: {
        dir: {
          'firmware.version': { file: () => `${m.firmware()}\n` },
          'ota.state': { file: () => `${JSON.stringify(m.ota())}\n` },
        },
      },
      home: {
        dir: {
          root: { dir: { README: { file: () => 'Mower service shell. Type `help` for the commands.\n' } } },
        },
      },
    },
  };
}

/** `cwd` + `path` → absolute, normalised (`.`, `..`, repeated slashes). */
export function resolvePath(cwd: string, path: string): string {
  const parts = (path.startsWith('/') ? path : `${cwd}/${path}`).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '' || p === '.') continue;
    if (p === '..') out.pop();
    else out.push(p);
  }
  return `/${out.join('/')}`;
}

export function lookup(root: Node, absolute: string): Node | undefined {
  let node: Node | undefined = root;
  for (const part of absolute.split('/').filter(Boolean)) {
    if (!node || !('dir' in node)) return undefined;
    node = node.dir[part];
  }
  return node;
}

export const isDir = (n: Node | undefined): n is { dir: Record<string, Node> } => !!n && 'dir' in n;
