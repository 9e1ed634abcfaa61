import { Marker, type Map as MapLibreMap } from 'maplibre-gl';
import { deviceMapApi } from '@mowerline/contract';
import { call } from '../api/endpoint-client.ts';
import { nearestPlace, type Place } from './nearest-place.ts';

/** From this zoom on the offline base shows place names (below it, countries are enough). */
export const PLACE_ZOOM = 5;
/** Names per view: enough to orient, few enough to stay readable and cheap as HTML markers. */
const PER_VIEW = 40;
/** Half-sizes (degrees) of the boxes searched around a view that holds no place, nearest first. */
const NEAR_STEPS = [0.25, 1, 3];

/**
 * Place names over the offline base (it has no glyphs, so names are HTML like the fleet's
 * markers): the most populous places of the view, asked from the server's gazetteer on each move.
 */
export class PlaceLayer {
  private markers: Marker[] = [];
  private ticket = 0;
  /** "Near Stockholm · 3 km": a garden-sized view usually holds no place of its own. */
  private readonly near: HTMLDivElement;

  constructor(
    private readonly map: MapLibreMap,
    private readonly nearLabel: (name: string, km: number) => string,
  ) {
    this.near = document.createElement('div');
    this.near.className = 'map-near-place';
    this.near.dataset.testid = 'map-near-place';
    this.near.hidden = true;
    map.getContainer().appendChild(this.near);
  }

  async update(): Promise<void> {
    const ticket = ++this.ticket;
    if (this.map.getZoom() < PLACE_ZOOM) return this.show(ticket, []);
    const b = this.map.getBounds();
    const places = await this.placesIn(b.getWest(), b.getSouth(), b.getEast(), b.getNorth());
    if (!places) return;
    let near: { place: Place; km: number } | undefined;
    if (places.length === 0) {
      const c = this.map.getCenter();
      for (const d of NEAR_STEPS) {
        const around = await this.placesIn(c.lng - d, c.lat - d, c.lng + d, c.lat + d);
        near = around && nearestPlace({ lat: c.lat, lng: c.lng }, around);
        if (near || ticket !== this.ticket) break;
      }
    }
    this.show(ticket, places, near);
  }

  private async placesIn(west: number, south: number, east: number, north: number): Promise<Place[] | undefined> {
    const wrap = (lng: number) => ((((lng + 180) % 360) + 360) % 360) - 180;
    const query = { west: wrap(west), east: wrap(east), south: Math.max(-90, south), north: Math.min(90, north), limit: PER_VIEW };
    return (await call(deviceMapApi.places, { query }, { silent: true }).catch(() => undefined))?.list;
  }

  private show(ticket: number, places: Place[], near?: { place: Place; km: number }): void {
    // Only the latest view is drawn: a slow answer never replaces a newer one.
    if (ticket !== this.ticket) return;
    this.near.hidden = !near;
    this.near.textContent = near ? this.nearLabel(near.place.name, near.km) : '';
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
    this.near.remove();
    for (const m of this.markers) m.remove();
    this.markers = [];
  }
}
