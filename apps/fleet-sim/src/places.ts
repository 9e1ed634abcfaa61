/** Cities with gardens, in the platform's two regions; mowers are placed around them with jitter. */
export interface Place {
  city: string;
  lat: number;
  lng: number;
  region: 'europe' | 'asia';
  /** Where the owners of these gardens live: ISO country, IANA time zone, app language. */
  country: string;
  timeZone: string;
  locale: 'zh-CN' | 'en-US';
}

export const places: readonly Place[] = [
  { city: 'Stockholm', lat: 59.3293, lng: 18.0686, region: 'europe', country: 'SE', timeZone: 'Europe/Stockholm', locale: 'en-US' },
  { city: 'Gothenburg', lat: 57.7089, lng: 11.9746, region: 'europe', country: 'SE', timeZone: 'Europe/Stockholm', locale: 'en-US' },
  { city: 'Copenhagen', lat: 55.6761, lng: 12.5683, region: 'europe', country: 'DK', timeZone: 'Europe/Copenhagen', locale: 'en-US' },
  { city: 'Hamburg', lat: 53.5511, lng: 9.9937, region: 'europe', country: 'DE', timeZone: 'Europe/Berlin', locale: 'en-US' },
  { city: 'Berlin', lat: 52.52, lng: 13.405, region: 'europe', country: 'DE', timeZone: 'Europe/Berlin', locale: 'en-US' },
  { city: 'Amsterdam', lat: 52.3676, lng: 4.9041, region: 'europe', country: 'NL', timeZone: 'Europe/Amsterdam', locale: 'en-US' },
  { city: 'London', lat: 51.5072, lng: -0.1276, region: 'europe', country: 'GB', timeZone: 'Europe/London', locale: 'en-US' },
  { city: 'Paris', lat: 48.8566, lng: 2.3522, region: 'europe', country: 'FR', timeZone: 'Europe/Paris', locale: 'en-US' },
  { city: 'Munich', lat: 48.1351, lng: 11.582, region: 'europe', country: 'DE', timeZone: 'Europe/Berlin', locale: 'en-US' },
  { city: 'Vienna', lat: 48.2082, lng: 16.3738, region: 'europe', country: 'AT', timeZone: 'Europe/Vienna', locale: 'en-US' },
  { city: 'Zurich', lat: 47.3769, lng: 8.5417, region: 'europe', country: 'CH', timeZone: 'Europe/Zurich', locale: 'en-US' },
  { city: 'Milan', lat: 45.4642, lng: 9.19, region: 'europe', country: 'IT', timeZone: 'Europe/Rome', locale: 'en-US' },
  { city: 'Tokyo', lat: 35.6762, lng: 139.6503, region: 'asia', country: 'JP', timeZone: 'Asia/Tokyo', locale: 'en-US' },
  { city: 'Osaka', lat: 34.6937, lng: 135.5023, region: 'asia', country: 'JP', timeZone: 'Asia/Tokyo', locale: 'en-US' },
  { city: 'Seoul', lat: 37.5665, lng: 126.978, region: 'asia', country: 'KR', timeZone: 'Asia/Seoul', locale: 'en-US' },
  { city: 'Shanghai', lat: 31.2304, lng: 121.4737, region: 'asia', country: 'CN', timeZone: 'Asia/Shanghai', locale: 'zh-CN' },
  { city: 'Hangzhou', lat: 30.2741, lng: 120.1551, region: 'asia', country: 'CN', timeZone: 'Asia/Shanghai', locale: 'zh-CN' },
  { city: 'Shenzhen', lat: 22.5431, lng: 114.0579, region: 'asia', country: 'CN', timeZone: 'Asia/Shanghai', locale: 'zh-CN' },
  { city: 'Taipei', lat: 25.033, lng: 121.5654, region: 'asia', country: 'TW', timeZone: 'Asia/Taipei', locale: 'zh-CN' },
  { city: 'Singapore', lat: 1.3521, lng: 103.8198, region: 'asia', country: 'SG', timeZone: 'Asia/Singapore', locale: 'en-US' },
];
