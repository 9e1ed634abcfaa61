import { IconCheckSquare, IconMessage, IconNotification } from '@arco-design/web-react/icon';
import type { MessageType } from '@mowerline/contract';

/** One icon and avatar colour per message type, shared by the messages page and the workplace. */
export const messageIcon: Record<MessageType, { icon: React.ReactNode; color: string }> = {
  message: { icon: <IconMessage />, color: 'rgb(var(--arcoblue-6))' },
  notice: { icon: <IconNotification />, color: 'rgb(var(--orange-6))' },
  todo: { icon: <IconCheckSquare />, color: 'rgb(var(--green-6))' },
};
