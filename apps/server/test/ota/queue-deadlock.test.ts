import { describe, expect, it } from 'vitest';
import { createQueueRetryingDeadlock } from '../../src/ota/engine.ts';

const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

describe('the OTA queue at start-up with several nodes', () => {
  it('retries createQueue when PostgreSQL aborted it as a deadlock victim', async () => {
    let calls = 0;
    await createQueueRetryingDeadlock(async () => {
      if (++calls === 1) throw deadlock();
    });
    expect(calls).toBe(2);
  });

  it('gives up after three deadlocks, and never retries another error', async () => {
    let calls = 0;
    await expect(createQueueRetryingDeadlock(async () => (calls++, Promise.reject(deadlock())))).rejects.toThrow('deadlock');
    expect(calls).toBe(3);
    calls = 0;
    await expect(createQueueRetryingDeadlock(async () => (calls++, Promise.reject(new Error('permission denied'))))).rejects.toThrow('permission');
    expect(calls).toBe(1);
  });
});
