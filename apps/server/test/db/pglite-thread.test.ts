import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGliteThread } from '../../src/db/pglite-thread.ts';

describe('PGlite on its own thread', () => {
  let db: PGliteThread;
  beforeAll(async () => {
    db = await PGliteThread.create('memory://');
    await db.exec('create table t (id int primary key, note text, at timestamptz, data bytea)');
  }, 60_000);
  afterAll(() => db.close());

  it('answers queries with parameters, in object or array rows, with types returned raw on request', async () => {
    await db.query('insert into t values ($1, $2, $3, $4)', [1, 'one', new Date('2026-01-02T03:04:05Z'), new Uint8Array([0, 1, 255])]);
    const objects = await db.query<{ id: number; note: string; at: Date; data: Uint8Array }>('select * from t where id = $1', [1]);
    expect(objects.rows[0]).toMatchObject({ id: 1, note: 'one' });
    expect(objects.rows[0]!.at.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect([...objects.rows[0]!.data]).toEqual([0, 1, 255]);
    // drizzle asks for timestamps as text (a pass-through parser for type 1184).
    const arrays = await db.query<unknown[]>('select id, at from t', [], { rowMode: 'array', parsers: { 1184: (v: string) => v } });
    expect(arrays.rows[0]![0]).toBe(1);
    expect(typeof arrays.rows[0]![1]).toBe('string');
  });

  it('keeps the database error fields, so a unique violation is recognisable', async () => {
    const err = (await db.query('insert into t (id) values (1)').catch((e: unknown) => e)) as Error & { code?: string; constraint?: string };
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe('23505');
    expect(err.message).toMatch(/duplicate key/);
  });

  it('commits and rolls back transactions, and statements from outside wait for them', async () => {
    await db.transaction(async (tx) => {
      await tx.query('insert into t (id, note) values (2, $1)', ['two']);
      await tx.exec("insert into t (id, note) values (3, 'three')");
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into t (id, note) values (4, $1)', ['four']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await db.query<{ id: number }>('select id from t order by id')).rows.map((r) => r.id)).toEqual([1, 2, 3]);

    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const order: string[] = [];
    const inside = db.transaction(async (tx) => {
      await tx.query('update t set note = $1 where id = 1', ['changed']);
      order.push('tx wrote');
      await held;
      order.push('tx ends');
    });
    await new Promise((r) => setTimeout(r, 50));
    const outside = db.query<{ note: string }>('select note from t where id = 1').then((r) => {
      order.push('outside read');
      return r.rows[0]!.note;
    });
    await new Promise((r) => setTimeout(r, 100));
    release();
    await inside;
    expect(await outside).toBe('changed');
    expect(order).toEqual(['tx wrote', 'tx ends', 'outside read']);
  });

  it('fails every call clearly once closed', async () => {
    const other = await PGliteThread.create('memory://');
    await other.close();
    await expect(other.query('select 1')).rejects.toThrow(/database thread stopped/);
  });
});
