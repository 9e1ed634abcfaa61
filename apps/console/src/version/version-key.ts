/**
 * Local-storage key of the console version this browser last loaded. Its own module so the check
 * and the dialog it loads lazily both read it without importing each other.
 */
export const VERSION_KEY = 'version';
