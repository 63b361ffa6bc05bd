// A quiet icon-only button with its tooltip. The tooltip text is also its accessible name unless a
// fuller one is given (e.g. 'Edit Garden notes' where the tooltip says 'Edit').
import { ActionIcon, type ActionIconProps, type ElementProps } from '@mantine/core';
import { LazyTooltip } from './LazyTooltip';

interface TooltipIconButtonProps extends ActionIconProps, ElementProps<'button', keyof ActionIconProps> {
  tooltip: string;
  /** Accessible name; the tooltip text by default. */
  label?: string;
}

export function TooltipIconButton({ tooltip, label = tooltip, ...props }: TooltipIconButtonProps) {
  return (
    <LazyTooltip label={tooltip} withArrow>
      <ActionIcon variant="subtle" color="gray" aria-label={label} {...props} />
    </LazyTooltip>
  );
}
