// A Mantine Tooltip mounted on first use. Mantine renders a closed Tooltip's Portal all the same: a node
// appended to <body> and one more render once it is there. An open conversation has about twenty
// tooltips (each message's actions), all paid for on the first paint (bench/lighthouse.mjs). Until the
// pointer first reaches the target only the target renders; then the Tooltip mounts already open and
// takes over (Mantine's default events: hover only, so focus does not need to arm it).
import { Tooltip, type TooltipProps } from '@mantine/core';
import { cloneElement, useState, type MouseEvent, type ReactElement } from 'react';

type Target = ReactElement<{ onMouseEnter?: (event: MouseEvent<HTMLElement>) => void }>;

export function LazyTooltip({ children, ...props }: Omit<TooltipProps, 'children'> & { children: Target }) {
  const [armed, setArmed] = useState(false);
  if (armed) {
    return (
      <Tooltip defaultOpened {...props}>
        {children}
      </Tooltip>
    );
  }
  return cloneElement(children, {
    onMouseEnter: (event: MouseEvent<HTMLElement>) => {
      children.props.onMouseEnter?.(event);
      setArmed(true);
    },
  });
}
