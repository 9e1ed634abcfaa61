import { useEffect, useRef, useState } from 'react';
import { Button, Message, Popconfirm, Space, Tag, Tooltip } from '@arco-design/web-react';
import { IconCopy, IconEraser, IconPaste, IconPoweroff } from '@arco-design/web-react/icon';
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useT } from '../locale/i18n.ts';
import { getServerHost, getToken } from '../session/token.ts';
import { ShellSocket, shellSocketUrl, splitInput, type ShellPhase } from './shell-socket.ts';
import { terminalOptions } from './xterm-theme.ts';

export interface SessionStatus {
  phase: ShellPhase;
  reason?: string;
  message?: string;
  sessionId?: string;
}

const phaseColour: Record<ShellPhase, string> = { connecting: 'arcoblue', opening: 'arcoblue', open: 'green', closed: 'gray', failed: 'red' };

/** One live shell session in an xterm.js terminal: colours, scrollback, resize, copy and paste. */
export function TerminalPane({ sn, active, onStatus }: { sn: string; active: boolean; onStatus(s: SessionStatus): void }) {
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  const term = useRef<Terminal | undefined>(undefined);
  const socket = useRef<ShellSocket | undefined>(undefined);
  const fit = useRef<FitAddon | undefined>(undefined);
  const [status, setStatus] = useState<SessionStatus>({ phase: 'connecting' });
  // The latest translator and callback, read from the socket's event handlers.
  const latest = useRef({ t, onStatus });
  latest.current = { t, onStatus };

  useEffect(() => {
    const terminal = new Terminal(terminalOptions);
    const fitAddon = new FitAddon();
    terminal.loadAddon(fitAddon);
    terminal.open(box.current!);
    fitAddon.fit();
    term.current = terminal;
    fit.current = fitAddon;
    const s = new ShellSocket(shellSocketUrl(getServerHost(), window.location), {
      onOutput: (data) => terminal.write(data),
      onPhase: (phase, detail) => {
        const next = { phase, ...detail, sessionId: detail.sessionId ?? socket.current?.sessionId };
        setStatus(next);
        latest.current.onStatus(next);
        const tr = latest.current.t;
        if (phase === 'closed') terminal.write(`\r\n\x1b[33m[${tr('shell.ended')}: ${tr(`shell.reason.${detail.reason ?? 'user'}`)}]\x1b[0m\r\n`);
        if (phase === 'failed') terminal.write(`\r\n\x1b[31m[${detail.message ?? tr('shell.failed')}]\x1b[0m\r\n`);
        if (phase === 'closed' || phase === 'failed') terminal.options.cursorBlink = false;
      },
    });
    socket.current = s;
    s.connect(getToken() ?? '', sn, terminal.cols, terminal.rows);
    const data = terminal.onData((d) => splitInput(d).forEach((part) => s.input(part)));
    const resized = terminal.onResize(({ cols, rows }) => s.resize(cols, rows));
    terminal.attachCustomKeyEventHandler((ev) => {
      // Ctrl+Shift+C / Ctrl+Shift+V copy and paste; plain Ctrl+C stays an interrupt for the mower.
      if (ev.type !== 'keydown' || !ev.ctrlKey || !ev.shiftKey) return true;
      if (ev.code === 'KeyC') void copy();
      else if (ev.code === 'KeyV') void paste();
      else return true;
      return false;
    });
    const observer = new ResizeObserver(() => {
      if (box.current && box.current.offsetWidth > 0) fitAddon.fit();
    });
    observer.observe(box.current!);
    return () => {
      observer.disconnect();
      data.dispose();
      resized.dispose();
      s.close();
      terminal.dispose();
    };
    // One session per pane for its whole life: the SN of a mounted pane never changes.
  }, []);

  useEffect(() => {
    if (active && box.current && box.current.offsetWidth > 0) {
      fit.current?.fit();
      term.current?.focus();
    }
  }, [active]);

  async function copy() {
    const text = term.current?.getSelection() ?? '';
    if (!text) return Message.info(t('shell.copy.empty'));
    await navigator.clipboard.writeText(text);
    Message.success(t('shell.copy.done'));
  }

  async function paste() {
    const text = await navigator.clipboard.readText().catch(() => '');
    if (text) splitInput(text).forEach((part) => socket.current?.input(part));
    term.current?.focus();
  }

  const live = status.phase === 'open';
  return (
    <div className="shell-pane">
      <div className="shell-pane-bar">
        <Space>
          <Tag color={phaseColour[status.phase]} data-testid="shell-status">
            {status.phase === 'closed' ? `${t('shell.phase.closed')} · ${t(`shell.reason.${status.reason ?? 'user'}`)}` : t(`shell.phase.${status.phase}`)}
          </Tag>
          {status.phase === 'failed' && status.message ? <span className="shell-pane-error">{status.message}</span> : null}
        </Space>
        <Space size="mini">
          <Tooltip content={t('shell.copy.hint')}>
            <Button size="small" type="text" icon={<IconCopy />} onClick={() => void copy()}>
              {t('shell.copy')}
            </Button>
          </Tooltip>
          <Tooltip content={t('shell.paste.hint')}>
            <Button size="small" type="text" icon={<IconPaste />} disabled={!live} onClick={() => void paste()}>
              {t('shell.paste')}
            </Button>
          </Tooltip>
          <Button size="small" type="text" icon={<IconEraser />} onClick={() => term.current?.clear()}>
            {t('shell.clearScreen')}
          </Button>
          <Popconfirm title={t('shell.close.confirm')} onOk={() => socket.current?.close()} disabled={!live}>
            <Button size="small" type="text" status="danger" icon={<IconPoweroff />} disabled={!live}>
              {t('shell.close')}
            </Button>
          </Popconfirm>
        </Space>
      </div>
      <div className="shell-terminal" ref={box} data-testid="shell-terminal" />
    </div>
  );
}
