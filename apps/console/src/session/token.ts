/** Spec §3/§9 storage keys. The token lives in session storage, or local storage when remembered. */
export const TOKEN_KEY = 'token';
export const SECURITY_TOKEN_KEY = 'security_token';
export const SERVER_HOST_KEY = 'server_host';

export function getToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY) ?? localStorage.getItem(TOKEN_KEY);
}

export function setToken(token: string, remember: boolean): void {
  clearToken();
  (remember ? localStorage : sessionStorage).setItem(TOKEN_KEY, token);
}

export function clearToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(TOKEN_KEY);
}

export function getSecurityToken(): string | null {
  return localStorage.getItem(SECURITY_TOKEN_KEY);
}

export function setSecurityToken(token: string): void {
  localStorage.setItem(SECURITY_TOKEN_KEY, token);
}

/** The region's API host chosen in the navbar (session storage); empty means this origin. */
export function getServerHost(): string {
  return sessionStorage.getItem(SERVER_HOST_KEY) ?? '';
}
