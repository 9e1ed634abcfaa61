import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Radio, Space, Spin, Typography } from '@arco-design/web-react';
import { NamedProgress } from '../components/a11y.tsx';
import { IconPause, IconPlayArrow, IconSkipNext } from '@arco-design/web-react/icon';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useT } from '../locale/i18n.ts';
import { Player, playbackSpeeds, timeline } from './playback.ts';
import { useRecording } from './shell.api.ts';
import { terminalOptions } from './xterm-theme.ts';

/** m:ss.t — tenths matter: many sessions replay in a few seconds. */
const clock = (ms: number) => {
  const tenths = Math.floor(ms / 100);
  const s = Math.floor(tenths / 10);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}.${tenths % 10}`;
};

/** Replays a recorded session in a terminal with its timings (long pauses shortened), at a chosen speed. */
export function PlaybackPane({ sessionId }: { sessionId: string }) {
  const t = useT();
  const recording = useRecording(sessionId);
  const frames = useMemo(() => (recording.data ? timeline(recording.data.frames) : undefined), [recording.data]);
  const box = useRef<HTMLDivElement>(null);
  const player = useRef<Player | undefined>(undefined);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState({ at: 0, end: 0 });
  const [speed, setSpeed] = useState(1);

  useEffect(() => {
    if (!frames || !recording.data || !box.current) return;
    const { cols, rows } = recording.data.session;
    const terminal = new Terminal({ ...terminalOptions, cols, rows, cursorBlink: false, disableStdin: true });
    terminal.open(box.current);
    const p = new Player(frames, {
      write: (bytes) => terminal.write(bytes),
      resize: (c, r) => terminal.resize(c, r),
      progress: (at, end) => setPosition({ at, end }),
      done: () => setPlaying(false),
      restart: () => {
        terminal.reset();
        terminal.resize(cols, rows);
      },
    });
    player.current = p;
    setPosition({ at: 0, end: p.duration });
    p.play();
    setPlaying(true);
    return () => {
      p.pause();
      terminal.dispose();
    };
  }, [frames, recording.data]);

  if (recording.isLoading || !recording.data) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  const toggle = () => {
    const p = player.current;
    if (!p) return;
    if (p.playing) p.pause();
    else p.play();
    setPlaying(p.playing);
  };
  return (
    <div className="shell-playback">
      <Space className="shell-playback-bar" wrap>
        <Button type="primary" shape="circle" icon={playing ? <IconPause /> : <IconPlayArrow />} onClick={toggle} aria-label={playing ? t('shell.play.pause') : t('shell.play.play')} data-testid="shell-play-toggle" />
        <Button shape="circle" icon={<IconSkipNext />} onClick={() => player.current?.finish()} aria-label={t('shell.play.end')} />
        <NamedProgress label={t('shell.play.position')} style={{ width: 260 }} percent={position.end ? Math.round((position.at / position.end) * 100) : 100} showText={false} />
        <Typography.Text type="secondary" data-testid="shell-play-time">
          {clock(position.at)} / {clock(position.end)}
        </Typography.Text>
        <Radio.Group
          type="button"
          size="small"
          value={speed}
          onChange={(v: number) => {
            setSpeed(v);
            player.current?.setSpeed(v);
          }}
          options={playbackSpeeds.map((s) => ({ label: `${s}×`, value: s }))}
        />
      </Space>
      {recording.data.session.recordTruncated ? <Typography.Text type="warning">{t('shell.play.truncated')}</Typography.Text> : null}
      <div className="shell-terminal shell-terminal-playback" ref={box} data-testid="shell-playback-terminal" />
    </div>
  );
}
