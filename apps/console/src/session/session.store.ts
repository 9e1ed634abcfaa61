import { create } from 'zustand';
import type { Role, UserInfo } from '@mowerline/contract';
import { clearToken } from './token.ts';

interface SessionState {
  /** Spec §3 session state: name and role, plus the rest of the user info. */
  user: UserInfo | null;
  /** The role the server gave; `user.role` may differ after a role switch. */
  serverRole: Role | null;
  setUser(user: UserInfo): void;
  /** Switch role (message box menu): what the console shows follows; the server still decides. */
  switchRole(): void;
  /** Local half of logout: forget the user and the token, whatever the server said. */
  reset(): void;
}

export const useSession = create<SessionState>((set) => ({
  user: null,
  serverRole: null,
  // A refresh of the user info keeps the role the server first gave (the shown role may be switched).
  setUser: (user) => set((s) => ({ user, serverRole: s.serverRole ?? user.role })),
  switchRole: () => set((s) => (s.user ? { user: { ...s.user, role: s.user.role === 'admin' ? 'user' : 'admin' } } : s)),
  reset() {
    clearToken();
    set({ user: null, serverRole: null });
  },
}));
