// The console's composition root. Arco's React 19 adapter must load before anything renders.
import '@arco-design/web-react/es/_util/react-19-adapter';
import '@arco-design/web-react/es/style/index.css';
import { createRoot } from 'react-dom/client';
import { config as zodConfig } from 'zod';

// The contract's schemas run without zod's JIT: its probe for `new Function` is an eval the CSP
// refuses (script-src 'self'), reported as a violation on every page. zod probes when a schema is
// built, and the contract's endpoint tables build theirs on import: so the app (and with it the
// contract) is imported only once zod is configured.
zodConfig({ jitless: true });

void import('./app/App.tsx').then(({ App }) => createRoot(document.getElementById('root')!).render(<App />));
