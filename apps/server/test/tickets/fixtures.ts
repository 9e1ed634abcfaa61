import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AppTicketDetail } from '@mowerline/contract';
import { answerProblem } from '../answer-check.ts';
import type { TestServer } from '../harness.ts';
import type { SmtpReceiver } from '../smtp.ts';
import type { InboundListener } from '../../src/tickets/inbound-mail.ts';
import { operatorToken } from '../devices/fixtures.ts';
import { confirmedAppUser, createModelAndSn, startEndUserServer } from '../end-users/fixtures.ts';

export const newSn = (prefix = 'TKT') => `${prefix}${randomBytes(4).toString('hex').toUpperCase()}`;

/** A server with a data directory of its own (attachments land under it) and mail to `smtp`. */
export async function startTicketServer(smtp: SmtpReceiver, config: Record<string, unknown> = {}) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'mowerline-tickets-'));
  const server = await startEndUserServer(smtp, { config: { dataDir, ...config } });
  const admin = await server.login();
  const operator = await operatorToken(server, admin);
  return {
    server,
    dataDir,
    admin,
    operator,
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** An app user with a mower of their own (bound with its pairing code). */
export async function ownerWithMower(server: TestServer, admin: string, name = 'Ann') {
  const user = await confirmedAppUser(server, admin, { name });
  const { sn, pairingCode } = await createModelAndSn(server, admin, newSn());
  const bound = await server.api('POST', '/api/app/v1/devices/bind', { token: user.token, body: { sn, pairingCode } });
  if (bound.body.code !== 0) throw new Error(JSON.stringify(bound.body));
  return { ...user, sn };
}

export interface UploadAnswer {
  status: number;
  body: { code: number; msg: string; data: AppTicketDetail; status: string };
}

/** POST /api/app/v1/feedback as multipart: the fields, then the files; the answer checked against the contract. */
export async function fileFeedback(
  server: TestServer,
  token: string,
  fields: Record<string, string>,
  files: Array<{ name: string; bytes: Uint8Array; type?: string }>,
  headers: Record<string, string> = {},
): Promise<UploadAnswer> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append('file', new Blob([f.bytes], { type: f.type ?? 'application/octet-stream' }), f.name);
  const res = await fetch(`${server.url}/api/app/v1/feedback`, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...headers }, body: form });
  const body = (await res.json()) as UploadAnswer['body'];
  const problem = answerProblem('POST', '/api/app/v1/feedback', res.status, body);
  if (problem) throw new Error(problem);
  return { status: res.status, body };
}

/** Every file under DATA_DIR/files (relative paths), to show a refusal left nothing behind. */
export async function storedFiles(dataDir: string): Promise<string[]> {
  const root = path.join(dataDir, 'files');
  try {
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name))).sort();
  } catch {
    return [];
  }
}

/** GET a download with a token: status and bytes. */
export async function download(server: TestServer, url: string, token: string) {
  const res = await fetch(server.url + url, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** The running inbound SMTP listener of a server started with INBOUND_SMTP enabled. */
export function inboundOf(server: TestServer) {
  const tickets = server.modules.find((m) => m.name === 'tickets') as (TestServer['modules'][number] & { inbound(): InboundListener | undefined }) | undefined;
  const listener = tickets?.inbound();
  if (!listener) throw new Error('the inbound mail listener is not running');
  return listener;
}
