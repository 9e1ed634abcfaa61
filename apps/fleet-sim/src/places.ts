/** Cities with gardens, in the platform's two regions; mowers are placed around them with jitter. */
export interface Place {
  city: string;
  lat: number;
  lng: number;
  region: 'europe' | 'asia';
}

export const places: readonly Place[] = [
  { city: 'Stockholm', lat: 59.3293, lng: 18.0686, region: 'europe' },
  { city: 'Gothenburg', lat: 57.7089, lng: 11.9746, region: 'europe' },
  { city: 'Copenhagen', lat: 55.6761, lng: 12.5683, region: 'europe' },
  { city: 'Hamburg', lat: 53.5511, lng: 9.9937, region: 'europe' },
  { city: 'Berlin', lat: 52.52, lng: 13.405, region: 'europe' },
  { city: 'Amsterdam', lat: 52.3676, lng: 4.9041, region: 'europe' },
  { city: 'London', lat: 51.5072, lng: -0.1276, region: 'europe' },
  { city: 'Paris', lat: 48.8566, lng: 2.3522, region: 'europe' },
  { city: 'Munich', lat: 48.1351, lng: 11.582, region: 'europe' },
  { city: 'Vienna', lat: 48.2082, lng: 16.3738, region: 'europe' },
  { city: 'Zurich', lat: 47.3769, lng: 8.5417, region: 'europe' },
  { city: 'Milan', lat: 45.4642, lng: 9.19, region: 'europe' },
  { city: 'Tokyo', lat: 35.6762, lng: 139.6503, region: 'asia' },
  { city: 'Osaka', lat: 34.6937, lng: 135.5023, region: 'asia' },
  { city: 'Seoul', lat: 37.5665, lng: 126.978, region: 'asia' },
  { city: 'Shanghai', lat: 31.2304, lng: 121.4737, region: 'asia' },
  { city: 'Hangzhou', lat: 30.2741, lng: 120.1551, region: 'asia' },
  { city: 'Shenzhen', lat: 22.5431, lng: 114.0579, region: 'asia' },
  { city: 'Taipei', lat: 25.033, lng: 121.5654, region: 'asia' },
  { city: 'Singapore', lat: 1.3521, lng: 103.8198, region: 'asia' },
];
