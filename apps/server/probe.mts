import { startServer } from './test/harness.ts';
const s = await startServer();
const r = await fetch(`${s.url}/api/admin/user/verification-code`, { method: 'POST' });
console.log(r.status, await r.text());
const r2 = await fetch(`${s.url}/api/admin/user/verification-code`, { method: 'POST', headers: {'content-type': 'application/json'} });
console.log(r2.status, await r2.text());
await s.close();
