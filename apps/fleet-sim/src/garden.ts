import { between, type Rng } from './rng.ts';

const METRES_PER_DEGREE = 111_320;

export interface Point {
  x: number;
  y: number;
}

/**
 * A rectangular lawn, rotated, with the charging station just outside one corner. Coordinates are
 * metres in the lawn's own frame (x along the stripes); `toLatLng` places them on the globe.
 */
export class Garden {
  readonly width: number;
  readonly depth: number;
  /** Where the charging station stands. */
  readonly home: Point = { x: -1.5, y: 0.5 };
  /** The mowing route: back-and-forth stripes over the whole lawn. */
  readonly stripes: Point[];
  private readonly cos: number;
  private readonly sin: number;

  constructor(
    readonly lat: number,
    readonly lng: number,
    rng: Rng,
    stripeSpacing = 1,
  ) {
    this.width = Math.round(between(rng, 15, 40));
    this.depth = Math.round(between(rng, 10, 30));
    const angle = between(rng, 0, Math.PI);
    this.cos = Math.cos(angle);
    this.sin = Math.sin(angle);
    this.stripes = [];
    for (let row = 0, y = stripeSpacing / 2; y < this.depth; row++, y += stripeSpacing) {
      const [from, to] = row % 2 === 0 ? [0.3, this.width - 0.3] : [this.width - 0.3, 0.3];
      this.stripes.push({ x: from, y }, { x: to, y });
    }
  }

  /** The lawn's corners as [lat, lng] (for maps and tests). */
  polygon(): Array<[number, number]> {
    return [
      { x: 0, y: 0 },
      { x: this.width, y: 0 },
      { x: this.width, y: this.depth },
      { x: 0, y: this.depth },
    ].map((p) => {
      const { lat, lng } = this.toLatLng(p);
      return [lat, lng];
    });
  }

  contains(p: Point): boolean {
    return p.x >= 0 && p.x <= this.width && p.y >= 0 && p.y <= this.depth;
  }

  toLatLng(p: Point): { lat: number; lng: number } {
    const east = p.x * this.cos - p.y * this.sin;
    const north = p.x * this.sin + p.y * this.cos;
    return {
      lat: this.lat + north / METRES_PER_DEGREE,
      lng: this.lng + east / (METRES_PER_DEGREE * Math.cos((this.lat * Math.PI) / 180)),
    };
  }

  /** Compass heading (degrees clockwise from north) of a move in lawn coordinates. */
  heading(from: Point, to: Point): number {
    const dx = to.x - from.x;
    const dy = to.y - from.y;
    const east = dx * this.cos - dy * this.sin;
    const north = dx * this.sin + dy * this.cos;
    const deg = (Math.atan2(east, north) * 180) / Math.PI;
    return Math.round(((deg + 360) % 360) * 10) / 10 % 360;
  }
}

/** Moves `from` towards `to` by at most `distance` metres. */
export function stepTowards(from: Point, to: Point, distance: number): { point: Point; arrived: boolean } {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const d = Math.hypot(dx, dy);
  if (d <= distance) return { point: { ...to }, arrived: true };
  return { point: { x: from.x + (dx / d) * distance, y: from.y + (dy / d) * distance }, arrived: false };
}
