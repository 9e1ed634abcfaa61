import type { StaffStatus } from '@mowerline/contract';

/** Status tag colours: pending asks for attention, disabled recedes. */
export const statusColor: Record<StaffStatus, string> = {
  active: 'green',
  pending: 'orange',
  disabled: 'gray',
};

export const roleColor = { admin: 'arcoblue', user: 'cyan' } as const;
