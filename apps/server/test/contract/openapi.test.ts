import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints, endpointStatuses, errors, productApi } from '@mowerline/contract';
import { startServer, type TestServer } from '../harness.ts';
import { answerProblem } from '../answer-check.ts';

interface Operation {
  responses?: Record<string, unknown>;
  requestBody?: { content?: Record<string, unknown> };
}

/**
 * Issue 11, item 4: the OpenAPI document is generated from the table with every answer. For every
 * endpoint the operation exists with 200 and each status its errors imply, and an upload documents
 * its multipart body. (Answers themselves are checked against the same contract by the harness.)
 */
describe('the OpenAPI document follows the endpoint table', () => {
  let server: TestServer;
  let paths: Record<string, Record<string, Operation>>;
  beforeAll(async () => {
    server = await startServer();
    const res = await fetch(`${server.url}/api/docs/json`);
    expect(res.status).toBe(200);
    paths = ((await res.json()) as { paths: typeof paths }).paths;
  });
  afterAll(() => server?.close());

  for (const [name, def] of allEndpoints()) {
    if (def.websocket) continue; // hidden from the document: it is no HTTP operation
    it(`${name}: ${def.method} ${def.path}`, () => {
      const path = def.path.replace(/:(\w+)/g, '{$1}');
      const operation = paths[path]?.[def.method.toLowerCase()];
      expect(operation, `${def.method} ${path} missing from /api/docs/json`).toBeDefined();
      const documented = Object.keys(operation!.responses ?? {}).sort();
      const expected = ['200', ...[...endpointStatuses(def).keys()].map(String)].sort();
      expect(documented).toEqual([...new Set(expected)].sort());
      if (def.consumes) expect(Object.keys(operation!.requestBody?.content ?? {})).toContain(def.consumes);
    });
  }
});

describe('the answer check itself', () => {
  const url = productApi.updateModel.path.replace(':id', '1');
  const envelope = (key: keyof typeof errors) => ({ code: errors[key].code, msg: 'm', data: null, status: 'fail' });

  it('accepts a documented error and refuses an undocumented status or code, or a malformed body', () => {
    expect(answerProblem('PUT', url, 404, envelope('MODEL_NOT_FOUND'))).toBeUndefined();
    expect(answerProblem('PUT', url, 409, envelope('CONFLICT'))).toMatch(/does not document/);
    expect(answerProblem('PUT', url, 404, envelope('SN_NOT_FOUND'))).toMatch(/code 42003/);
    expect(answerProblem('PUT', url, 400, { code: 40000 })).toMatch(/without an error envelope/);
    expect(answerProblem('PUT', url, 200, { code: 0, msg: 'ok', data: { id: 'x' }, status: 'ok' })).toMatch(/response schema refuses/);
  });
});
