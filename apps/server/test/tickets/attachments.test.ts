import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors, type TicketDetail } from '@mowerline/contract';
import { eraseDueAccounts } from '../../src/end-users/admin.service.ts';
import { appUsers } from '../../src/end-users/end-users.sql.ts';
import { sweepDeletedFiles } from '../../src/tickets/attachments.ts';
import { ticketAttachments, tickets } from '../../src/tickets/tickets.sql.ts';
import type { TestServer } from '../harness.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../smtp.ts';
import { confirmedAppUser } from '../end-users/fixtures.ts';
import { download, fileFeedback, startTicketServer, storedFiles } from './fixtures.ts';

const fields = { category: 'device', title: 'Screenshot', description: 'see the picture' };

/** A 64×48 JPEG whose EXIF says "rotate 90°" and carries a tell-tale string. */
async function exifJpeg(): Promise<Uint8Array> {
  const buf = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD0: { Copyright: 'GPS-OWNER-SECRET' } })
    .toBuffer();
  return new Uint8Array(buf);
}

describe('ticket attachments: sniffed, re-encoded without EXIF, thumbnailed; refusals leave nothing', { timeout: 240_000 }, () => {
  let smtp: SmtpReceiver;
  let env: Awaited<ReturnType<typeof startTicketServer>>;
  let server: TestServer;
  let user: { token: string; id: number };
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    env = await startTicketServer(smtp, { ticketAttachmentMaxMb: 1 });
    server = env.server;
    user = await confirmedAppUser(server, env.admin, { name: 'Pia' });
  });
  afterAll(async () => {
    await env?.close();
    await smtp?.close();
  });

  const rowsOf = async () => ({
    tickets: (await server.ctx.db.select({ n: count() }).from(tickets).where(eq(tickets.userId, user.id)))[0]!.n,
    attachments: (await server.ctx.db.select({ n: count() }).from(ticketAttachments))[0]!.n,
  });

  it('stores a screenshot without EXIF, upright, with a thumbnail, and a UTF-8 log; both sides can download', async () => {
    const jpeg = await exifJpeg();
    expect(Buffer.from(jpeg).includes('GPS-OWNER-SECRET')).toBe(true);
    expect((await sharp(jpeg).metadata()).orientation).toBe(6);
    const log = new TextEncoder().encode('2026-11-23 boot ok\nmotor: überlast ✓\n');
    const res = await fileFeedback(server, user.token, fields, [
      // Names and claimed types are not believed: the bytes decide.
      { name: 'photo.txt', bytes: jpeg, type: 'text/plain' },
      { name: '../../etc/mower.log', bytes: log },
    ]);
    expect(res.body.code).toBe(0);
    const [img, txt] = res.body.data.attachments;
    expect(img).toMatchObject({ name: 'photo.txt', mime: 'image/jpeg', thumbnail: true });
    expect(txt).toMatchObject({ name: 'mower.log', mime: 'text/plain', thumbnail: false, size: log.length });

    const got = await download(server, `/api/app/v1/feedback/${res.body.data.id}/attachment/${img!.id}`, user.token);
    expect(got.status).toBe(200);
    expect(got.contentType).toContain('application/octet-stream');
    expect(Buffer.from(got.bytes).includes('GPS-OWNER-SECRET')).toBe(false);
    const meta = await sharp(got.bytes).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 48, height: 64 });
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();

    const thumb = await download(server, `/api/admin/ticket/${res.body.data.id}/attachment/${img!.id}?thumbnail=true`, env.operator);
    expect((await sharp(thumb.bytes).metadata()).format).toBe('webp');
    const text = await download(server, `/api/admin/ticket/${res.body.data.id}/attachment/${txt!.id}`, env.operator);
    expect(new TextDecoder().decode(text.bytes)).toBe(new TextDecoder().decode(log));

    const staff = (await server.api<TicketDetail>('GET', `/api/admin/ticket/${res.body.data.id}`, { token: env.operator })).body.data;
    expect(staff.attachments.map((a) => a.mime)).toEqual(['image/jpeg', 'text/plain']);
    // Another user's token gets nothing.
    const eve = await confirmedAppUser(server, env.admin, { name: 'Eve' });
    expect((await download(server, `/api/app/v1/feedback/${res.body.data.id}/attachment/${img!.id}`, eve.token)).status).toBe(404);
  });

  it('refuses oversized, disguised, binary and too many files, with nothing left on disk or in the database', async () => {
    const before = await storedFiles(env.dataDir);
    const rows = await rowsOf();
    const png = new Uint8Array(await sharp({ create: { width: 8, height: 8, channels: 3, background: '#00ff00' } }).png().toBuffer());
    const exe = new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, ...new Array(200).fill(0x41)]);
    // A PNG signature in front of bytes that are not an image.
    const fakePng = new Uint8Array([...png.subarray(0, 16), ...new Array(300).fill(0x42)]);
    const latin1 = new Uint8Array([0x68, 0xe9, 0x6c, 0x6c, 0x6f, 0x0a]);
    const nul = new TextEncoder().encode('text\u0000with a NUL');
    const big = new Uint8Array(1024 * 1024 + 1).fill(0x61);
    const cases: Array<{ what: string; files: Array<{ name: string; bytes: Uint8Array }>; key: keyof typeof errors; status: number }> = [
      { what: 'an executable named .png', files: [{ name: 'ok.png', bytes: png }, { name: 'cat.png', bytes: exe }], key: 'TICKET_ATTACHMENT_BAD_TYPE', status: 415 },
      { what: 'a broken image', files: [{ name: 'ok.png', bytes: png }, { name: 'x.png', bytes: fakePng }], key: 'TICKET_ATTACHMENT_BAD_TYPE', status: 415 },
      { what: 'text that is not UTF-8', files: [{ name: 'a.log', bytes: latin1 }], key: 'TICKET_ATTACHMENT_BAD_TYPE', status: 415 },
      { what: 'text with a NUL', files: [{ name: 'a.log', bytes: nul }], key: 'TICKET_ATTACHMENT_BAD_TYPE', status: 415 },
      { what: 'a file over the limit', files: [{ name: 'ok.png', bytes: png }, { name: 'big.log', bytes: big }], key: 'TICKET_ATTACHMENT_TOO_LARGE', status: 413 },
      { what: 'seven files', files: Array.from({ length: 7 }, (_, i) => ({ name: `s${i}.png`, bytes: png })), key: 'TICKET_TOO_MANY_ATTACHMENTS', status: 400 },
    ];
    for (const c of cases) {
      const res = await fileFeedback(server, user.token, fields, c.files);
      expect(res.body.code, c.what).toBe(errors[c.key].code);
      expect(res.status, c.what).toBe(c.status);
      expect(await storedFiles(env.dataDir), c.what).toEqual(before);
      expect(await rowsOf(), c.what).toEqual(rows);
    }
    // Valid files but invalid fields: the files go too.
    const bad = await fileFeedback(server, user.token, { ...fields, category: 'nonsense' }, [{ name: 'ok.png', bytes: png }]);
    expect(bad.body.code).toBe(errors.VALIDATION.code);
    expect(await storedFiles(env.dataDir)).toEqual(before);
    // A mower that is not the user's, after the files were stored: nothing remains either.
    const foreign = await fileFeedback(server, user.token, { ...fields, sn: 'NOTMINE0001' }, [{ name: 'ok.png', bytes: png }]);
    expect(foreign.body.code).toBe(errors.APP_DEVICE_NOT_FOUND.code);
    expect(await storedFiles(env.dataDir)).toEqual(before);
    expect(await rowsOf()).toEqual(rows);
  });

  it("removes an erased account's files from disk, and only theirs", async () => {
    const png = new Uint8Array(await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0000ff' } }).png().toBuffer());
    const leaving = await confirmedAppUser(server, env.admin, { name: 'Leaving' });
    const before = await storedFiles(env.dataDir);
    const filed = await fileFeedback(server, leaving.token, fields, [{ name: 'mine.png', bytes: png }]);
    expect(filed.body.code).toBe(0);
    const mine = (await storedFiles(env.dataDir)).filter((f) => !before.includes(f));
    // The image and its thumbnail.
    expect(mine).toHaveLength(2);
    await server.ctx.db.update(appUsers).set({ status: 'deletion_pending', deletionAt: new Date(Date.now() - 1000) }).where(eq(appUsers.id, leaving.id));
    expect(await eraseDueAccounts(server.ctx)).toContain(leaving.id);
    // The rows went with the account in one transaction; the database queued the files.
    expect(await server.ctx.db.select().from(ticketAttachments).where(eq(ticketAttachments.ticketId, filed.body.data.id))).toEqual([]);
    expect(await sweepDeletedFiles(server.ctx.db, env.dataDir)).toBe(2);
    expect(await storedFiles(env.dataDir)).toEqual(before);
    expect(await sweepDeletedFiles(server.ctx.db, env.dataDir)).toBe(0);
  });
});
