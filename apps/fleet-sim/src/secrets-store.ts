import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The simulated mowers' secrets, kept like a real mower keeps its secret in flash: a JSON file
 * readable only by its owner, so a restarted fleet reconnects without new secrets.
 */
export class SecretsStore {
  private readonly secrets = new Map<string, string>();

  constructor(private readonly file?: string) {
    if (file && existsSync(file)) {
      const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
      for (const [sn, secret] of Object.entries(data)) this.secrets.set(sn, secret);
    }
  }

  get(sn: string): string | undefined {
    return this.secrets.get(sn);
  }

  set(sn: string, secret: string): void {
    this.secrets.set(sn, secret);
  }

  save(): void {
    if (!this.file) return;
    mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(Object.fromEntries(this.secrets), null, 1), { mode: 0o600 });
    renameSync(tmp, this.file);
    chmodSync(this.file, 0o600);
  }
}
