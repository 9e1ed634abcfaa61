import { useLayoutEffect, useRef, type ComponentProps } from 'react';
import { Progress } from '@arco-design/web-react';
import { IconMinus, IconPlus } from '@arco-design/web-react/icon';

/**
 * Table `expandProps.icon` whose button has a name (Arco's own row expander is an unnamed
 * <button> around a plus sign). Arco clones the returned button with its click handler.
 */
export function namedExpandIcon(label: (expanded: boolean) => string) {
  return ({ expanded }: { expanded: boolean }) => (
    <button type="button" aria-label={label(expanded)} aria-expanded={expanded}>
      {expanded ? <IconMinus /> : <IconPlus />}
    </button>
  );
}

/** A name for a table row's selection checkbox (Table `rowSelection.checkboxProps`), read by screen readers only. */
export const rowCheckboxLabel = (label: string) => ({ children: <span className="sr-only">{label}</span> });

/**
 * Arco's Progress with an accessible name: Arco puts role="progressbar" on an inner element and
 * passes no aria props to it, so the name is set on that element after render.
 */
export function NamedProgress({ label, ...props }: ComponentProps<typeof Progress> & { label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    ref.current?.querySelector('[role=progressbar]')?.setAttribute('aria-label', label);
  });
  return <Progress ref={ref} {...props} />;
}
