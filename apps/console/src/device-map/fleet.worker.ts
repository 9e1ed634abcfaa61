import { FleetIndex } from './fleet-index.ts';
import type { FleetRequest, FleetResponse } from './fleet-protocol.ts';

// Clustering 100,000 devices takes a second: it happens here, never on the page's thread.
// The state list arrives in `init`, so the worker bundle carries no contract (zod) code.
let fleet = new FleetIndex(0);
// Until the first snapshot the fleet is unknown, not empty: a filter then must not report "no devices".
let received = false;
// The console compiles against the DOM library; this is the slice of the worker scope used here.
const scope = self as unknown as { postMessage(message: FleetResponse): void; onmessage: ((event: MessageEvent<FleetRequest>) => void) | null };
const reply = (message: FleetResponse) => scope.postMessage(message);

scope.onmessage = (event: MessageEvent<FleetRequest>) => {
  const m = event.data;
  switch (m.type) {
    case 'init':
      fleet = new FleetIndex(m.stateCount);
      break;
    case 'positions':
      received = true;
      if (fleet.merge(m.data) || m.data.full) {
        reply({ type: 'changed', size: fleet.size, counts: fleet.stateCounts() });
        // Index while the page is still busy (the map may not even be loaded yet): the view asked next finds it ready.
        fleet.prepare();
      }
      break;
    case 'filter':
      fleet.setFilter(m.states);
      if (!received) break;
      reply({ type: 'changed', size: fleet.size, counts: fleet.stateCounts() });
      fleet.prepare();
      break;
    case 'view':
      reply({ type: 'view', id: m.id, items: fleet.view(m.bbox, m.zoom) });
      break;
    case 'expand':
      reply({ type: 'expand', id: m.id, zoom: fleet.expansionZoom(m.clusterId) });
      break;
  }
};
