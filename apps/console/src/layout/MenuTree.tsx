import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Menu } from '@arco-design/web-react';
import { useNavigate } from 'react-router';
import type { RouteDef } from '@mowerline/contract';
import { useT } from '../locale/i18n.ts';
import { menuIcon } from './menu-icons.tsx';
import { entryPath, isExternal, useMenuRoutes } from './menu-routes.ts';

interface MenuTreeProps {
  mode: 'vertical' | 'horizontal';
  collapsed?: boolean;
  /** Route name of the page on screen (or the entry a hidden page highlights). */
  selected?: string;
  /** Called after a page is chosen (the narrow-screen drawer closes). */
  onNavigate?(): void;
}

/** The menu from the route table (or the server menu): groups with their pages, in menu order. */
export function MenuTree({ mode, collapsed, selected, onNavigate }: MenuTreeProps) {
  const t = useT();
  const navigate = useNavigate();
  const routes = useMenuRoutes();
  const paths = new Map<string, string>();
  for (const group of routes) {
    paths.set(group.name, entryPath(null, group));
    for (const child of group.children ?? []) paths.set(child.name, entryPath(group, child));
  }
  const selectedGroup = routes.find((g) => g.children?.some((c) => c.name === selected))?.name;
  const [openKeys, setOpenKeys] = useState<string[]>(selectedGroup ? [selectedGroup] : []);
  useEffect(() => {
    // Opening a page from elsewhere (tab, link) unfolds its group without folding the others.
    if (selectedGroup) setOpenKeys((keys) => (keys.includes(selectedGroup) ? keys : [...keys, selectedGroup]));
  }, [selectedGroup]);

  // Arco draws a group's header as a bare <div aria-expanded> inside role="menu": screen readers
  // get neither a menu item nor its open state (axe: aria-allowed-attr, aria-required-children).
  // Giving the headers their role makes the group a proper menu item that opens a sub-menu.
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    box.current?.querySelectorAll('.arco-menu-inline-header:not([role]), .arco-menu-pop-header:not([role])').forEach((header) => {
      header.setAttribute('role', 'menuitem');
      header.setAttribute('aria-haspopup', 'true');
    });
  });

  const go = (key: string) => {
    const path = paths.get(key);
    if (!path) return;
    if (isExternal(path)) window.open(path, '_blank', 'noopener');
    else navigate(path);
    onNavigate?.();
  };

  const item = (route: RouteDef, group: RouteDef | null) => (
    <Menu.Item key={route.name} data-testid={`menu-${route.name}`}>
      {group ? null : menuIcon(route.meta.icon)}
      {t(route.meta.locale)}
    </Menu.Item>
  );

  return (
    <div ref={box} className="menu-tree">
      <Menu
        mode={mode}
        collapse={collapsed}
        selectedKeys={selected ? [selected] : []}
        {...(mode === 'vertical' ? { openKeys, onClickSubMenu: (_key: string, keys: string[]) => setOpenKeys(keys) } : {})}
        onClickMenuItem={go}
        autoScrollIntoView
        ellipsis={mode === 'horizontal'}
      >
        {routes.map((group) =>
          group.children ? (
            <Menu.SubMenu
              key={group.name}
              data-testid={`menu-${group.name}`}
              title={
                <>
                  {menuIcon(group.meta.icon)}
                  {t(group.meta.locale)}
                </>
              }
            >
              {group.children.map((child) => item(child, group))}
            </Menu.SubMenu>
          ) : (
            item(group, null)
          ),
        )}
      </Menu>
    </div>
  );
}
