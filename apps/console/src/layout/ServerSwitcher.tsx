import { Button, Dropdown, Menu, Tooltip } from '@arco-design/web-react';
import { IconCheck, IconLocation } from '@arco-design/web-react/icon';
import { useQuery } from '@tanstack/react-query';
import { healthApi } from '@mowerline/contract';
import { endpointKey } from '../api/endpoint-client.ts';
import { loadRuntimeConfig } from '../app/runtime-config.ts';
import { useT } from '../locale/i18n.ts';
import { getServerHost, SERVER_HOST_KEY } from '../session/token.ts';

/**
 * Region switcher: the server list comes from the runtime configuration (GET /api/config);
 * choosing one keeps its host in session storage (`server_host`) and reloads on it.
 */
export function ServerSwitcher() {
  const t = useT();
  const { data } = useQuery({ queryKey: endpointKey(healthApi.config), queryFn: loadRuntimeConfig, staleTime: Infinity });
  const servers = data?.servers ?? [];
  if (servers.length === 0) return null;
  const host = getServerHost() || window.location.origin;
  const current = servers.find((s) => s.host === host);

  const choose = (index: string) => {
    const server = servers[Number(index)];
    if (!server || server === current) return;
    sessionStorage.setItem(SERVER_HOST_KEY, server.host);
    window.location.reload();
  };

  const droplist = (
    <Menu onClickMenuItem={choose} selectedKeys={current ? [String(servers.indexOf(current))] : []}>
      {servers.map((server, index) => (
        <Menu.Item key={String(index)} data-testid="server-option">
          <span className="navbar-server-option">
            <span>
              <span className="navbar-server-name">{server.name}</span>
              <span className="navbar-server-host">{server.host}</span>
            </span>
            {server === current ? <IconCheck /> : null}
          </span>
        </Menu.Item>
      ))}
    </Menu>
  );

  return (
    <Dropdown droplist={droplist} position="br" trigger="click">
      <Tooltip content={t('navbar.server')} position="bottom">
        <Button className="navbar-button" shape="round" icon={<IconLocation />} data-testid="server-switcher">
          <span className="navbar-server-current">{current?.name ?? t('navbar.server')}</span>
        </Button>
      </Tooltip>
    </Dropdown>
  );
}
