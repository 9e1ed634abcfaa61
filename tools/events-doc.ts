/**
 * Writes docs/events.md from the contract's event catalogue; a test fails while the two differ.
 *
 *   npx tsx tools/events-doc.ts
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { eventTypeNames, eventTypes } from '@mowerline/contract';

export const eventsDocPath = path.resolve(import.meta.dirname, '../docs/events.md');

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  format?: string;
  maxLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

function describe(schema: JsonSchema): string {
  if (schema.anyOf) return schema.anyOf.map(describe).join(' or ');
  if (schema.enum) return schema.enum.map((v) => `\`${String(v)}\``).join(', ');
  if (schema.format === 'date-time') return 'ISO time';
  if (schema.type === 'string' && schema.maxLength !== undefined) return `text (≤ ${schema.maxLength})`;
  return String(schema.type ?? 'any');
}

export function renderEventsDoc(): string {
  const lines = [
    '# Domain events',
    '',
    '<!-- Generated from packages/contract/src/events.ts by `npx tsx tools/events-doc.ts`: do not edit by hand. -->',
    '',
    'What happened on the platform, written in the same transaction as the change that caused it (the',
    '`events` table is a transactional outbox) and delivered at least once to every subscriber that',
    'names the type, in order per subject. A redelivery carries the same `id`: subscribers drop repeats',
    'by it. Telemetry itself is not an event; its consequences (presence, state changes) are.',
    '',
    'Every event: `id` (text), `type`, `version`, `subject` (the SN, or the id of the ticket, campaign or',
    'account), `payload` (below), `createdAt`.',
    '',
  ];
  for (const name of eventTypeNames) {
    const def = eventTypes[name];
    const schema = z.toJSONSchema(def.payload, { io: 'input' }) as JsonSchema;
    lines.push(`## \`${name}\` (v${def.version})`, '', `${def.description} Subject: ${def.subject}.`, '', '| Field | Type | Required |', '| --- | --- | --- |');
    for (const [field, inner] of Object.entries(schema.properties ?? {})) {
      lines.push(`| \`${field}\` | ${describe(inner)} | ${schema.required?.includes(field) ? 'yes' : 'no'} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(eventsDocPath, renderEventsDoc());
  process.stdout.write(`wrote ${path.relative(process.cwd(), eventsDocPath)}\n`);
}
