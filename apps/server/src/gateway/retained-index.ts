import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import type { AedesPacket } from 'aedes-packet';
import type MemoryPersistenceClass from 'aedes-persistence/types/asyncPersistence';
import { topicMatches } from '@mowerline/contract';

// aedes' own in-memory persistence, of which only the retained messages are replaced below.
const MemoryPersistence = createRequire(import.meta.url)('aedes-persistence/asyncPersistence.js') as typeof MemoryPersistenceClass;

/** Topic levels that name one device: `mowerline/v1/<SN>`. */
const GROUP_LEVELS = 3;

type RetainedPacket = Extract<AedesPacket, { cmd: 'publish' }>;

const isWildcard = (level: string) => level === '+' || level === '#';

/**
 * aedes' memory persistence with retained messages indexed by device. The stock one tests every
 * retained message against each new subscription, so when every mower keeps a retained presence
 * and subscribes to its own command topic, a reconnect storm costs N² topic matches: at 10,000
 * mowers the embedded broker spent its time there and accepted only about half of them
 * (bench/ingest.ts). Here a filter that names its device (no wildcard in the first three levels)
 * reads only that device's retained topics; other filters still scan everything.
 */
export class IndexedRetainedPersistence extends MemoryPersistence {
  private readonly retained = new Map<string, RetainedPacket>();
  private readonly byDevice = new Map<string, Set<string>>();
  private bytes = 0;

  /** Retained messages held and their payload bytes. */
  size(): { messages: number; bytes: number } {
    return { messages: this.retained.size, bytes: this.bytes };
  }

  override async storeRetained(pkt: AedesPacket): Promise<void> {
    // Only PUBLISH packets are ever retained.
    const packet = { ...pkt } as RetainedPacket;
    const group = packet.topic.split('/', GROUP_LEVELS).join('/');
    this.bytes -= this.retained.get(packet.topic)?.payload.length ?? 0;
    if (packet.payload.length === 0) {
      this.retained.delete(packet.topic);
      const topics = this.byDevice.get(group);
      topics?.delete(packet.topic);
      if (topics?.size === 0) this.byDevice.delete(group);
      return;
    }
    this.retained.set(packet.topic, packet);
    this.bytes += packet.payload.length;
    const topics = this.byDevice.get(group);
    if (topics) topics.add(packet.topic);
    else this.byDevice.set(group, new Set([packet.topic]));
  }

  override createRetainedStream(pattern: string): Readable {
    return Readable.from(this.matching([pattern]));
  }

  override createRetainedStreamCombi(patterns: string[]): Readable {
    return Readable.from(this.matching(patterns));
  }

  /** Retained messages matching any of the filters, each once. */
  *matching(filters: string[]): Generator<RetainedPacket> {
    const seen = new Set<string>();
    for (const filter of filters) {
      for (const topic of this.candidates(filter)) {
        if (seen.has(topic) || !topicMatches(filter, topic)) continue;
        seen.add(topic);
        yield this.retained.get(topic)!;
      }
    }
  }

  private candidates(filter: string): Iterable<string> {
    const levels = filter.split('/');
    if (!levels.some(isWildcard)) return this.retained.has(filter) ? [filter] : [];
    const head = levels.slice(0, GROUP_LEVELS);
    if (head.length < GROUP_LEVELS || head.some(isWildcard)) return [...this.retained.keys()];
    return [...(this.byDevice.get(head.join('/')) ?? [])];
  }
}
