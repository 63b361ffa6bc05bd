// A Mantine Tooltip mounted on first use. Mantine renders a closed Tooltip's Portal all the same: a node
// appended to <body> and one more render once it is there. An open conversation has about twenty
// tooltips (each message's actions), all paid for on the first paint (bench/lighthouse.mjs). So the
// Tooltip mounts when the pointer first reaches the target, beside it and pointed at it (`target`), and
// this component opens and closes it (Mantine's default: on hover only). The target itself is never
// remounted: a click that starts as the tooltip mounts must still land (a remounted button lost it).
import { Tooltip, type TooltipProps } from '@mantine/core';
import { useMergedRef } from '@mantine/hooks';
import { cloneElement, useRef, useState, type MouseEvent, type ReactElement, type Ref } from 'react';

type TargetProps = {
  ref?: Ref<HTMLElement>;
  onMouseEnter?: (event: MouseEvent<HTMLElement>) => void;
  onMouseLeave?: (event: MouseEvent<HTMLElement>) => void;
};

export function LazyTooltip({ children, ...props }: Omit<TooltipProps, 'children' | 'target' | 'opened'> & { children: ReactElement<TargetProps> }) {
  /** null until the first hover: no Tooltip at all. */
  const [opened, setOpened] = useState<boolean | null>(null);
  const own = useRef<HTMLElement>(null);
  const ref = useMergedRef(own, children.props.ref);
  const target = cloneElement(children, {
    ref,
    onMouseEnter: (event: MouseEvent<HTMLElement>) => {
      children.props.onMouseEnter?.(event);
      setOpened(true);
    },
    onMouseLeave: (event: MouseEvent<HTMLElement>) => {
      children.props.onMouseLeave?.(event);
      setOpened(false);
    },
  });
  return (
    <>
      {target}
      {opened !== null && <Tooltip {...props} target={own} opened={opened} />}
    </>
  );
}
