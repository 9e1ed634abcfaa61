import { describe, expect, it } from 'vitest';
import { encodePolyline, pauseReasons, runResults, runStatuses, runTriggers, syncStates, taskFaultCatalogue, cuttingPatterns } from '@mowerline/contract';
import zh from './locale/zh-CN.ts';
import en from './locale/en-US.ts';
import { eventText, faultLabel, reportWindow, slotProblem } from './labels.ts';
import { runGeoJson } from './run-geo.ts';

const dictionaries = { 'zh-CN': zh, 'en-US': en } as Record<string, Record<string, string>>;

describe('task labels', () => {
  it.each(Object.keys(dictionaries))('names every trigger, result, status, pause reason, sync state, pattern and severity in %s', (locale) => {
    const strings = dictionaries[locale]!;
    for (const v of runTriggers) expect(strings[`task.trigger.${v}`], v).toBeTruthy();
    for (const v of runResults) expect(strings[`task.result.${v}`], v).toBeTruthy();
    for (const v of runStatuses) expect(strings[`task.status.${v}`], v).toBeTruthy();
    for (const v of pauseReasons) expect(strings[`task.pause.${v}`], v).toBeTruthy();
    for (const v of syncStates) expect(strings[`task.sync.${v}`], v).toBeTruthy();
    for (const v of cuttingPatterns) expect(strings[`task.pattern.${v}`], v).toBeTruthy();
    for (const v of new Set(Object.values(taskFaultCatalogue).map((f) => f.severity))) expect(strings[`task.severity.${v}`], v).toBeTruthy();
    for (const key of ['menu.task', 'menu.task.overview', 'menu.task.list', 'menu.task.record', 'menu.task.fault']) expect(strings[key], key).toBeTruthy();
  });

  it('sends the spec window: the start of the day 30 days ago to 23:59:59 today, in local calendar days', () => {
    const now = new Date(2026, 3, 15, 13, 45, 10); // 15 April, local time
    const { start_time, end_time } = reportWindow(now);
    expect(new Date(start_time * 1000)).toEqual(new Date(2026, 2, 16, 0, 0, 0));
    expect(new Date(end_time * 1000)).toEqual(new Date(2026, 3, 15, 23, 59, 59));
    expect(Number.isInteger(start_time) && Number.isInteger(end_time)).toBe(true);
  });

  it('shows unknown fault codes as "unknown code X", known ones by title', () => {
    expect(faultLabel('NOT_A_CODE', 'en-US')).toMatchObject({ known: false, title: 'unknown code NOT_A_CODE' });
    expect(faultLabel('NOT_A_CODE', 'zh-CN').title).toContain('NOT_A_CODE');
    expect(faultLabel('BLADE_BLOCKED', 'en-US')).toMatchObject({ known: true, title: 'Blade blocked' });
  });

  it('tells a charging pause from an end in the timeline', () => {
    const t = (key: string, params?: Record<string, string | number>) => (en[key as keyof typeof en] ?? key).replace(/\{(\w+)\}/g, (_, n: string) => String(params?.[n] ?? ''));
    expect(eventText({ seq: 3, type: 'paused', at: '', detail: { reason: 'charging', battery: 12 } }, t, 'en-US')).toBe('Paused: Charging (battery 12%)');
    expect(eventText({ seq: 9, type: 'ended', at: '', detail: { result: 'completed' } }, t, 'en-US')).toBe('Ended: Completed');
    expect(eventText({ seq: 4, type: 'paused', at: '', detail: { reason: 'lunch' } }, t, 'en-US')).toBe('Paused: lunch');
  });

  it('checks slot format, order and overlap per weekday', () => {
    const slots = [
      { weekday: 1, start: '08:00', end: '10:00' },
      { weekday: 1, start: '09:30', end: '11:00' },
      { weekday: 2, start: '09:30', end: '24:00' },
      { weekday: 3, start: '12:00', end: '11:00' },
      { weekday: 4, start: '8:00', end: '11:00' },
      { weekday: 5, start: '10:00', end: '12:00' },
      { weekday: 5, start: '12:00', end: '13:00' },
    ];
    expect(slotProblem(slots, 0)?.key).toBe('taskSchedule.validate.overlap');
    expect(slotProblem(slots, 1)?.key).toBe('taskSchedule.validate.overlap');
    expect(slotProblem(slots, 2)).toBeUndefined();
    expect(slotProblem(slots, 3)?.key).toBe('taskSchedule.validate.order');
    expect(slotProblem(slots, 4)?.key).toBe('taskSchedule.validate.time');
    expect(slotProblem(slots, 5)).toBeUndefined();
    expect(slotProblem(slots, 6)).toBeUndefined();
  });

  it('decodes the path and closes the zones for the map', () => {
    const path = encodePolyline([
      [52.5, 13.4],
      [52.5001, 13.4002],
      [52.5002, 13.4001],
    ]);
    const zones = [{ id: 'front', name: 'Front', polygon: [{ lat: 52.5, lng: 13.4 }, { lat: 52.5, lng: 13.401 }, { lat: 52.501, lng: 13.401 }], areaM2: 80, lastMowedAt: null, lastRunId: null, lastRunResult: null, lastRunAt: null }];
    const geo = runGeoJson(path, zones, ['back']);
    expect(geo.points).toBe(3);
    expect(geo.line.features[0]!.geometry).toMatchObject({ type: 'LineString', coordinates: [[13.4, 52.5], [13.4002, 52.5001], [13.4001, 52.5002]] });
    const ring = (geo.zones.features[0]!.geometry as GeoJSON.Polygon).coordinates[0]!;
    expect(ring.at(-1)).toEqual(ring[0]);
    expect(geo.zones.features[0]!.properties).toMatchObject({ inRun: false });
    expect(runGeoJson('', zones, []).zones.features[0]!.properties).toMatchObject({ inRun: true });
    expect(runGeoJson('', [], []).bounds).toEqual([]);
  });
});
