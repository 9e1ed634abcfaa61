import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eventTypeNames, eventTypes } from '@mowerline/contract';
import { eventsDocPath, renderEventsDoc } from '../../../../tools/events-doc.ts';
import { FLEET_EVENT_TYPES, INTEGRATION_EVENT_TYPES, PEOPLE_EVENT_TYPES } from './emitted-types.ts';

describe('the event catalogue', () => {
  it('is what docs/events.md documents (regenerate with `npx tsx tools/events-doc.ts`)', () => {
    expect(readFileSync(eventsDocPath, 'utf8')).toBe(renderEventsDoc());
  });

  it('names types as feature.what_happened, each with a version and a strict payload', () => {
    for (const name of eventTypeNames) {
      expect(name).toMatch(/^[a-z_]+(\.[a-z_]+)+$/);
      expect(eventTypes[name].version).toBeGreaterThanOrEqual(1);
      // An unknown field is refused: a payload change is a deliberate catalogue change.
      expect(eventTypes[name].payload.safeParse({ unexpected: 1 }).success).toBe(false);
    }
  });

  it('is emitted type by type by the emission suites, together', () => {
    expect([...FLEET_EVENT_TYPES, ...PEOPLE_EVENT_TYPES, ...INTEGRATION_EVENT_TYPES].sort()).toEqual([...eventTypeNames].sort());
  });

  it('refuses text PostgreSQL cannot store and text past its bound', () => {
    const at = new Date().toISOString();
    expect(eventTypes['device.connected'].payload.safeParse({ sn: 'SN-1', at }).success).toBe(true);
    expect(eventTypes['device.connected'].payload.safeParse({ sn: 'SN\u00001', at }).success).toBe(false);
    expect(eventTypes['device.connected'].payload.safeParse({ sn: 'S'.repeat(33), at }).success).toBe(false);
  });
});
