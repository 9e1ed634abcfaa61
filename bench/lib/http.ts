import autocannon, { type Result } from 'autocannon';
import { ADMIN } from '../../apps/server/test/harness.ts';

/** The bench administrator's access token (the server runs with the test harness's credentials). */
export async function signIn(apiUrl: string): Promise<string> {
  const res = await fetch(`${apiUrl}/api/admin/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  return ((await res.json()) as { data: { access_token: string } }).data.access_token;
}

/** One GET whose envelope must be a success; `headers` adds e.g. the SQL-capture mark. */
export async function getBody(apiUrl: string, p: string, token: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(apiUrl + p, { headers: { authorization: `Bearer ${token}`, ...headers } });
  const text = await res.text();
  if ((JSON.parse(text) as { code: number }).code !== 0) throw new Error(`${p}: ${text.slice(0, 300)}`);
  return text;
}

/** `connections` clients GETting `pathOf()` for `durationS` seconds. */
export function cannon(url: string, token: string | undefined, pathOf: () => string, connections: number, durationS: number): Promise<Result> {
  return autocannon({
    url,
    connections,
    duration: durationS,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: pathOf() }) }],
  });
}
