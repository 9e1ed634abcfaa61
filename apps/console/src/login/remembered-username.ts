/**
 * "Remember password" keeps the USERNAME only (plus a longer session on the server); the password
 * is left to the browser's password manager and never touches web storage.
 */
export const REMEMBERED_USERNAME_KEY = 'login_username';

export const rememberedUsername = (): string => localStorage.getItem(REMEMBERED_USERNAME_KEY) ?? '';

export function rememberUsername(username: string, remember: boolean): void {
  if (remember) localStorage.setItem(REMEMBERED_USERNAME_KEY, username);
  else localStorage.removeItem(REMEMBERED_USERNAME_KEY);
}
