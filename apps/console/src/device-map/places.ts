import { Marker, type Map as MapLibreMap } from 'maplibre-gl';
import { deviceMapApi } from '@mowerline/contract';
import { call } from '../api/endpoint-client.ts';

/** From this zoom on the offline base shows place names (below it, countries are enough). */
export const PLACE_ZOOM = 5;
/** Names per view: enough to orient, few enough to stay readable and cheap as HTML markers. */
const PER_VIEW = 40;

/**
 * Place names over the offline base (it has no glyphs, so names are HTML like the fleet's
 * markers): the most populous places of the view, asked from the server's gazetteer on each move.
 */
export class PlaceLayer {
  private markers: Marker[] = [];
  private ticket = 0;

  constructor(private readonly map: MapLibreMap) {}

  async update(): Promise<void> {
    const ticket = ++this.ticket;
    if (this.map.getZoom() < PLACE_ZOOM) return this.show(ticket, []);
    const b = this.map.getBounds();
    const wrap = (lng: number) => ((((lng + 180) % 360) + 360) % 360) - 180;
    const query = { west: wrap(b.getWest()), east: wrap(b.getEast()), south: Math.max(-90, b.getSouth()), north: Math.min(90, b.getNorth()), limit: PER_VIEW };
    const places = await call(deviceMapApi.places, { query }, { silent: true }).catch(() => undefined);
    if (places) this.show(ticket, places.list);
  }

  private show(ticket: number, places: Array<{ name: string; lat: number; lng: number }>): void {
    // Only the latest view is drawn: a slow answer never replaces a newer one.
    if (ticket !== this.ticket) return;
    for (const m of this.markers) m.remove();
    this.markers = places.map((p) => {
      const element = document.createElement('div');
      element.className = 'map-place';
      element.dataset.testid = 'map-place';
      element.textContent = p.name;
      return new Marker({ element, anchor: 'center' }).setLngLat([p.lng, p.lat]).addTo(this.map);
    });
  }

  clear(): void {
    this.ticket++;
    for (const m of this.markers) m.remove();
    this.markers = [];
  }
}
