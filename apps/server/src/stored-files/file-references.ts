import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { contentFiles } from '../content/content.sql.ts';
import { otaArtifacts } from '../firmware/firmware.sql.ts';
import { ticketAttachments, ticketFileDeletions } from '../tickets/tickets.sql.ts';

/** A column whose values are paths relative to DATA_DIR/files. */
export interface FileReference {
  table: PgTable;
  column: PgColumn;
}

/**
 * Every column that names a stored file. The orphan sweep removes any file under DATA_DIR/files
 * that none of these names, so a feature that stores files must add its column here, or its files
 * are swept an hour after upload (test/stored-files/file-references.test.ts fails until it does).
 */
export const fileReferences: readonly FileReference[] = [
  { table: otaArtifacts, column: otaArtifacts.filePath },
  { table: contentFiles, column: contentFiles.filePath },
  { table: ticketAttachments, column: ticketAttachments.filePath },
  { table: ticketAttachments, column: ticketAttachments.thumbPath },
  // Queued for removal by the tickets' own sweep: left to it, so both never race over one file.
  { table: ticketFileDeletions, column: ticketFileDeletions.path },
];
