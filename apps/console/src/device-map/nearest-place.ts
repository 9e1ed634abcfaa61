/** Which place names a garden-sized view: pure geometry, no map or network. */

export type Place = { name: string; lat: number; lng: number };

/** Great-circle distance in km (haversine). */
export function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** The place nearest to `centre` among `places`, with its distance. */
export function nearestPlace(centre: { lat: number; lng: number }, places: Place[]): { place: Place; km: number } | undefined {
  let best: { place: Place; km: number } | undefined;
  for (const place of places) {
    const km = distanceKm(centre, place);
    if (!best || km < best.km) best = { place, km };
  }
  return best;
}
